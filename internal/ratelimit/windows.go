package ratelimit

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// Windows are the rate-limit windows of the database, counted either in a
// transaction of their own or inside a capability's transaction, so that a
// refused or rolled-back change is counted exactly as it happened.
type Windows struct{ db *kernel.DB }

// New is the windows of db.
func New(db *kernel.DB) *Windows { return &Windows{db: db} }

// Take admits one hit on its own, for attempts that count whether or not
// they succeed (logins, claims).
func (w *Windows) Take(ctx context.Context, l Limit) error {
	return wrapErr(w.db.InTx(ctx, func(tx *kernel.Tx) error { return take(ctx, tx, l, w.db.Clock().Now()) }), "take")
}

// TakeAll admits one hit under every limit, in one transaction, or
// refuses with the first exhausted one's rate_limited and counts nothing.
// Limits are taken in the order given (a bot's before its owner's), so
// concurrent takers lock the bucket rows in one order on every replica.
func (w *Windows) TakeAll(ctx context.Context, limits []Limit) error {
	return wrapErr(w.db.InTx(ctx, func(tx *kernel.Tx) error {
		now := w.db.Clock().Now()
		for _, l := range limits {
			if err := take(ctx, tx, l, now); err != nil {
				return err
			}
		}
		return nil
	}), "take all")
}

// TakeIn admits one hit in l's bucket inside tx or refuses with
// rate_limited.
func (w *Windows) TakeIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error {
	return take(ctx, tx, l, now)
}

// RefuseWhenSpentIn refuses with rate_limited when l's window is full,
// counting nothing.
func (w *Windows) RefuseWhenSpentIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error {
	_, _, err := refuseWhenSpent(ctx, tx, l, now)
	return err
}

// HitIn counts one request in l's bucket inside tx.
func (w *Windows) HitIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error {
	return hit(ctx, tx, l, now)
}

// wrapErr adds the package and the context to a database error.
var wrapErr = kernel.ErrorWrapper("ratelimit")
