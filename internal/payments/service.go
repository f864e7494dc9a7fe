package payments

import (
	"context"
	"log/slog"
	"math/big"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// Bots finds an owner's bot; another owner's is not found.
type Bots interface {
	OwnedBot(ctx context.Context, ownerID, botID string) (botpay.Bot, error)
	// Bot finds any bot (the seller of a payment link).
	Bot(ctx context.Context, id string) (botpay.Bot, error)
}

// TokenBalances reads an address's token balance on chain, in the token's
// smallest unit.
type TokenBalances interface {
	TokenBalance(ctx context.Context, a x402.Address) (*big.Int, error)
}

// OwnerMail reaches a bot's owner: the address, the one-click links that
// approve or deny a held signing request until it expires, and the mail
// itself (sent unless the owner's mail limits say otherwise).
type OwnerMail interface {
	OwnerEmail(ctx context.Context, ownerID string) (string, error)
	SigningDecisionURLs(ownerID string, id int64, expires time.Time) (approve, deny string)
	NotifyAboutBot(ctx context.Context, bot botpay.Bot, m mail.Message)
}

// Offers is what x402 payments pay for: checkout pages, the invoices on
// them and payment links. A link is locked inside the claim's transaction,
// so that one authorization at a time pays it.
type Offers interface {
	CheckoutPage(ctx context.Context, id string) (botpay.CheckoutPage, error)
	// InvoiceForBuyer is the invoice ref on the page as its buyer reaches
	// it: with its payment token, counted against the buyer's misses.
	InvoiceForBuyer(ctx context.Context, pageID, ref, token, clientIP string) (botpay.Invoice, error)
	// PaidInvoice is the invoice ref on the page as a replayed payment
	// answers it, with its payment token.
	PaidInvoice(ctx context.Context, pageID, ref string) (botpay.Invoice, error)
	PaymentLink(ctx context.Context, id string) (botpay.PaymentLink, error)
	LockLink(ctx context.Context, tx *kernel.Tx, id string) (botpay.PaymentLink, error)
}

// Sales is the one sale path (internal/earning): a settled payment's sale
// is recorded in the transaction of its claim, and found again by its
// transaction hash.
type Sales interface {
	RecordSaleIn(ctx context.Context, tx *kernel.Tx, in botpay.SaleInput) (botpay.SaleResult, error)
	SaleByTxHash(ctx context.Context, hash string) (botpay.Sale, error)
}

// Receipts mails a buyer the receipt of a settled sale.
type Receipts interface {
	MailReceipt(ctx context.Context, res botpay.SaleResult)
}

// SaleRefunds writes the rows of an on-chain refund of a sale
// (internal/earning owns them): the sale locked and checked, then the
// refund opened, inside the transaction that takes the relayer's nonce;
// completed or failed once the chain decided (done is false when another
// caller recorded it first).
type SaleRefunds interface {
	LockSaleForChainRefund(ctx context.Context, tx *kernel.Tx, botID, saleID string, amount botpay.Money) error
	OpenChainRefund(ctx context.Context, tx *kernel.Tx, rf botpay.Refund) error
	CompleteChainRefund(ctx context.Context, id, minedTx string, newBalance botpay.Money) (done bool, err error)
	FailChainRefund(ctx context.Context, id, reason string) (done bool, err error)
	// SalePayer is the buyer's identifier of a bot's sale.
	SalePayer(ctx context.Context, botID, saleID string) (string, error)
}

// CallLimits takes one call under a rate limit, or refuses it with
// rate_limited.
type CallLimits interface {
	TakeCall(ctx context.Context, bucket string, max int, window time.Duration) error
}

// Deps is what the Service is built from.
type Deps struct {
	DB     *kernel.DB
	Outbox *ledger.Outbox
	Logger *slog.Logger
	// Domain is the token every signature names.
	Domain x402.Domain
	// Sealer seals processor wallets' keys, bound to their bot.
	Sealer *seal.Sealer
	Bots   Bots
	// Chain, set in live mode, reads processor wallets' balances on chain,
	// which signatures count against; nil in the sandbox, where the stored
	// balance counts.
	Chain TokenBalances
	// Live is BOTPAY_MODE=live: owners cannot fund processor wallets.
	Live bool
	Mail OwnerMail
	// BaseURL is the public URL mails link to, no trailing slash.
	BaseURL string
	// Resources reads the 402 answers of resources a bot asks to sign for
	// (recipient_binding.go), through the outbound guard.
	Resources *http.Client
	// Settler settles verified authorizations when no relayer does (nil:
	// the sandbox settler, or in live mode one that refuses every payment).
	Settler settle.Settler
	// Relayer, set in live mode, settles payments and refunds on chain.
	Relayer *settle.Chain
	Offers  Offers
	Sales   Sales
	// Receipts is nil when no receipt is mailed.
	Receipts Receipts
	Refunds  SaleRefunds
	Limits   CallLimits
	// FacilitatorPerMinute bounds each of a bot's facilitator verify and
	// settle calls (zero: FacilitatorCallsPerMinute).
	FacilitatorPerMinute int
	// WriteTimeout is the HTTP server's write timeout: a buyer's request
	// that waits for the chain answers before it (0: no limit is known).
	WriteTimeout time.Duration
}

// Service signs x402 payments.
type Service struct {
	db     *kernel.DB
	outbox *ledger.Outbox
	clock  botpay.Clock
	log    *slog.Logger
	domain x402.Domain
	sealer *seal.Sealer
	bots   Bots
	chain  TokenBalances
	live   bool
	// balances caches processor wallets' on-chain balances (live mode).
	balances  chainBalances
	mail      OwnerMail
	baseURL   string
	resources *http.Client
	// signingWallets holds, by bot id, the processor wallet (address and
	// sealed key) this process last signed with (presign).
	signingWallets sync.Map
	// signers keeps the bots' signing rules (signerConfig).
	signers kernel.ConfigCache[signerConfig]
	settler settle.Settler
	// relay settles on a real chain in live mode (nil in the sandbox).
	relay    *settle.Chain
	offers   Offers
	sales    Sales
	receipts Receipts
	refunds  SaleRefunds
	limits   CallLimits
	// facilitatorPerMinute bounds each of a bot's facilitator calls.
	facilitatorPerMinute int
	// buyerWait bounds how long a buyer's request waits for its
	// settlement (settlement_chain.go).
	buyerWait time.Duration
	// replacements counts the relayer transactions this process replaced
	// (ReplacedTransactions, exported as a metric).
	replacements atomic.Int64
}

// New builds the Service.
func New(d Deps) *Service {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), log: log, domain: d.Domain, sealer: d.Sealer,
		bots: d.Bots, chain: d.Chain, live: d.Live, mail: d.Mail, baseURL: d.BaseURL, resources: d.Resources,
		settler: d.Settler, relay: d.Relayer, offers: d.Offers, sales: d.Sales, receipts: d.Receipts, refunds: d.Refunds,
		limits: d.Limits, facilitatorPerMinute: d.FacilitatorPerMinute, buyerWait: buyerWaitWithin(d.WriteTimeout)}
	if s.facilitatorPerMinute == 0 {
		s.facilitatorPerMinute = FacilitatorCallsPerMinute
	}
	if s.receipts == nil {
		s.receipts = noReceipts{}
	}
	s.x402Defaults()
	return s
}

// noReceipts mails nothing.
type noReceipts struct{}

func (noReceipts) MailReceipt(context.Context, botpay.SaleResult) {}

// ErrNoProcessorWallet is the 404 of the signing endpoint.
var ErrNoProcessorWallet = botpay.ErrNoProcessorWallet

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("payments")

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
