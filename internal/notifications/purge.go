package notifications

import (
	"context"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/jobs"
)

// Purge settings: acknowledged messages are kept a day (a retried ack still
// finds them), finished outbox rows a week (for support questions),
// idempotency keys two days (their 24-hour replay window, with margin).
const (
	DefaultPurgeEvery = time.Minute
	KeepAcked         = 24 * time.Hour
	KeepDoneOutbox    = 7 * 24 * time.Hour
	KeepIdempotency   = 48 * time.Hour
)

// Purge deletes, in bounded batches, expired and long-acknowledged pending
// messages, old finished outbox rows, spent tunnel relays and idempotency
// keys past their window, once (PurgeJob runs it).
func (d *Dispatcher) Purge(ctx context.Context) error {
	n, err := purge(ctx, d.db, Retention{Acked: KeepAcked, DoneOutbox: KeepDoneOutbox, Idempotency: KeepIdempotency})
	if err == nil && n > 0 {
		d.log.Info("purged pending messages", "count", n)
	}
	return err
}

// PurgeJob is the periodic job of Purge, every PurgeEvery on whichever
// replica claims it. A long purge that outlives its lease may overlap the
// next replica's: deleting is idempotent.
func (d *Dispatcher) PurgeJob() jobs.Kind {
	return jobs.Kind{Name: "purge", Every: d.cfg.PurgeEvery, Lease: 5 * time.Minute,
		Run: func(ctx context.Context, _ jobs.Job) error { return d.Purge(ctx) }}
}

// Start runs the dispatcher in the background, and the purge every
// PurgeEvery on a timer of its own unless Config.Jobs runs it (a dispatcher
// alone, as in tests and benchmarks: each one purges, which is harmless
// since deleting is idempotent). stop ends both and waits until attempts in
// flight are recorded.
func (d *Dispatcher) Start(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { d.Run(ctx) })
	if d.cfg.Jobs == nil {
		purge := jobs.New(jobs.Config{Queue: jobs.NewQueue(d.db), Logger: d.log, Poll: d.cfg.PurgeEvery})
		purge.Register(d.PurgeJob())
		wg.Go(func() { purge.Run(ctx) })
	}
	return func() { cancel(); wg.Wait() }
}
