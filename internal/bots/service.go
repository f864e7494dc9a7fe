package bots

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

// Limit is a rolling-window rate limit on one bucket, counted in the
// database's windows (internal/ratelimit) so every replica sees the same
// counts.
type Limit = ratelimit.Limit

// RateLimits counts attempts in the database's rate-limit windows. The In
// variants run inside the caller's transaction, so a registration that
// rolls back is not counted while a failed claim is.
type RateLimits interface {
	Take(ctx context.Context, l Limit) error
	TakeIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error
	RefuseWhenSpentIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error
	HitIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error
}

// OwnerMail reaches the person responsible for a bot: its owner once
// claimed, the address it registered with before.
type OwnerMail interface {
	OwnerAddress(ctx context.Context, b botpay.Bot) (string, error)
	// NotifyAboutBot sends m within the owner's mail limits, with retries.
	NotifyAboutBot(ctx context.Context, b botpay.Bot, m mail.Message)
	// NotifyCallbackChanged tells the owner where the bot's events go now,
	// and who changed it.
	NotifyCallbackChanged(ctx context.Context, b botpay.Bot, previous, by string)
}

// Sealer seals secrets the service must use later (webhook secrets).
type Sealer interface {
	Seal(plaintext, aad []byte) []byte
}

// Limits are the rate limits of registration and claims.
type Limits struct {
	RegisterPerHour             int // per client IP
	ClaimPerHour                int // per owner and per client IP
	ClaimFailuresPerOwnerPerDay int
	ClaimFailuresPerHour        int // service-wide
}

// Deps is everything the Service needs.
type Deps struct {
	DB     *kernel.DB
	Outbox *ledger.Outbox
	Clock  botpay.Clock
	Logger *slog.Logger
	Sealer Sealer
	// BaseURL is the public URL, no trailing slash.
	BaseURL string
	Limits  Limits
	// AllowPrivate lets callback URLs point at internal addresses.
	AllowPrivate bool
	RateLimits   RateLimits
	OwnerMail    OwnerMail
}

// Service runs the use cases of bots and their keys.
type Service struct {
	db           *kernel.DB
	outbox       *ledger.Outbox
	clock        botpay.Clock
	log          *slog.Logger
	sealer       Sealer
	baseURL      string
	limits       Limits
	allowPrivate bool
	rateLimits   RateLimits
	ownerMail    OwnerMail
	// botAuth keeps claimed bots by API key digest for the payment
	// endpoints (bot_auth_cache.go).
	botAuth botAuthCache
}

// New builds the Service.
func New(d Deps) *Service {
	log, clock := d.Logger, d.Clock
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if clock == nil {
		clock = d.DB.Clock()
	}
	return &Service{db: d.DB, outbox: d.Outbox, clock: clock, log: log, sealer: d.Sealer, baseURL: d.BaseURL,
		limits: d.Limits, allowPrivate: d.AllowPrivate, rateLimits: d.RateLimits, ownerMail: d.OwnerMail}
}
