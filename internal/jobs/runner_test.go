package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestBackoffDoublesUpToItsBoundWithUpToHalfAgainOfJitter(t *testing.T) {
	b := jobs.Backoff{First: 30 * time.Second, Max: 30 * time.Minute}
	for n, base := range map[int]time.Duration{1: 30 * time.Second, 2: time.Minute, 3: 2 * time.Minute, 7: 30 * time.Minute, 60: 30 * time.Minute} {
		if got := b.Base(n); got != base {
			t.Errorf("Base(%d) = %s, want %s", n, got, base)
		}
		for range 50 {
			if w := b.Wait(n); w < base || w > base+base/2 {
				t.Fatalf("Wait(%d) = %s, want within [%s, %s]", n, w, base, base+base/2)
			}
		}
	}
	if got := (jobs.Backoff{First: time.Second}).Base(11); got != 1024*time.Second {
		t.Errorf("unbounded Base(11) = %s, want 1024s", got)
	}
}

func open(t *testing.T, d store.Dialect) (*storetest.DB, *botpay.ManualClock) {
	clock := botpay.NewManualClock(time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC))
	return storetest.Open(t, d, clock), clock
}

// A failing job is retried on the backoff's schedule until it has had its
// tries, then forgotten; a job wrapping ErrDrop is forgotten at once.
func TestFailingJobsAreRetriedThenDropped(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		db, clock := open(t, d)
		q := jobs.NewQueue(db.Store.Kernel())
		ctx := context.Background()
		var runs, drops atomic.Int32
		r := jobs.New(jobs.Config{Queue: q})
		r.Register(jobs.Kind{Name: "flaky", Tries: 3, Retry: jobs.Backoff{First: time.Minute},
			Run: func(context.Context, jobs.Job) error { runs.Add(1); return errors.New("down") }})
		r.Register(jobs.Kind{Name: "unreadable",
			Run: func(context.Context, jobs.Job) error { drops.Add(1); return fmt.Errorf("bad key: %w", jobs.ErrDrop) }})
		for _, kind := range []string{"flaky", "unreadable"} {
			if err := q.Enqueue(ctx, jobs.NewJob{Kind: kind, RunAt: clock.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		steps := []struct {
			advance time.Duration
			runs    int32
		}{ // waits of 60-90 s, then 120-180 s
			{0, 1}, {59 * time.Second, 1}, {31 * time.Second, 2}, {119 * time.Second, 2}, {61 * time.Second, 3}, {time.Hour, 3}}
		for i, st := range steps {
			clock.Advance(st.advance)
			r.RunDue(ctx)
			if runs.Load() != st.runs || drops.Load() != 1 {
				t.Fatalf("step %d: %d runs, %d drops; want %d and 1", i, runs.Load(), drops.Load(), st.runs)
			}
		}
		if left, _ := q.Claim(ctx, []string{"flaky", "unreadable"}, 10, time.Minute); len(left) != 0 {
			t.Errorf("%d jobs left, want none", len(left))
		}
	})
}

// A periodic kind keeps one row however many replicas schedule it, and
// its pass runs once per interval whichever replica claims it.
func TestPeriodicJobRunsOncePerIntervalAcrossReplicas(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		db, clock := open(t, d)
		ctx, cancel := context.WithCancel(context.Background())
		var passes atomic.Int32
		kind := jobs.Kind{Name: "sweep", Every: time.Minute,
			Run: func(context.Context, jobs.Job) error { passes.Add(1); return nil }}
		var runners []*jobs.Runner
		for _, st := range []*store.Store{db.Store, db.OpenAnother(t)} {
			r := jobs.New(jobs.Config{Queue: jobs.NewQueue(st.Kernel()), Poll: time.Hour})
			r.Register(kind)
			runners = append(runners, r)
		}
		done := make(chan struct{})
		go func() { runners[0].Run(ctx); close(done) }()
		for passes.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		<-done
		ctx = context.Background()
		for _, advance := range []time.Duration{0, time.Minute - time.Second, time.Second} {
			clock.Advance(advance)
			for _, r := range runners {
				r.RunDue(ctx)
			}
		}
		if n := passes.Load(); n != 2 {
			t.Errorf("%d passes, want 2: the first, then one after a minute", n)
		}
	})
}

// A job enqueued in this process wakes the started runner at its commit.
func TestAnEnqueuedJobWakesTheRunner(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		db, clock := open(t, d)
		q := jobs.NewQueue(db.Store.Kernel())
		ran := make(chan struct{}, 1)
		r := jobs.New(jobs.Config{Queue: q, Poll: time.Hour})
		r.Register(jobs.Kind{Name: "now", Run: func(context.Context, jobs.Job) error { ran <- struct{}{}; return nil }})
		stop := r.Start(context.Background())
		defer stop()
		if err := q.Enqueue(context.Background(), jobs.NewJob{Kind: "now", RunAt: clock.Now()}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ran:
		case <-time.After(10 * time.Second):
			t.Fatal("the job did not run after its commit")
		}
	})
}

// A job with a key exists once: enqueueing it again while it exists does
// nothing, and a claim takes only the runner's kinds.
func TestAKeyedJobExistsOnceAndClaimsTakeOnlyTheirKinds(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		db, clock := open(t, d)
		q := jobs.NewQueue(db.Store.Kernel())
		ctx := context.Background()
		for _, j := range []jobs.NewJob{{Kind: "sweep", Key: "sweep"}, {Kind: "sweep", Key: "sweep"}, {Kind: "other"}} {
			j.RunAt = clock.Now()
			if err := q.Enqueue(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
		due, err := q.Claim(ctx, []string{"sweep"}, 10, time.Minute)
		if err != nil || len(due) != 1 || due[0].Key != "sweep" || due[0].Kind != "sweep" {
			t.Fatalf("claimed %+v, %v; want the one sweep", due, err)
		}
	})
}
