package ratelimit

import (
	"context"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
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
func take(ctx context.Context, t *kernel.Tx, l Limit, now time.Time) error {
	if l.Max <= 0 {
		return nil
	}
	count, oldest, err := refuseWhenSpent(ctx, t, l, now)
	if err != nil {
		return err
	}
	if !l.Unannounced {
		reset := l.Window
		if oldest != nil {
			reset = kernel.FromMS(*oldest).Add(l.Window).Sub(now)
		}
		botpay.NoteLimit(ctx, botpay.LimitState{RateLimit: *l.describe(), Remaining: l.Max - count - 1, ResetSeconds: ceilSeconds(reset)})
	}
	return hit(ctx, t, l, now)
}

// refuseWhenSpent locks l's bucket, forgets the hits that left its window
// and refuses with rate_limited when the window is full; otherwise it
// returns the count and the oldest hit in the window.
func refuseWhenSpent(ctx context.Context, t *kernel.Tx, l Limit, now time.Time) (count int, oldest *int64, err error) {
	if _, err := t.Exec(ctx, `INSERT INTO rate_limit_buckets (bucket) VALUES ($1) ON CONFLICT DO NOTHING`, l.Bucket); err != nil {
		return 0, nil, err
	}
	var b string
	if err := t.QueryRow(ctx, `SELECT bucket FROM rate_limit_buckets WHERE bucket = $1`+t.ForUpdate(), l.Bucket).Scan(&b); err != nil {
		return 0, nil, err
	}
	since := kernel.MS(now.Add(-l.Window))
	if _, err := t.Exec(ctx, `DELETE FROM rate_limit_hits WHERE bucket = $1 AND at <= $2`, l.Bucket, since); err != nil {
		return 0, nil, err
	}
	if err := t.QueryRow(ctx, `SELECT COUNT(*), MIN(at) FROM rate_limit_hits WHERE bucket = $1 AND at > $2`, l.Bucket, since).Scan(&count, &oldest); err != nil {
		return 0, nil, err
	}
	if count >= l.Max {
		return count, oldest, &botpay.Error{Kind: botpay.KindRateLimited, Code: botpay.CodeRateLimited,
			Message: "too many requests; try again later", RetryAfterSeconds: l.retryAfter(oldest, now),
			Limit: l.describe(), LimitResetSeconds: ceilSeconds(l.untilOldestLeaves(oldest, now))}
	}
	return count, oldest, nil
}

// hit counts one request in l's bucket.
func hit(ctx context.Context, t *kernel.Tx, l Limit, now time.Time) error {
	_, err := t.Exec(ctx, `INSERT INTO rate_limit_hits (bucket, at) VALUES ($1, $2)`, l.Bucket, kernel.MS(now))
	return err
}

// retryAfter is how long a refused caller waits: until the oldest hit of
// the window leaves it, or the limit's fixed wait.
func (l Limit) retryAfter(oldest *int64, now time.Time) int {
	if l.FixedRetryAfter != 0 {
		return ceilSeconds(l.FixedRetryAfter)
	}
	return ceilSeconds(l.untilOldestLeaves(oldest, now))
}

// untilOldestLeaves is how long until the oldest hit counted leaves the
// window, when the quota frees up again.
func (l Limit) untilOldestLeaves(oldest *int64, now time.Time) time.Duration {
	if oldest == nil {
		return l.Window
	}
	return kernel.FromMS(*oldest).Add(l.Window).Sub(now)
}

// ceilSeconds is d in whole seconds, rounded up, at least 1.
func ceilSeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}
