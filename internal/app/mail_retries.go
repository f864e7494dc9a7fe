package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/mail"
)

// Owner notifications (an approval to give, a low balance, the claim
// e-mail) are sent at once, outside any transaction; one whose attempt
// fails is kept, sealed, as a job (mailRetryJob) tried again with backoff, so a
// mail server that is down for a while delays them but loses none. Mail
// whose outcome the caller reports (an invoice's email_sent, a top-up
// request's owner_notified) is not retried: the answer has already said it
// was not sent.
const (
	mailRetryFirst  = 30 * time.Second // after the failed first attempt
	mailRetryMax    = 30 * time.Minute // longest wait between attempts
	mailRetryTries  = 10               // attempts in all, about 2.5 hours
	mailRetryLease  = time.Minute      // one replica's hold on a claimed message
	mailSendTimeout = 10 * time.Second
)

var mailRetryAAD = []byte("mail_retry")

// notifyOwner sends an owner notification, keeping it for mailRetryJob when
// the attempt fails.
func (s *Service) notifyOwner(ctx context.Context, m mail.Message) {
	err := s.send(ctx, m)
	if err == nil {
		return
	}
	s.log.WarnContext(ctx, "e-mail not sent; it will be tried again", "subject", m.Subject, "err", err)
	plain, jerr := json.Marshal(m)
	if jerr == nil {
		jerr = s.jobs.Enqueue(context.WithoutCancel(ctx), jobs.NewJob{Kind: mailRetryKind, Attempts: 1,
			Payload: s.sealer.Seal(plain, mailRetryAAD), RunAt: s.clock.Now().Add(mailRetryFirst), LastError: err.Error()})
	}
	if jerr != nil {
		s.log.ErrorContext(ctx, "e-mail not kept for another attempt", "subject", m.Subject, "err", jerr)
	}
}

func (s *Service) send(ctx context.Context, m mail.Message) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), mailSendTimeout)
	defer cancel()
	return s.mail.Send(ctx, m)
}

// mailRetryKind is the job kind of an owner notification kept for another
// attempt; its payload is the sealed message.
const mailRetryKind = "mail.retry"

// mailRetryBackoff spaces the attempts after the first retry (30 s after
// the failed first attempt): doubling, at most 30 minutes, with jitter.
var mailRetryBackoff = jobs.Backoff{First: mailRetryFirst, Max: mailRetryMax}

// mailRetryJob is the kind that tries failed owner notifications again.
// Every replica may run it: each message is claimed for a lease before it
// is attempted.
func (s *Service) mailRetryJob() jobs.Kind {
	return jobs.Kind{Name: mailRetryKind, Run: s.retryMail, Tries: mailRetryTries, Retry: mailRetryBackoff, Lease: mailRetryLease}
}

// mailDigestJob is the periodic kind that sends the owners' daily digests
// of held-back notifications.
func (s *Service) mailDigestJob(every time.Duration) jobs.Kind {
	return jobs.Kind{Name: "mail.digests", Every: every, Run: func(ctx context.Context, _ jobs.Job) error {
		s.sendDueDigests(ctx)
		return nil
	}}
}

// retryMail attempts one kept message; an error keeps it for the next
// attempt, or drops it after the last.
func (s *Service) retryMail(ctx context.Context, j jobs.Job) error {
	var m mail.Message
	plain, err := s.sealer.Open(j.Payload, mailRetryAAD)
	if err == nil {
		err = json.Unmarshal(plain, &m)
	}
	if err != nil { // not ours to read (another key): nothing will ever send it
		return fmt.Errorf("e-mail to retry cannot be read: %w (%w)", err, jobs.ErrDrop)
	}
	if err := s.send(ctx, m); err != nil {
		return fmt.Errorf("e-mail %q not sent: %w", m.Subject, err)
	}
	return nil
}
