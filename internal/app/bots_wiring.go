package app

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
)

// newBots builds the capability of bots and their keys over the store's
// kernel and outbox.
func newBots(s *Service, c Config) *bots.Service {
	return bots.New(bots.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Clock: s.clock, Logger: s.log,
		Sealer: c.Sealer, BaseURL: s.baseURL, AllowPrivate: s.allowPrivate,
		Limits: bots.Limits{RegisterPerHour: s.limits.RegisterPerHour, ClaimPerHour: s.limits.ClaimPerHour,
			ClaimFailuresPerOwnerPerDay: s.limits.ClaimFailuresPerOwnerPerDay, ClaimFailuresPerHour: s.limits.ClaimFailuresPerHour},
		RateLimits: botsPorts{s}, Wallets: c.Store, OwnerMail: botsPorts{s}})
}

// botsPorts gives internal/bots the rate-limit windows of the store and
// the owner mail of this package.
type botsPorts struct{ s *Service }

func botStoreLimit(l bots.Limit) ratelimit.Limit {
	return ratelimit.Limit{Bucket: l.Bucket, Max: l.Max, Window: l.Window, FixedRetryAfter: l.FixedRetryAfter}
}

func (p botsPorts) Take(ctx context.Context, l bots.Limit) error {
	return p.s.windows.Take(ctx, botStoreLimit(l))
}

func (p botsPorts) TakeIn(ctx context.Context, tx *kernel.Tx, l bots.Limit, now time.Time) error {
	return p.s.windows.TakeIn(ctx, tx, botStoreLimit(l), now)
}

func (p botsPorts) RefuseWhenSpentIn(ctx context.Context, tx *kernel.Tx, l bots.Limit, now time.Time) error {
	return p.s.windows.RefuseWhenSpentIn(ctx, tx, botStoreLimit(l), now)
}

func (p botsPorts) HitIn(ctx context.Context, tx *kernel.Tx, l bots.Limit, now time.Time) error {
	return p.s.windows.HitIn(ctx, tx, botStoreLimit(l), now)
}

func (p botsPorts) OwnerAddress(ctx context.Context, b botpay.Bot) (string, error) {
	return p.s.ownerAddress(ctx, b)
}

func (p botsPorts) NotifyAboutBot(ctx context.Context, b botpay.Bot, m mail.Message) {
	p.s.notifyAboutBot(ctx, b, m)
}

// errBotAuth answers a bot without a working API key, as internal/bots does.
var errBotAuth = bots.ErrBotAuth
