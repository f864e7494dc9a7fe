package kernel

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
)

// Transactions that wait for the write pool are admitted in the order they
// arrived, however many wait (database/sql alone would pick at random).
func TestWriteGateAdmitsWaitersInArrivalOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		g := newWriteGate(2)
		for range 2 {
			if err := g.enter(ctx); err != nil {
				t.Fatal(err)
			}
		}
		var mu sync.Mutex
		var admitted []int
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				if err := g.enter(ctx); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				admitted = append(admitted, i)
				mu.Unlock()
				g.leave()
			})
			synctest.Wait() // waiter i is blocked before i+1 arrives
		}
		g.leave()
		wg.Wait()
		for i, w := range admitted {
			if w != i {
				t.Fatalf("admitted in order %v, want 0..19", admitted)
			}
		}
		if len(admitted) != 20 {
			t.Fatalf("admitted %d of 20", len(admitted))
		}
	})
}

// A transaction whose context ends while it waits gives up its place with
// the context's error and takes no turn.
func TestWriteGateWaiterLeavesWhenItsContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newWriteGate(1)
		if err := g.enter(context.Background()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- g.enter(ctx) }()
		synctest.Wait()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("enter = %v, want context.Canceled", err)
		}
		g.leave()
		if len(g) != 0 {
			t.Fatalf("%d turns held after the only holder left, want 0", len(g))
		}
	})
}
