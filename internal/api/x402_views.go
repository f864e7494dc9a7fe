package api

import "github.com/botpay/botpay/internal/botpay"

// processorWalletView is rails.processor_wallet of the status answer
// (docs/api.md).
type processorWalletView struct {
	Status     string       `json:"status"`
	BalanceUSD botpay.Micro `json:"balance_usd"`
	Address    string       `json:"address"`
}
