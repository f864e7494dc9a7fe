package jobs

import (
	"math/rand/v2"
	"time"
)

// Backoff is the one retry schedule of background work: the wait before
// attempt n+1 after n failures is First·2^(n-1), at most Max (no bound
// when 0), plus up to half of that again as jitter, so that the retries of
// many jobs failing together (a mail server or a webhook receiver coming
// back) spread out instead of arriving at once.
type Backoff struct {
	First time.Duration
	Max   time.Duration
}

// Wait is the wait after the n-th failure (n ≥ 1), jitter included.
func (b Backoff) Wait(n int) time.Duration {
	d := b.Base(n)
	return d + rand.N(d/2+1)
}

// Base is Wait without the jitter: the shortest wait after the n-th
// failure.
func (b Backoff) Base(n int) time.Duration {
	d := b.First
	for i := 1; i < n && (b.Max == 0 || d < b.Max); i++ {
		d *= 2
	}
	if b.Max > 0 {
		d = min(d, b.Max)
	}
	return d
}
