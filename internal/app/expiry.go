package app

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/jobs"
)

// expiryBatch bounds the bots one expiry pass handles before it looks again.
const expiryBatch = 100

// ExpireHeldPurchases runs until ctx ends a job runner of the expiry job
// alone, for a process that runs nothing else in the background (serve
// registers it with the others, RegisterJobs).
func (s *Service) ExpireHeldPurchases(ctx context.Context, every time.Duration) {
	r := jobs.New(jobs.Config{Queue: s.jobs, Logger: s.log, Poll: every})
	r.Register(s.expiryJob(every))
	r.Run(ctx)
}

// expiryJob expires, every interval, held purchases and held signing
// requests whose 15 minutes have passed: holds and reservations are
// released and purchase.expired is written. Each is claimed by a
// conditional update (internal/spending for purchases, the store for
// signing requests), so the event is written exactly once, whichever
// replica runs the pass.
func (s *Service) expiryJob(every time.Duration) jobs.Kind {
	return jobs.Kind{Name: "expiry", Every: every, Run: func(ctx context.Context, _ jobs.Job) error {
		s.expirePass(ctx)
		return nil
	}}
}

func (s *Service) expirePass(ctx context.Context) {
	s.expireAll(ctx, "held purchases", s.spending.ExpireOverdue)
	s.expireAll(ctx, "held signing requests", s.payments.ExpireOverdueSigning)
}

// expireAll runs expire in batches until a batch comes back short.
func (s *Service) expireAll(ctx context.Context, what string, expire func(context.Context, int) (int, error)) {
	for ctx.Err() == nil {
		n, err := expire(ctx, expiryBatch)
		if err != nil {
			if ctx.Err() == nil {
				s.log.WarnContext(ctx, "expiring "+what+" failed", "err", err)
			}
			return
		}
		if n < expiryBatch {
			return
		}
	}
}
