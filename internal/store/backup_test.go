package store_test

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// TestBackupIsReadableByItsOwnerOnly: a backup holds every sealed secret
// and digest of the database; it is written 0600 whatever the umask, and
// an existing file is never overwritten. (PostgreSQL is backed up with its
// own tools: TestBackupOnPostgresSaysToUsePgDump.)
func TestBackupIsReadableByItsOwnerOnly(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	st := storetest.Open(t, store.SQLite, nil).Store
	path := t.TempDir() + "/backup.db"
	if err := st.Kernel().Backup(ctx, path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o600 {
		t.Errorf("backup mode %o, want 600", mode)
	}
	if fi.Size() == 0 {
		t.Errorf("backup is empty")
	}
	if err := st.Kernel().Backup(ctx, path); err == nil {
		t.Errorf("a second backup over the first was not refused")
	}
}

func TestBackupOnPostgresSaysToUsePgDump(t *testing.T) {
	st := storetest.Open(t, store.Postgres, nil).Store
	if err := st.Kernel().Backup(ctx, t.TempDir()+"/x.db"); !errors.Is(err, store.ErrBackupPostgres) {
		t.Fatalf("backup on PostgreSQL: %v", err)
	}
}
