package earning

import (
	"context"
	"log/slog"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
)

// LinkClaims are the x402 payers' claims on payment links: a sale by any
// other path waits while one holds the link. Without them (a process that
// takes no x402 payments, as the database tests build it) no claim ever
// holds a link.
type LinkClaims interface {
	// LinkBeingPaid reports whether an x402 claim holds the link.
	LinkBeingPaid(ctx context.Context, tx *kernel.Tx, id string) (bool, error)
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

// ProcessorWallets are the chain wallets buyers pay a seller's pages and
// links to; a bot gets one with its first page or link.
type ProcessorWallets interface {
	EnsureProcessorWallet(ctx context.Context, ownerID, botID string) (string, error)
	// ProcessorAddress is "" while the bot has none.
	ProcessorAddress(ctx context.Context, botID string) string
}

// Senders decides whether mail may go out on a bot's behalf: in live mode
// only once its owner has proved an address.
type Senders interface {
	RequireVerifiedOwner(ctx context.Context, bot botpay.Bot) error
}

// InvoiceMail makes one bounded attempt at an invoice e-mail; a failure is
// the sender's answer (email_reason), not retried.
type InvoiceMail interface {
	Send(ctx context.Context, m mail.Message) error
}

// Limit is a rolling-window rate limit on one bucket, counted in the
// database's windows (internal/ratelimit) so every replica sees the same
// counts.
type Limit = ratelimit.Limit

// RateLimits counts attempts in the database's rate-limit windows; TakeIn
// inside the caller's transaction, so a refused change counts nothing.
type RateLimits interface {
	Take(ctx context.Context, l Limit) error
	TakeIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error
}

// OfferLimits bound invoice e-mails and guesses at invoice references;
// zero values take the defaults.
type OfferLimits struct {
	// Invoice e-mails per rolling 24 hours, per bot and per owner.
	InvoiceMailsPerBotPerDay   int
	InvoiceMailsPerOwnerPerDay int
	// RefMissesPerHour bounds unknown invoice references per client IP on
	// the buyer side (reference numbers are sequential).
	RefMissesPerHour int
}

func (l OfferLimits) withDefaults() OfferLimits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.InvoiceMailsPerBotPerDay, 50)
	def(&l.InvoiceMailsPerOwnerPerDay, 200)
	def(&l.RefMissesPerHour, 30)
	return l
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
	Claims   LinkClaims
	Chain    ChainRefunds
	Receipts Receipts
	Sellers  Sellers
	Wallets  ProcessorWallets
	Senders  Senders
	// InvoiceMail sends invoices; RateLimits counts their e-mails and the
	// misses of invoice references, within Limits.
	InvoiceMail InvoiceMail
	RateLimits  RateLimits
	Limits      OfferLimits
	// InvoiceKey signs invoice payment tokens (InvoiceTokenKey).
	InvoiceKey []byte
	// BaseURL is the public URL of invoices' payment pages, in their mail
	// and PDF.
	BaseURL string
	Logger  *slog.Logger
}

// Service records sales and refunds, and keeps what is paid for:
// checkout pages, invoices and payment links.
type Service struct {
	db          *kernel.DB
	outbox      *ledger.Outbox
	clock       botpay.Clock
	claims      LinkClaims
	chain       ChainRefunds
	receipts    Receipts
	sellers     Sellers
	wallets     ProcessorWallets
	senders     Senders
	invoiceMail InvoiceMail
	rates       RateLimits
	limits      OfferLimits
	invoiceKey  []byte
	baseURL     string
	log         *slog.Logger
}

// New builds the Service.
func New(d Deps) *Service {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	key := d.InvoiceKey
	if key == nil {
		key = InvoiceTokenKey(nil)
	}
	return &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), claims: claimsOrNone(d.Claims), chain: d.Chain, receipts: d.Receipts,
		sellers: d.Sellers, wallets: d.Wallets, senders: d.Senders, invoiceMail: d.InvoiceMail, rates: d.RateLimits,
		limits: d.Limits.withDefaults(), invoiceKey: key, baseURL: d.BaseURL, log: log}
}

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("earning")

// noClaims is the LinkClaims of a process that takes no x402 payments.
type noClaims struct{}

func (noClaims) LinkBeingPaid(context.Context, *kernel.Tx, string) (bool, error) { return false, nil }

func claimsOrNone(c LinkClaims) LinkClaims {
	if c == nil {
		return noClaims{}
	}
	return c
}
