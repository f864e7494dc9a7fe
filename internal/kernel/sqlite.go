package kernel

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/botpay/botpay/internal/botpay"
)

// sqliteDriver is the embedded engine: one file, one write connection
// with immediate transactions, a read-only pool beside it.
type sqliteDriver struct{}

func (sqliteDriver) Engine() Engine { return SQLite }

func (sqliteDriver) readRow(ctx context.Context, db *DB, query string, args, dest []any) error {
	return db.QueryRow(ctx, query, args...).Scan(dest...)
}
func (sqliteDriver) Rebind(query string) string       { return rebindNumbered(query) }
func (sqliteDriver) ForUpdate() string                { return "" }
func (sqliteDriver) SkipLocked() string               { return "" }
func (sqliteDriver) LockForNoKeyUpdate(string) string { return "" }
func (sqliteDriver) InsertInsideWith() bool           { return false }
func (sqliteDriver) preparesStatements() bool         { return true }

func (sqliteDriver) Seeding() Seeding {
	return Seeding{
		Series: func(n int) string {
			return " FROM (WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < " + strconv.Itoa(n) + ") SELECT i FROM g)"
		},
		False: "0", True: "1", Bytes: "x'00'",
		Hex16: func(expr string) string { return "printf('%016x', " + expr + ")" },
	}
}

func (sqliteDriver) Classify(err error) error {
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		switch sqErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return errors.Join(ErrUnique, err)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return errors.Join(ErrForeignKey, err)
		}
	}
	return err
}

func (sqliteDriver) run(ctx context.Context, db *DB, fn func(*Tx) error) error {
	return db.inSQLTx(ctx, fn)
}

// lockMigrations needs nothing: immediate transactions serialise them.
func (sqliteDriver) lockMigrations(context.Context, *DB) (func(), error) { return func() {}, nil }

// sqliteURIPath escapes what a "file:" URI would otherwise read as its
// query or fragment: a data folder named with "#" (as Go names the
// folders of repeated subtests) must not open a database elsewhere.
var sqliteURIPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

func openSQLite(ctx context.Context, path string, clock botpay.Clock) (*DB, error) {
	dsn := func(extra ...string) string {
		q := url.Values{}
		for _, p := range append([]string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(ON)"}, extra...) {
			q.Add("_pragma", p)
		}
		return "file:" + sqliteURIPath.Replace(path) + "?" + q.Encode()
	}
	// Immediate transactions take the write lock at BEGIN, so a transaction
	// that reads a balance and then writes it cannot be overtaken.
	write, err := sql.Open("sqlite", dsn()+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	write.SetMaxOpenConns(1)
	read, err := sql.Open("sqlite", dsn("query_only(1)"))
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(8)
	db := &DB{driver: sqliteDriver{}, write: write, read: read, clock: clock, gate: newWriteGate(1)}
	if err := write.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return db, nil
}

// backup writes a consistent copy of the database to path while the
// service keeps running (VACUUM INTO reads one snapshot; writers are not
// blocked). path must not exist yet. The copy holds everything the
// database does, so it is readable by its owner only: the empty file is
// created 0600 first (VACUUM INTO writes into an empty file and keeps its
// mode, where it would create one with the umask's).
func (sqliteDriver) backup(ctx context.Context, db *DB, path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	f.Close()
	if _, err := db.write.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		os.Remove(path)
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return os.Chmod(path, 0o600)
}

func (sqliteDriver) checkIntegrity(ctx context.Context, db *DB) error {
	var result string
	if err := db.read.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&result); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if result != "ok" {
		return fmt.Errorf("integrity check: %s", result)
	}
	return nil
}
