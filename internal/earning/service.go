package earning

import (
	"context"
	"log/slog"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/mail"
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

// Mailer sends a buyer's receipt as owner notifications are sent: kept for
// another attempt when the mail server fails.
type Mailer interface {
	Notify(ctx context.Context, m mail.Message)
}

// Sellers names the bot a sale was paid to.
type Sellers interface {
	SellerName(ctx context.Context, botID string) (string, error)
}

// MailLimit is one daily window a receipt is counted in.
type MailLimit struct {
	Bucket string
	Max    int
	Window time.Duration
}

// MailLimits takes one hit under every limit, in one transaction, or
// refuses with the first exhausted one's rate_limited and counts nothing;
// the rate-limit windows are kept where every other limit is.
type MailLimits interface {
	TakeMailLimits(ctx context.Context, limits []MailLimit) error
}

// Receipts is how receipts are mailed to buyers; without Mail none is.
type Receipts struct {
	Mail    Mailer
	Sellers Sellers
	Limits  MailLimits
	BaseURL string
	// PerBotPerDay and PerAddressPerDay bound the receipts of one seller
	// bot and to one address over a rolling day.
	PerBotPerDay, PerAddressPerDay int
}

// Deps is what the Service is built from.
type Deps struct {
	DB       *kernel.DB
	Outbox   *ledger.Outbox
	Offers   Offers
	Chain    ChainRefunds
	Receipts Receipts
	Logger   *slog.Logger
}

// Service records sales and refunds.
type Service struct {
	db       *kernel.DB
	outbox   *ledger.Outbox
	clock    botpay.Clock
	offers   Offers
	chain    ChainRefunds
	receipts Receipts
	log      *slog.Logger
}

// New builds the Service.
func New(d Deps) *Service {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), offers: d.Offers, chain: d.Chain, receipts: d.Receipts, log: log}
}

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("earning")
