package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/store"
)

// sweepOnReplicas runs sweep on every replica, two workers each, one item
// at a time until nothing is left, and returns how many items they swept
// in all.
func sweepOnReplicas(t *testing.T, replicas []*store.Store, sweep func(*store.Store, context.Context, int) (int, error)) int64 {
	t.Helper()
	var total atomic.Int64
	var wg sync.WaitGroup
	for _, st := range replicas {
		for range 2 {
			wg.Go(func() {
				for {
					n, err := sweep(st, ctx, 1)
					if err != nil {
						t.Error(err)
						return
					}
					total.Add(int64(n))
					if n == 0 {
						return
					}
				}
			})
		}
	}
	wg.Wait()
	return total.Load()
}
