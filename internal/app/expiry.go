package app

import (
	"context"
	"time"
)

// expiryBatch bounds the bots one expiry pass handles before it looks again.
const expiryBatch = 100

// ExpireHeldPurchases runs until ctx ends, expiring held purchases and held
// signing requests whose 15 minutes have passed every interval: holds and
// reservations are released and purchase.expired is written. Every replica
// may run it; the store claims each request so the event is written
// exactly once.
func (s *Service) ExpireHeldPurchases(ctx context.Context, every time.Duration) {
	runEvery(ctx, every, s.expirePass)
}

// runEvery runs pass at once and then every interval until ctx ends.
func runEvery(ctx context.Context, every time.Duration, pass func(context.Context)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		pass(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *Service) expirePass(ctx context.Context) {
	s.expireAll(ctx, "held purchases", s.store.ExpireOverdue)
	s.expireAll(ctx, "held signing requests", s.store.ExpireOverdueSigning)
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
