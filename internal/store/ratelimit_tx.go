package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// The rate-limit windows, counted inside a capability package's own
// transaction (registration and claims in internal/bots), so that a refused
// or rolled-back change is counted exactly as the store's own are.

// TakeIn admits one hit in l's bucket or refuses with rate_limited.
func (s *Store) TakeIn(ctx context.Context, k *kernel.Tx, l Limit, now time.Time) error {
	return (&Tx{k: k, s: s}).take(ctx, l, now)
}

// RefuseWhenSpentIn refuses with rate_limited when l's window is full,
// counting nothing.
func (s *Store) RefuseWhenSpentIn(ctx context.Context, k *kernel.Tx, l Limit, now time.Time) error {
	_, _, err := (&Tx{k: k, s: s}).refuseWhenSpent(ctx, l, now)
	return err
}

// HitIn counts one request in l's bucket.
func (s *Store) HitIn(ctx context.Context, k *kernel.Tx, l Limit, now time.Time) error {
	return (&Tx{k: k, s: s}).hit(ctx, l, now)
}
