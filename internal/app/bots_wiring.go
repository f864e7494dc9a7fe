package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/mail"
)

// newBots builds the capability of bots and their keys over the store's
// kernel and outbox.
func newBots(s *Service, c Config) *bots.Service {
	return bots.New(bots.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Clock: s.clock, Logger: s.log,
		Sealer: c.Sealer, BaseURL: s.baseURL, AllowPrivate: s.allowPrivate,
		Limits: bots.Limits{RegisterPerHour: s.limits.RegisterPerHour, ClaimPerHour: s.limits.ClaimPerHour,
			ClaimFailuresPerOwnerPerDay: s.limits.ClaimFailuresPerOwnerPerDay, ClaimFailuresPerHour: s.limits.ClaimFailuresPerHour},
		RateLimits: s.windows, OwnerMail: botsPorts{s}})
}

// botsPorts gives internal/bots the owner mail of this package.
type botsPorts struct{ s *Service }

func (p botsPorts) OwnerAddress(ctx context.Context, b botpay.Bot) (string, error) {
	return p.s.ownerAddress(ctx, b)
}

func (p botsPorts) NotifyAboutBot(ctx context.Context, b botpay.Bot, m mail.Message) {
	p.s.notifyAboutBot(ctx, b, m)
}

func (p botsPorts) NotifyCallbackChanged(ctx context.Context, b botpay.Bot, previous, by string) {
	p.s.notifyCallbackChanged(ctx, b, previous, by)
}

// errBotAuth answers a bot without a working API key, as internal/bots does.
var errBotAuth = bots.ErrBotAuth
