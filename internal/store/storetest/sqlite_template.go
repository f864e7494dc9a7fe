package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/store"
)

// A migrated SQLite database is one file, so tests copy a template instead
// of migrating: the template is built once per migration fingerprint in
// the system's temporary folder and shared by every test process; it is
// written under a temporary name and renamed into place, so a reader never
// sees half of one.
var sqliteTemplate struct {
	once sync.Once
	path string
	err  error
}

// copySQLiteTemplate puts a migrated, empty botpay.db into dir.
func copySQLiteTemplate(t testing.TB, dir string) {
	t.Helper()
	sqliteTemplate.once.Do(func() { sqliteTemplate.path, sqliteTemplate.err = buildSQLiteTemplate() })
	if sqliteTemplate.err != nil {
		t.Fatalf("SQLite test template: %v", sqliteTemplate.err)
	}
	if err := copyFile(sqliteTemplate.path, filepath.Join(dir, "botpay.db")); err != nil {
		t.Fatalf("copy the SQLite test template: %v", err)
	}
}

func buildSQLiteTemplate() (string, error) {
	fp, err := store.MigrationFingerprint(store.SQLite)
	if err != nil {
		return "", err
	}
	path := filepath.Join(os.TempDir(), "botpay-test-sqlite-ro-"+fp[:16]+".db")
	if info, err := os.Stat(path); err == nil && info.Size() > 0 && info.Mode().Perm() == templateMode {
		return path, nil
	}
	dir, err := os.MkdirTemp(os.TempDir(), "botpay-test-template-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		return "", err
	}
	_, err = st.Kernel().Migrate(context.Background())
	st.Close()
	if err != nil {
		return "", err
	}
	if err := leaveWAL(filepath.Join(dir, "botpay.db")); err != nil {
		return "", err
	}
	// Read-only, so that nothing (a test that opened the template by
	// mistake, an older build) can leave rows in it that every later copy
	// would start with.
	if err := os.Chmod(filepath.Join(dir, "botpay.db"), templateMode); err != nil {
		return "", err
	}
	return path, os.Rename(filepath.Join(dir, "botpay.db"), path)
}

const templateMode = 0o444

// leaveWAL folds the write-ahead log into the database file and turns WAL
// off, so the file alone is the whole database; Open turns WAL back on in
// each copy.
func leaveWAL(path string) error {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode = DELETE`).Scan(&mode); err != nil {
		return err
	}
	if mode != "delete" {
		return fmt.Errorf("template journal mode is %q", mode)
	}
	return nil
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
