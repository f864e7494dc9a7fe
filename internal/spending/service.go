package spending

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// Rules reads, inside a checkout's transaction and under the bot's wallet
// lock, the owner-set rules the store still keeps: the bot's guardrails
// (claimed false when it has none: never claimed), its owner's master
// guardrails and procurement controls, and every card of the bot with its
// payment profiles, any status, oldest first.
type Rules interface {
	CheckoutRules(ctx context.Context, tx *kernel.Tx, botID, ownerID string) (rules botpay.SpendingRules, cards []botpay.Card, claimed bool, err error)
	// HoldRules reads, outside any transaction, the bot's guardrails and
	// cards as they are now, which name the guardrail holding a purchase.
	HoldRules(ctx context.Context, botID string) (botpay.Guardrails, []botpay.Card, error)
	// Rail5Rules reads, inside a rail5 checkout's transaction and under the
	// bot's wallet lock, the bot's guardrails, its owner's master
	// guardrails and the procurement controls (a rail5 card has no
	// payment profiles).
	Rail5Rules(ctx context.Context, tx *kernel.Tx, botID, ownerID string) (botpay.SpendingRules, error)
	// Guardrails reads a claimed bot's guardrails as they are now
	// (wallet_not_active before the claim).
	Guardrails(ctx context.Context, botID string) (botpay.Guardrails, error)
	// MasterGuardrails reads the owner's master guardrails (nil when
	// unset) as they are now.
	MasterGuardrails(ctx context.Context, ownerID string) (*botpay.MasterGuardrails, error)
}

// Sealer seals a payment profile's card details at rest, bound to their
// card and profile, and opens them for an approved purchase only.
type Sealer interface {
	Seal(plaintext, aad []byte) []byte
	Open(sealed, aad []byte) ([]byte, error)
}

// Notices tells the owner about a committed checkout (a held one needs a
// decision; an approved one may have crossed the low-balance line).
type Notices interface {
	CheckoutCommitted(ctx context.Context, bot botpay.Bot, res CheckoutResult)
}

// HeldSigning pages through an owner's x402 signing requests that await a
// decision, oldest first, each with its position on the insertion
// sequence it shares with purchases, and one row more than the page holds.
type HeldSigning interface {
	PendingSigning(ctx context.Context, ownerID string, page botpay.PageRequest) ([]kernel.Placed[botpay.SigningRequest], error)
}

// Deps is what the Service is built from.
type Deps struct {
	DB      *kernel.DB
	Outbox  *ledger.Outbox
	Rules   Rules
	Sealer  Sealer
	Notices Notices
	Signing HeldSigning
	// CheckoutsPerHour is each bot's checkout rate limit (card and rail5).
	CheckoutsPerHour int
	// BaseURL is the public URL, no trailing slash, where a bot is sent
	// to try its rail5 card.
	BaseURL string
}

// Service is how a bot spends from its card wallet and what its owner
// decides about it.
type Service struct {
	db      *kernel.DB
	outbox  *ledger.Outbox
	clock   botpay.Clock
	rules   Rules
	sealer  Sealer
	notices Notices
	signing HeldSigning
	perHour int
	baseURL string
	inOne   bool
	configs kernel.ConfigCache[checkoutConfig]
}

// New builds the Service.
func New(d Deps) *Service {
	return &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), rules: d.Rules, sealer: d.Sealer, notices: d.Notices,
		signing: d.Signing, perHour: d.CheckoutsPerHour, baseURL: d.BaseURL,
		inOne: d.DB.Driver().InsertInsideWith()}
}

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("spending")
