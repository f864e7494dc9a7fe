package store

import (
	"context"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// Limit is a rolling-window rate limit on one bucket (for example
// "register:203.0.113.9"). Windows live in the database so that every
// replica sees the same counts (docs/decisions.md).
type Limit struct {
	Bucket string
	Max    int
	Window time.Duration
	// FixedRetryAfter, when set, is reported instead of the computed wait
	// (registration answers 3600 as the API reference (docs/api.md) says).
	FixedRetryAfter time.Duration
	// Unannounced limits are left out of the RateLimit headers of answers
	// that are not refused: a per-account limit shown only when the
	// account exists would tell a stranger that it does.
	Unannounced bool
}

// describe names the limit for the RateLimit headers: its policy is the
// bucket's prefix ("register" of "register:203.0.113.9").
func (l Limit) describe() *botpay.RateLimit {
	policy, _, _ := strings.Cut(l.Bucket, ":")
	return &botpay.RateLimit{Policy: policy, Quota: l.Max, WindowSeconds: int(l.Window / time.Second)}
}

// take admits one hit in bucket or refuses with rate_limited. The bucket row
// is locked first, so concurrent takers on PostgreSQL count one at a time.
func (t *Tx) take(ctx context.Context, l Limit, now time.Time) error {
	if l.Max <= 0 {
		return nil
	}
	if _, err := t.exec(ctx, `INSERT INTO rate_limit_buckets (bucket) VALUES ($1) ON CONFLICT DO NOTHING`, l.Bucket); err != nil {
		return err
	}
	var b string
	if err := t.queryRow(ctx, `SELECT bucket FROM rate_limit_buckets WHERE bucket = $1`+t.forUpdate(), l.Bucket).Scan(&b); err != nil {
		return err
	}
	since := ms(now.Add(-l.Window))
	if _, err := t.exec(ctx, `DELETE FROM rate_limit_hits WHERE bucket = $1 AND at <= $2`, l.Bucket, since); err != nil {
		return err
	}
	var count int
	var oldest *int64
	if err := t.queryRow(ctx, `SELECT COUNT(*), MIN(at) FROM rate_limit_hits WHERE bucket = $1 AND at > $2`, l.Bucket, since).Scan(&count, &oldest); err != nil {
		return err
	}
	if count >= l.Max {
		secs := l.retryAfter(oldest, now)
		return &botpay.Error{Kind: botpay.KindRateLimited, Code: botpay.CodeRateLimited,
			Message: "too many requests; try again later", RetryAfterSeconds: secs, Limit: l.describe()}
	}
	if !l.Unannounced {
		reset := l.Window
		if oldest != nil {
			reset = fromMS(*oldest).Add(l.Window).Sub(now)
		}
		botpay.NoteLimit(ctx, botpay.LimitState{RateLimit: *l.describe(), Remaining: l.Max - count - 1, ResetSeconds: ceilSeconds(reset)})
	}
	_, err := t.exec(ctx, `INSERT INTO rate_limit_hits (bucket, at) VALUES ($1, $2)`, l.Bucket, ms(now))
	return err
}

// retryAfter is how long a refused caller waits: until the oldest hit of
// the window leaves it, or the limit's fixed wait.
func (l Limit) retryAfter(oldest *int64, now time.Time) int {
	wait := l.FixedRetryAfter
	if wait == 0 && oldest != nil {
		wait = fromMS(*oldest).Add(l.Window).Sub(now)
	}
	return ceilSeconds(wait)
}

// ceilSeconds is d in whole seconds, rounded up, at least 1.
func ceilSeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

// Take admits one hit on its own, for attempts that count whether or not
// they succeed (logins, claims).
func (s *Store) Take(ctx context.Context, l Limit) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error { return tx.take(ctx, l, s.clock.Now()) }), "take")
}
