package notifications

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
)

// Owner notifications about a bot (claim, key rotated, callback changed,
// approvals, low balance, top-up requests) are limited per bot and per
// recipient address over a rolling day: a bot registered with a
// stranger's address, or a runaway one, cannot mail without bound. What a
// limit holds back is counted and summed up in one daily digest, which
// carries no bot's text.
const (
	OwnerMailDay = 24 * time.Hour
	// UnclaimedBotMailsPerDay: the address an unclaimed bot named gets
	// its claim e-mail and at most one more a day; nobody has confirmed
	// that address wants mail about the bot.
	UnclaimedBotMailsPerDay = 2
	digestBatch             = 100
)

// Owner notifications (an approval to give, a low balance, the claim
// e-mail) are sent at once, outside any transaction; one whose attempt
// fails is kept, sealed, as a job (RetryJob) tried again with backoff, so a
// mail server that is down for a while delays them but loses none. Mail
// whose outcome the caller reports (an invoice's email_sent, a top-up
// request's owner_notified) is not retried: the answer has already said it
// was not sent.
const (
	MailRetryFirst  = 30 * time.Second // after the failed first attempt
	MailRetryMax    = 30 * time.Minute // longest wait between attempts
	MailRetryTries  = 10               // attempts in all, about 2.5 hours
	MailRetryLease  = time.Minute      // one replica's hold on a claimed message
	mailSendTimeout = 10 * time.Second
	// MailRetryKind is the job kind of an owner notification kept for
	// another attempt; its payload is the sealed message.
	MailRetryKind = "mail.retry"
)

var mailRetryAAD = []byte("mail_retry")

// MailLimit is one daily window an owner notification is counted in.
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

// MailJobs keeps a failed notification for another attempt: the queue the
// process's job runner takes from.
type MailJobs interface {
	Enqueue(ctx context.Context, j jobs.NewJob) error
}

// OwnerMailDeps is what OwnerMail is built from.
type OwnerMailDeps struct {
	DB      *kernel.DB
	Sealer  *seal.Sealer
	Mail    mail.Sender
	Logger  *slog.Logger
	BaseURL string
	// PerBotPerDay and PerAddressPerDay bound the notifications about one
	// bot and to one address over a rolling day.
	PerBotPerDay, PerAddressPerDay int
	Limits                         MailLimits
	Jobs                           MailJobs
	Owners                         Owners
}

// OwnerMail sends owners their notifications: within the daily limits,
// held back into a digest beyond them, retried when the mail server fails.
type OwnerMail struct {
	d     OwnerMailDeps
	clock botpay.Clock
	log   *slog.Logger
}

// NewOwnerMail builds the OwnerMail.
func NewOwnerMail(d OwnerMailDeps) *OwnerMail {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &OwnerMail{d: d, clock: d.DB.Clock(), log: log}
}

// Admit takes one notification about b to address to from the daily
// limits; false when it is held back for the digest.
func (o *OwnerMail) Admit(ctx context.Context, b botpay.Bot, to string) bool {
	perBot := o.d.PerBotPerDay
	if !b.Claimed() {
		perBot = UnclaimedBotMailsPerDay
	}
	recipient := strings.ToLower(strings.TrimSpace(to))
	err := o.d.Limits.TakeMailLimits(ctx, []MailLimit{
		{Bucket: "owner-mail-bot:" + b.ID, Max: perBot, Window: OwnerMailDay},
		{Bucket: "owner-mail-to:" + botpay.Digest(recipient), Max: o.d.PerAddressPerDay, Window: OwnerMailDay},
	})
	if e := botpay.AsError(err); e != nil && e.Kind == botpay.KindRateLimited {
		if herr := o.holdForDigest(context.WithoutCancel(ctx), recipient, OwnerMailDay); herr != nil {
			o.log.WarnContext(ctx, "held-back notification not counted", "bot_id", b.ID, "err", herr)
		}
		return false
	}
	if err != nil {
		// The change this mail reports has committed; its owner hearing
		// of it matters more than the count.
		o.log.WarnContext(ctx, "owner mail limits not checked", "bot_id", b.ID, "err", err)
	}
	return true
}

// NotifyAboutBot sends m, about bot b, within the daily limits.
func (o *OwnerMail) NotifyAboutBot(ctx context.Context, b botpay.Bot, m mail.Message) {
	if o.Admit(ctx, b, m.To) {
		o.Notify(ctx, m)
	}
}

// Notify sends an owner notification, keeping it for RetryJob when the
// attempt fails.
func (o *OwnerMail) Notify(ctx context.Context, m mail.Message) {
	err := o.Send(ctx, m)
	if err == nil {
		return
	}
	o.log.WarnContext(ctx, "e-mail not sent; it will be tried again", "subject", m.Subject, "err", err)
	plain, jerr := json.Marshal(m)
	if jerr == nil {
		jerr = o.d.Jobs.Enqueue(context.WithoutCancel(ctx), jobs.NewJob{Kind: MailRetryKind, Attempts: 1,
			Payload: o.d.Sealer.Seal(plain, mailRetryAAD), RunAt: o.clock.Now().Add(MailRetryFirst), LastError: err.Error()})
	}
	if jerr != nil {
		o.log.ErrorContext(ctx, "e-mail not kept for another attempt", "subject", m.Subject, "err", jerr)
	}
}

// Send makes one attempt, bounded in time whatever ctx allows.
func (o *OwnerMail) Send(ctx context.Context, m mail.Message) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), mailSendTimeout)
	defer cancel()
	return o.d.Mail.Send(ctx, m)
}

// mailRetryBackoff spaces the attempts after the first retry (30 s after
// the failed first attempt): doubling, at most 30 minutes, with jitter.
var mailRetryBackoff = jobs.Backoff{First: MailRetryFirst, Max: MailRetryMax}

// RetryJob is the kind that tries failed owner notifications again.
// Every replica may run it: each message is claimed for a lease before it
// is attempted.
func (o *OwnerMail) RetryJob() jobs.Kind {
	return jobs.Kind{Name: MailRetryKind, Run: o.retry, Tries: MailRetryTries, Retry: mailRetryBackoff, Lease: MailRetryLease}
}

// DigestJob is the periodic kind that sends the owners' daily digests of
// held-back notifications.
func (o *OwnerMail) DigestJob(every time.Duration) jobs.Kind {
	return jobs.Kind{Name: "mail.digests", Every: every, Run: func(ctx context.Context, _ jobs.Job) error {
		o.SendDueDigests(ctx)
		return nil
	}}
}

// retry attempts one kept message; an error keeps it for the next
// attempt, or drops it after the last.
func (o *OwnerMail) retry(ctx context.Context, j jobs.Job) error {
	var m mail.Message
	plain, err := o.d.Sealer.Open(j.Payload, mailRetryAAD)
	if err == nil {
		err = json.Unmarshal(plain, &m)
	}
	if err != nil { // not ours to read (another key): nothing will ever send it
		return fmt.Errorf("e-mail to retry cannot be read: %w (%w)", err, jobs.ErrDrop)
	}
	if err := o.Send(ctx, m); err != nil {
		return fmt.Errorf("e-mail %q not sent: %w", m.Subject, err)
	}
	return nil
}

// SendDueDigests sends every digest of held-back notifications that is due.
func (o *OwnerMail) SendDueDigests(ctx context.Context) {
	for ctx.Err() == nil {
		due, err := o.takeDueDigests(ctx, digestBatch)
		if err != nil {
			if ctx.Err() == nil {
				o.log.WarnContext(ctx, "taking due digests failed", "err", err)
			}
			return
		}
		for _, d := range due {
			o.Notify(ctx, o.digestMail(d))
		}
		if len(due) < digestBatch {
			return
		}
	}
}

func (o *OwnerMail) digestMail(d mailDigest) mail.Message {
	text := fmt.Sprintf("Since %s UTC, %d more notifications about bots that name this address were held back: "+
		"botpay sends at most %d a day about one bot (%d while it is unclaimed) and %d a day to one address.\n\n"+
		"If you own these bots, see what happened in your dashboard: %s/dashboard\n"+
		"If you do not recognise them, ignore this message; nothing happens until you claim a bot.\n",
		d.FirstHeldAt.UTC().Format("2006-01-02 15:04"), d.Held, o.d.PerBotPerDay, UnclaimedBotMailsPerDay,
		o.d.PerAddressPerDay, o.d.BaseURL)
	return mail.Message{To: d.Recipient, Subject: "botpay: notifications held back today", Text: text}
}
