package notifications_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/idempotency"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Purge removes what its retention lets go over several bounded batches
// and keeps everything younger.
func TestPurgeDeletesOldRowsInBoundedBatches(t *testing.T) {
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
			st := storetest.Open(t, d, clock).Store
			for i := range 23 {
				if _, err := idempotency.New(st.Kernel()).Begin(ctx, "scope", fmt.Sprintf("old-%d", i), "hash"); err != nil {
					t.Fatal(err)
				}
			}
			clock.Advance(49 * time.Hour)
			for i := range 4 {
				if _, err := idempotency.New(st.Kernel()).Begin(ctx, "scope", fmt.Sprintf("new-%d", i), "hash"); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := notifications.PurgeWith(ctx, st.Kernel(), notifications.Retention{Acked: time.Hour, DoneOutbox: time.Hour, Idempotency: 48 * time.Hour, Batch: 5}); err != nil {
				t.Fatal(err)
			}
			if n, err := idempotencyKeyCount(st.Kernel(), "scope"); err != nil || n != 4 {
				t.Errorf("%d keys left (%v), want the 4 young ones", n, err)
			}
		})
	}
}

// idempotencyKeyCount counts the stored idempotency keys of a scope.
func idempotencyKeyCount(db *kernel.DB, scope string) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT COUNT(*) FROM idempotency_keys WHERE scope = $1`, scope).Scan(&n)
	return n, err
}
