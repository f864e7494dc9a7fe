package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestAtMostFivePairingCodesPerOwnerPerHour(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			st, clock := openWithClock(t, d)
			owner := newOwner(t, st)
			create := func() error {
				return st.CreatePairingCode(ctx, owner.ID, botpay.Digest(botpay.NewPairingCode()), clock.Now().Add(time.Hour), 5)
			}
			for i := range 5 {
				if err := create(); err != nil {
					t.Fatalf("code %d: %v", i+1, err)
				}
			}
			err := create()
			wantCode(t, err, botpay.CodeRateLimited)
			if e := botpay.AsError(err); e.RetryAfterSeconds != 3600 {
				t.Fatalf("retry after %d s, want 3600", e.RetryAfterSeconds)
			}
			clock.Advance(time.Hour + time.Millisecond)
			if err := create(); err != nil {
				t.Fatalf("after the window: %v", err)
			}
		})
	}
}

func TestUniqueViolationsAreTyped(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		o := newOwner(t, st)
		err := st.CreateOwner(ctx, botpay.Owner{ID: botpay.NewID("own_"), Email: o.Email, CreatedAt: st.Clock().Now()}, "h", "t", time.Time{})
		wantCode(t, err, botpay.CodeEmailTaken)
	})
}

func TestForeignKeyViolationsAreTyped(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		err := db.Store.CreatePairingCode(ctx, "own_missing", botpay.Digest("123456"), time.Now().Add(time.Hour), 5)
		if !errors.Is(err, store.ErrForeignKey) {
			t.Fatalf("err = %v, want store.ErrForeignKey", err)
		}
	})
}
