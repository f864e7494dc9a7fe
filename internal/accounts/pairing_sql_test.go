package accounts

import (
	"errors"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestAtMostFivePairingCodesPerOwnerPerHour(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
			s := newService(storetest.Open(t, d, clock).Store)
			owner := newOwner(t, s)
			create := func() error {
				return s.createPairingCode(ctx, owner.ID, botpay.Digest(botpay.NewPairingCode()), clock.Now().Add(time.Hour), 5)
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

func TestForeignKeyViolationsAreTyped(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		err := newService(db.Store).createPairingCode(ctx, "own_missing", botpay.Digest("123456"), time.Now().Add(time.Hour), 5)
		if !errors.Is(err, kernel.ErrForeignKey) {
			t.Fatalf("err = %v, want kernel.ErrForeignKey", err)
		}
	})
}
