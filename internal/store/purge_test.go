package store_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Purge removes what its retention lets go over several bounded batches
// and keeps everything younger.
func TestPurgeDeletesOldRowsInBoundedBatches(t *testing.T) {
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			st, clock := openWithClock(t, d)
			for i := range 23 {
				if _, err := st.BeginIdempotent(ctx, "scope", fmt.Sprintf("old-%d", i), "hash"); err != nil {
					t.Fatal(err)
				}
			}
			clock.Advance(49 * time.Hour)
			for i := range 4 {
				if _, err := st.BeginIdempotent(ctx, "scope", fmt.Sprintf("new-%d", i), "hash"); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := st.Purge(ctx, store.Retention{Acked: time.Hour, DoneOutbox: time.Hour, Idempotency: 48 * time.Hour, Batch: 5}); err != nil {
				t.Fatal(err)
			}
			if n, err := st.IdempotencyKeyCount(ctx, "scope"); err != nil || n != 4 {
				t.Errorf("%d keys left (%v), want the 4 young ones", n, err)
			}
		})
	}
}

func TestBackupOnPostgresSaysToUsePgDump(t *testing.T) {
	st := storetest.Open(t, store.Postgres, nil).Store
	if err := st.Backup(ctx, t.TempDir()+"/x.db"); !errors.Is(err, store.ErrBackupPostgres) {
		t.Fatalf("backup on PostgreSQL: %v", err)
	}
}
