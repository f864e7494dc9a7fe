package idempotency_test

import (
	"context"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/idempotency"
	"github.com/botpay/botpay/internal/store/storetest"
)

var ctx = context.Background()

func TestIdempotencyKeyLifecycle(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
			st := idempotency.New(storetest.Open(t, d, clock).Store.Kernel())
			const scope, key = "bot:bot_1 /api/v1/x", "key-1"
			if r, err := st.Begin(ctx, scope, key, "hash-a"); err != nil || r != nil {
				t.Fatalf("first begin = %v, %v", r, err)
			}
			_, err := st.Begin(ctx, scope, key, "hash-a")
			storetest.WantCode(t, err, botpay.CodeIdempotencyInUse)
			if err := st.Finish(ctx, scope, key, 201, []byte("sealed-response")); err != nil {
				t.Fatal(err)
			}
			r, err := st.Begin(ctx, scope, key, "hash-a")
			if err != nil || r == nil || r.StatusCode != 201 || string(r.SealedResponse) != "sealed-response" {
				t.Fatalf("replay = %+v, %v", r, err)
			}
			_, err = st.Begin(ctx, scope, key, "hash-b")
			storetest.WantCode(t, err, botpay.CodeIdempotencyReused)
			if r, err := st.Begin(ctx, "owner:o /api/v1/x", key, "hash-b"); err != nil || r != nil {
				t.Fatalf("same key in another scope = %v, %v", r, err)
			}
			clock.Advance(idempotency.Window + time.Second)
			if r, err := st.Begin(ctx, scope, key, "hash-b"); err != nil || r != nil {
				t.Fatalf("after 24 h the key is fresh; got %v, %v", r, err)
			}
		})
	}
}

func TestAbandonedIdempotencyKeyRunsAgain(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := idempotency.New(db.Store.Kernel())
		if _, err := st.Begin(ctx, "s", "k", "h"); err != nil {
			t.Fatal(err)
		}
		if err := st.Abandon(ctx, "s", "k"); err != nil {
			t.Fatal(err)
		}
		if r, err := st.Begin(ctx, "s", "k", "h"); err != nil || r != nil {
			t.Fatalf("begin after abandon = %v, %v", r, err)
		}
	})
}
