package events

import (
	"context"

	"github.com/botpay/botpay/internal/store"
	"sync"
	"time"
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
// keys past their window, once.
func (d *Dispatcher) Purge(ctx context.Context) error {
	n, err := d.cfg.Store.Purge(ctx, store.Retention{Acked: KeepAcked, DoneOutbox: KeepDoneOutbox, Idempotency: KeepIdempotency})
	if err == nil && n > 0 {
		d.log.Info("purged pending messages", "count", n)
	}
	return err
}

func (d *Dispatcher) runPurge(ctx context.Context) {
	for {
		if err := d.Purge(ctx); err != nil && ctx.Err() == nil {
			d.log.Warn("purging pending messages failed", "err", err)
		}
		if !sleep(ctx, d.cfg.PurgeEvery) {
			return
		}
	}
}

// Start runs the dispatcher and the purge worker in the background. stop
// ends both and waits until attempts in flight are recorded.
func (d *Dispatcher) Start(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); d.Run(ctx) }()
	go func() { defer wg.Done(); d.runPurge(ctx) }()
	return func() { cancel(); wg.Wait() }
}
