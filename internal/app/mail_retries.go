package app

import (
	"context"
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/mail"
)

// Owner notifications (an approval to give, a low balance, the claim
// e-mail) are sent at once, outside any transaction; one whose attempt
// fails is kept, sealed, and tried again by RetryMail with backoff, so a
// mail server that is down for a while delays them but loses none. Mail
// whose outcome the caller reports (an invoice's email_sent, a top-up
// request's owner_notified) is not retried: the answer has already said it
// was not sent.
const (
	mailRetryFirst  = 30 * time.Second // after the failed first attempt
	mailRetryMax    = 30 * time.Minute // longest wait between attempts
	mailRetryTries  = 10               // attempts in all, about 2.5 hours
	mailRetryLease  = time.Minute      // one replica's hold on a claimed message
	mailRetryBatch  = 20
	mailSendTimeout = 10 * time.Second
)

var mailRetryAAD = []byte("mail_retry")

// notifyOwner sends an owner notification, keeping it for RetryMail when
// the attempt fails.
func (s *Service) notifyOwner(ctx context.Context, m mail.Message) {
	err := s.send(ctx, m)
	if err == nil {
		return
	}
	s.log.WarnContext(ctx, "e-mail not sent; it will be tried again", "subject", m.Subject, "err", err)
	plain, jerr := json.Marshal(m)
	if jerr == nil {
		jerr = s.store.QueueMailRetry(context.WithoutCancel(ctx), s.sealer.Seal(plain, mailRetryAAD),
			s.clock.Now().Add(mailRetryFirst), err.Error())
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

// RetryMail runs until ctx ends, trying failed owner notifications again
// every interval. Every replica may run it: each message is claimed for a
// lease before it is attempted.
func (s *Service) RetryMail(ctx context.Context, every time.Duration) {
	runEvery(ctx, every, s.retryMailPass)
}

// retryMailPass attempts every due message once.
func (s *Service) retryMailPass(ctx context.Context) {
	s.sendDueDigests(ctx)
	for ctx.Err() == nil {
		due, err := s.store.ClaimMailRetries(ctx, mailRetryBatch, mailRetryLease)
		if err != nil {
			if ctx.Err() == nil {
				s.log.WarnContext(ctx, "claiming e-mail to retry failed", "err", err)
			}
			return
		}
		for _, r := range due {
			s.retryMail(ctx, r.ID, r.Sealed, r.Attempts)
		}
		if len(due) < mailRetryBatch {
			return
		}
	}
}

func (s *Service) retryMail(ctx context.Context, id int64, sealed []byte, attempts int) {
	var m mail.Message
	plain, err := s.sealer.Open(sealed, mailRetryAAD)
	if err == nil {
		err = json.Unmarshal(plain, &m)
	}
	if err != nil { // not ours to read (another key): nothing will ever send it
		s.log.ErrorContext(ctx, "e-mail to retry cannot be read; dropped", "id", id, "err", err)
		_ = s.store.ForgetMailRetry(ctx, id)
		return
	}
	if err := s.send(ctx, m); err != nil {
		if attempts+1 >= mailRetryTries {
			s.log.ErrorContext(ctx, "e-mail not sent after every attempt; dropped", "subject", m.Subject, "attempts", attempts+1, "err", err)
			_ = s.store.ForgetMailRetry(ctx, id)
			return
		}
		next := s.clock.Now().Add(mailRetryWait(attempts + 1))
		if ferr := s.store.MailRetryFailed(ctx, id, next, err.Error()); ferr != nil {
			s.log.WarnContext(ctx, "recording a failed e-mail attempt failed", "err", ferr)
		}
		return
	}
	if err := s.store.ForgetMailRetry(ctx, id); err != nil {
		// Sent but still kept: the owner may get it twice, which beats
		// never; the lease keeps it from coming round at once.
		s.log.WarnContext(ctx, "forgetting a sent e-mail failed", "id", id, "err", err)
	}
}

// mailRetryWait is the wait after the attempts-th failed attempt: 30 s,
// doubling, at most 30 minutes.
func mailRetryWait(attempts int) time.Duration {
	d := mailRetryFirst
	for i := 1; i < attempts && d < mailRetryMax; i++ {
		d *= 2
	}
	return min(d, mailRetryMax)
}
