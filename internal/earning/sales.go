package earning

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Sales pages through a bot's sales; an empty list before the claim.
func (s *Service) Sales(ctx context.Context, bot botpay.Bot, f botpay.SaleFilter, page botpay.PageRequest) (botpay.Page[botpay.Sale], error) {
	if !bot.Claimed() {
		return botpay.Page[botpay.Sale]{Items: []botpay.Sale{}}, nil
	}
	return s.salesOf(ctx, bot.ID, f, page)
}

// RecordSale is the one path by which money comes in, for every payment
// method: in one transaction it checks the page, link or invoice can be
// paid, records the sale, updates the page's counters, marks the invoice
// paid or the link completed, credits the bot's card wallet with a ledger
// row, and emits wallet.sale.completed (pages and invoices) or
// wallet.payment.received (payment links). A TxHash already recorded is
// kernel.ErrUnique, so a replayed on-chain payment never credits twice.
// Once it has committed the receipt is mailed.
func (s *Service) RecordSale(ctx context.Context, in botpay.SaleInput) (botpay.SaleResult, error) {
	var res botpay.SaleResult
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		res, err = s.recordSale(ctx, tx, in)
		return err
	})
	if err != nil {
		return res, wrapErr(err, "record sale")
	}
	s.MailReceipt(ctx, res)
	return res, nil
}

// RecordSaleIn is RecordSale inside the caller's transaction (x402
// settlement records the sale together with its claim on the
// authorization); the caller mails the receipt once it has committed.
func (s *Service) RecordSaleIn(ctx context.Context, tx *kernel.Tx, in botpay.SaleInput) (botpay.SaleResult, error) {
	return s.recordSale(ctx, tx, in)
}
