package earning

import (
	"context"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// Offers is what a sale is paid for: checkout pages, invoices and payment
// links, locked and changed inside the sale's transaction.
type Offers interface {
	LockPage(ctx context.Context, tx *kernel.Tx, id string) (botpay.CheckoutPage, error)
	LockInvoiceByRef(ctx context.Context, tx *kernel.Tx, pageID, ref string) (botpay.Invoice, error)
	MarkInvoicePaid(ctx context.Context, tx *kernel.Tx, id, saleID string, now time.Time) error
	LockLink(ctx context.Context, tx *kernel.Tx, id string) (botpay.PaymentLink, error)
	// LinkBeingPaid reports whether an x402 claim holds the link.
	LinkBeingPaid(ctx context.Context, tx *kernel.Tx, id string) (bool, error)
	CompleteLink(ctx context.Context, tx *kernel.Tx, id, saleID string, now time.Time) error
	Invoice(ctx context.Context, id string) (botpay.Invoice, error)
}

// ChainRefunds pays back a live x402 sale on chain, from the seller's
// processor wallet rather than its card wallet.
type ChainRefunds interface {
	RefundSaleOnChain(ctx context.Context, bot botpay.Bot, saleID string, sale SaleForRefund, req botpay.RefundRequest) (botpay.Refund, error)
}

// Receipts mails the receipt of a sale this process has just recorded.
type Receipts interface {
	MailReceipt(ctx context.Context, res botpay.SaleResult)
}

// Deps is what the Service is built from.
type Deps struct {
	DB       *kernel.DB
	Outbox   *ledger.Outbox
	Offers   Offers
	Chain    ChainRefunds
	Receipts Receipts
}

// Service records sales and refunds.
type Service struct {
	db       *kernel.DB
	outbox   *ledger.Outbox
	clock    botpay.Clock
	offers   Offers
	chain    ChainRefunds
	receipts Receipts
}

// New builds the Service.
func New(d Deps) *Service {
	return &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), offers: d.Offers, chain: d.Chain, receipts: d.Receipts}
}

// wrapErr adds context to an error of the package's boundary; a domain
// error (*botpay.Error) stays as it is: its message is the answer.
func wrapErr(err error, format string, args ...any) error {
	if _, domain := err.(*botpay.Error); err == nil || domain {
		return err
	}
	return fmt.Errorf("earning: "+format+": %w", append(args, err)...)
}
