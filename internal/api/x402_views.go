package api

import (
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// viewProcessorWallet is rails.processor_wallet of the status answer; its
// balance is null when the chain cannot be read (never 0 for unknown).
func viewProcessorWallet(status string, p *botpay.ProcessorWallet) *wire.ProcessorWallet {
	v := &wire.ProcessorWallet{Status: status, Address: p.Address}
	if !p.BalanceUnknown {
		v.BalanceUSD = wire.Ptr(dollars(p.Available()))
	}
	return v
}
