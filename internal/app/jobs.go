package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/jobs"
)

// JobIntervals are how often the periodic jobs of the service run.
type JobIntervals struct {
	Expiry      time.Duration // held purchases and signing requests
	Resume      time.Duration // live settlements and on-chain refunds
	MailDigests time.Duration
}

// RegisterJobs adds the service's background jobs to r: owner mail
// retries and digests, expiry, and (with a chain) settlement and refund
// resumption.
func (s *Service) RegisterJobs(r *jobs.Runner, every JobIntervals) {
	r.Register(s.mailRetryJob())
	r.Register(s.mailDigestJob(every.MailDigests))
	r.Register(s.expiryJob(every.Expiry))
	if s.chain != nil {
		r.Register(s.resumeJob(every.Resume))
	}
}

// resumeJob finishes, every interval, the live settlements and on-chain
// refunds whose request ended before the chain did (a crash, a restart, a
// buyer who hung up): each stored transaction is checked, sent again if
// the node does not know it, and its sale recorded once confirmed.
// Recording is conditional, so a sale is recorded once even when a pass
// outlives its lease and another replica starts the next.
func (s *Service) resumeJob(every time.Duration) jobs.Kind {
	return jobs.Kind{Name: "chain.resume", Every: every, Run: func(ctx context.Context, _ jobs.Job) error {
		var errs []error
		if err := s.payments.ResumePass(ctx, s.clock.Now().Add(-every)); err != nil {
			errs = append(errs, fmt.Errorf("resuming x402 settlements: %w", err))
		}
		if err := s.payments.ResumeRefunds(ctx, s.clock.Now().Add(-every)); err != nil {
			errs = append(errs, fmt.Errorf("resuming on-chain refunds: %w", err))
		}
		return errors.Join(errs...)
	}}
}
