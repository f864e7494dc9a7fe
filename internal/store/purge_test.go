package store_test

import (
	"errors"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestBackupOnPostgresSaysToUsePgDump(t *testing.T) {
	st := storetest.Open(t, store.Postgres, nil).Store
	if err := st.Backup(ctx, t.TempDir()+"/x.db"); !errors.Is(err, store.ErrBackupPostgres) {
		t.Fatalf("backup on PostgreSQL: %v", err)
	}
}
