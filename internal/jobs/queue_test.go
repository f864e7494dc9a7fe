package jobs_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Jobs enqueued inside a transaction exist and wake the runner once it
// commits, once however many it holds; a transaction that rolls back
// leaves neither a job nor a wake-up.
func TestJobsEnqueuedInATransactionLiveAndWakeWithIt(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		db, clock := open(t, d)
		q := jobs.NewQueue(db.Store.Kernel())
		var wakes atomic.Int32
		q.OnJob(func() { wakes.Add(1) })
		ctx := context.Background()
		enqueue := func(fail error, kinds ...string) error {
			return db.Store.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
				for _, k := range kinds {
					q.EnqueueIn(tx, jobs.NewJob{Kind: k, RunAt: clock.Now()})
				}
				return fail
			})
		}
		refused := errors.New("refused")
		if err := enqueue(refused, "lost"); !errors.Is(err, refused) {
			t.Fatalf("rolled back transaction: %v", err)
		}
		if err := enqueue(nil, "kept", "kept"); err != nil {
			t.Fatal(err)
		}
		if n := wakes.Load(); n != 1 {
			t.Errorf("%d wake-ups, want 1: one per committed transaction", n)
		}
		due, err := q.Claim(ctx, []string{"lost", "kept"}, 10, time.Minute)
		if err != nil || len(due) != 2 || due[0].Kind != "kept" || due[1].Kind != "kept" {
			t.Fatalf("claimed %+v, %v; want the two committed jobs", due, err)
		}
	})
}
