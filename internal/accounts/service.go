package accounts

import (
	"context"
	"log/slog"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
)

// Limit is a rolling-window rate limit on one bucket, counted in the
// database's windows (internal/ratelimit) so every replica sees the same
// counts.
type Limit = ratelimit.Limit

// RateLimits admits hits on the service's rate limits, which other
// capabilities share: on their own (Take), or inside a transaction of
// this package so that the hit and the change commit together (TakeIn).
type RateLimits interface {
	Take(ctx context.Context, l Limit) error
	TakeIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error
}

// OwnerMail sends a notification to an owner after the change that caused
// it, keeping it for another attempt when the mail server fails.
type OwnerMail interface {
	NotifyOwner(ctx context.Context, m mail.Message)
}

// Limits are the configured rate limits of the account use cases.
type Limits struct {
	SignupPerHour  int // per client IP
	LoginPerHour   int // attempts per client IP
	ResetPerHour   int // password-reset requests per client IP
	PairingPerHour int // pairing codes per owner
}

// Deps are what the account use cases need.
type Deps struct {
	DB      *kernel.DB
	Clock   botpay.Clock
	Logger  *slog.Logger
	Mail    OwnerMail
	Limits  Limits
	Rates   RateLimits
	BaseURL string // public URL of the links mailed, no trailing slash
}

// Service runs the account use cases.
type Service struct {
	db      *kernel.DB
	clock   botpay.Clock
	log     *slog.Logger
	mail    OwnerMail
	limits  Limits
	rates   RateLimits
	baseURL string
}

// New builds the Service.
func New(d Deps) *Service {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	clock := d.Clock
	if clock == nil {
		clock = d.DB.Clock()
	}
	return &Service{db: d.DB, clock: clock, log: log, mail: d.Mail, limits: d.Limits, rates: d.Rates, baseURL: d.BaseURL}
}

// notifyOwner sends m through the owner mail of Deps.
func (s *Service) notifyOwner(ctx context.Context, m mail.Message) { s.mail.NotifyOwner(ctx, m) }

// addressBucket makes a client address a rate-limit key as the rest of
// the service does: policy + ":" + the address, an IPv6 client by its /64
// (one subscriber's network hands out a whole /64, so its addresses are
// one client).
func addressBucket(policy, clientIP string) string {
	return policy + ":" + botpay.AddressKey(clientIP)
}
