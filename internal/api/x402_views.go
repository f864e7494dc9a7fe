package api

import "github.com/botpay/botpay/internal/botpay"

// processorWalletView is rails.processor_wallet of the status answer
// (docs/api.md).
type processorWalletView struct {
	Status     string        `json:"status"`
	BalanceUSD *botpay.Micro `json:"balance_usd"` // null when the chain cannot be read
	Address    string        `json:"address"`
}

func viewProcessorWallet(status string, p *botpay.ProcessorWallet) processorWalletView {
	v := processorWalletView{Status: status, Address: p.Address}
	if !p.BalanceUnknown {
		available := p.Available()
		v.BalanceUSD = &available
	}
	return v
}
