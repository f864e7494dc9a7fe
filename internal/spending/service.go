package spending

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

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
// decision (internal/payments keeps them), oldest first, each with its
// position on the insertion sequence it shares with purchases, and one row
// more than the page holds.
type HeldSigning interface {
	PendingSigning(ctx context.Context, ownerID string, page botpay.PageRequest) ([]kernel.Placed[botpay.SigningRequest], error)
}

// Deps is what the Service is built from.
type Deps struct {
	DB      *kernel.DB
	Outbox  *ledger.Outbox
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
	return &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), sealer: d.Sealer, notices: d.Notices,
		signing: d.Signing, perHour: d.CheckoutsPerHour, baseURL: d.BaseURL,
		inOne: d.DB.Driver().InsertInsideWith()}
}

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("spending")
