package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// A window admits its quota, refuses the next hit with rate_limited and
// the wait until its oldest hit leaves, and admits again once it has.
func TestAWindowRefusesPastItsQuotaUntilTheOldestHitLeaves(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		st, clock := storetest.OpenWithClock(t, d)
		w := ratelimit.New(st.Kernel())
		ctx := context.Background()
		l := ratelimit.Limit{Bucket: "test:a", Max: 2, Window: time.Minute}
		for range 2 {
			if err := w.Take(ctx, l); err != nil {
				t.Fatal(err)
			}
			clock.Advance(10 * time.Second)
		}
		err := w.Take(ctx, l)
		if e := botpay.AsError(err); e == nil || e.Code != botpay.CodeRateLimited || e.RetryAfterSeconds != 40 {
			t.Fatalf("third hit in the window: %v, want rate_limited retrying after 40 s", err)
		}
		clock.Advance(41 * time.Second)
		if err := w.Take(ctx, l); err != nil {
			t.Fatalf("after the oldest hit left: %v", err)
		}
	})
}

// TakeAll counts nothing when one of its limits refuses.
func TestTakeAllCountsNothingWhenOneLimitRefuses(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		w := ratelimit.New(db.Store.Kernel())
		ctx := context.Background()
		open := ratelimit.Limit{Bucket: "test:open", Max: 1, Window: time.Hour}
		full := ratelimit.Limit{Bucket: "test:full", Max: 1, Window: time.Hour}
		if err := w.Take(ctx, full); err != nil {
			t.Fatal(err)
		}
		if err := w.TakeAll(ctx, []ratelimit.Limit{open, full}); botpay.AsError(err) == nil {
			t.Fatalf("TakeAll with a full limit: %v, want rate_limited", err)
		}
		if err := w.Take(ctx, open); err != nil {
			t.Fatalf("the open limit after the refused TakeAll: %v, want its hit not counted", err)
		}
	})
}
