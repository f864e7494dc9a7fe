package store

import (
	"context"
	"time"
)

// takeMailLimits admits one e-mail under every limit or refuses with the
// first exhausted one's rate_limited. Limits are taken in the order given
// (the bot's before its owner's), so concurrent senders lock the bucket
// rows in one order on every replica.
func (t *Tx) takeMailLimits(ctx context.Context, limits []Limit, now time.Time) error {
	for _, l := range limits {
		if err := t.take(ctx, l, now); err != nil {
			return err
		}
	}
	return nil
}

// TakeAll admits one hit under every limit, in one transaction, or
// refuses with the first exhausted one's rate_limited and counts nothing.
func (s *Store) TakeAll(ctx context.Context, limits []Limit) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		return tx.takeMailLimits(ctx, limits, s.clock.Now())
	}), "take all")
}
