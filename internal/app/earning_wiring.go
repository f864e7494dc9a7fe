package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/kernel"
)

// newEarning builds the earning capability: sales, refunds and what is
// paid for. Processor wallets and the owner check are read through the
// Service, whose payments and accounts are built after it.
func (s *Service) newEarning(c Config) *earning.Service {
	return earning.New(earning.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Claims: earningPorts{s},
		Chain: chainRefunds{s}, Receipts: s.receipts(c), Sellers: sellerNames{s}, Wallets: earningPorts{s},
		Senders: earningPorts{s}, InvoiceMail: s.ownerMail, RateLimits: s.windows,
		Limits: earning.OfferLimits{InvoiceMailsPerBotPerDay: c.Limits.InvoiceMailsPerBotPerDay,
			InvoiceMailsPerOwnerPerDay: c.Limits.InvoiceMailsPerOwnerPerDay, RefMissesPerHour: c.Limits.RefMissesPerHour},
		InvoiceKey: earning.InvoiceTokenKey(c.Sealer), BaseURL: s.baseURL, Logger: s.log})
}

// earningPorts are the Service's answers to earning's questions about
// processor wallets, owners and links held by an x402 payment.
type earningPorts struct{ s *Service }

func (p earningPorts) LinkBeingPaid(ctx context.Context, tx *kernel.Tx, linkID string) (bool, error) {
	return p.s.payments.LinkBeingPaid(ctx, tx, linkID)
}

func (p earningPorts) EnsureProcessorWallet(ctx context.Context, ownerID, botID string) (string, error) {
	return p.s.ensureProcessorWallet(ctx, ownerID, botID)
}

func (p earningPorts) ProcessorAddress(ctx context.Context, botID string) string {
	return p.s.processorAddress(ctx, botID)
}

func (p earningPorts) RequireVerifiedOwner(ctx context.Context, bot botpay.Bot) error {
	return p.s.requireVerifiedOwner(ctx, bot)
}
