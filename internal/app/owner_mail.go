package app

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/ratelimit"
)

// newOwnerMail builds the owner mail of internal/notifications over the
// store's rate-limit windows and job queue.
func (s *Service) newOwnerMail(c Config) *notifications.OwnerMail {
	return notifications.NewOwnerMail(notifications.OwnerMailDeps{DB: c.Store.Kernel(), Sealer: c.Sealer, Mail: c.Mail,
		Logger: s.log, BaseURL: s.baseURL, PerBotPerDay: s.limits.OwnerMailsPerBotPerDay,
		PerAddressPerDay: s.limits.OwnerMailsPerAddressPerDay, Limits: ownerMailLimits{s.windows}, Jobs: s.jobs,
		Owners: owners{s}})
}

// owners reads owners through the accounts capability, built after the
// owner mail (which it mails through).
type owners struct{ s *Service }

func (o owners) OwnerByID(ctx context.Context, id string) (botpay.Owner, error) {
	return o.s.accounts.OwnerByID(ctx, id)
}

// ownerMailLimits counts owner notifications in the store's windows,
// unannounced: they are no answer's RateLimit headers.
type ownerMailLimits struct{ w *ratelimit.Windows }

func (l ownerMailLimits) TakeMailLimits(ctx context.Context, limits []notifications.MailLimit) error {
	all := make([]ratelimit.Limit, len(limits))
	for i, m := range limits {
		all[i] = ratelimit.Limit{Bucket: m.Bucket, Max: m.Max, Window: m.Window, Unannounced: true}
	}
	return l.w.TakeAll(ctx, all)
}

// notifyOwner sends an owner notification, kept for another attempt when
// the mail server fails.
func (s *Service) notifyOwner(ctx context.Context, m mail.Message) { s.ownerMail.Notify(ctx, m) }

// notifyAboutBot sends m, about bot b, within the daily limits.
func (s *Service) notifyAboutBot(ctx context.Context, b botpay.Bot, m mail.Message) {
	s.ownerMail.NotifyAboutBot(ctx, b, m)
}

// admitOwnerMail takes one notification about b to address to from the
// daily limits; false when it is held back for the digest.
func (s *Service) admitOwnerMail(ctx context.Context, b botpay.Bot, to string) bool {
	return s.ownerMail.Admit(ctx, b, to)
}

// send makes one bounded attempt at m.
func (s *Service) send(ctx context.Context, m mail.Message) error { return s.ownerMail.Send(ctx, m) }

func (s *Service) sendDueDigests(ctx context.Context) { s.ownerMail.SendDueDigests(ctx) }

func (s *Service) mailRetryJob() jobs.Kind { return s.ownerMail.RetryJob() }

func (s *Service) mailDigestJob(every time.Duration) jobs.Kind { return s.ownerMail.DigestJob(every) }

// ownerAddress is where mail about a bot goes: its owner's account, or
// before the claim the address the bot registered with.
func (s *Service) ownerAddress(ctx context.Context, b botpay.Bot) (string, error) {
	return s.ownerMail.OwnerAddress(ctx, b)
}

// notifyCallbackChanged tells the owner where the bot's events go now.
func (s *Service) notifyCallbackChanged(ctx context.Context, b botpay.Bot, previous, by string) {
	s.ownerMail.NotifyCallbackChanged(ctx, b, previous, by)
}
