package app

import (
	"context"
	"time"
)

// expiryBatch bounds the bots one expiry pass handles before it looks again.
const expiryBatch = 100

// ExpireHeldPurchases runs until ctx ends, expiring held purchases whose 15
// minutes have passed every interval: their holds are released and
// purchase.expired is written. Every replica may run it; the store claims
// each purchase so the event is written exactly once.
func (s *Service) ExpireHeldPurchases(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.expirePass(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *Service) expirePass(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := s.store.ExpireOverdue(ctx, expiryBatch)
		if err != nil {
			if ctx.Err() == nil {
				s.log.WarnContext(ctx, "expiring held purchases failed", "err", err)
			}
			return
		}
		if n < expiryBatch {
			return
		}
	}
}
