package kernel

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// DB is the database handle shared by all requests.
type DB struct {
	driver Driver
	// write takes every transaction. On SQLite it has one connection, so
	// writers queue in Go instead of spinning on SQLITE_BUSY; reads use the
	// separate read pool and never wait for writers (WAL).
	write *sql.DB
	read  *sql.DB
	clock botpay.Clock
	// readStmts and writeStmts cache prepared statements on SQLite, where
	// the driver would otherwise compile the SQL text on every call (see
	// stmt_cache.go).
	readStmts, writeStmts stmtCache
	// gate admits write transactions in arrival order (gate.go), as many
	// at once as the write pool has connections.
	gate writeGate
}

// Options configure Open.
type Options struct {
	// DatabaseURL selects PostgreSQL when set (postgres://…).
	DatabaseURL string
	// DataDir holds botpay.db when DatabaseURL is empty.
	DataDir string
	Clock   botpay.Clock
	// MaxConns bounds PostgreSQL connections (0: 8). A small pool keeps
	// queueing in Go on a small machine, which measured faster than many
	// PostgreSQL backends competing for its cores (docs/performance.md).
	MaxConns int
	// ConnLifetime is how long a PostgreSQL connection is reused (0: 30
	// s): see defaultConnLifetime.
	ConnLifetime time.Duration
}

// Open connects to the configured engine. It does not migrate.
func Open(ctx context.Context, opts Options) (*DB, error) {
	clock := opts.Clock
	if clock == nil {
		clock = botpay.SystemClock{}
	}
	if opts.DatabaseURL != "" {
		return openPostgres(ctx, opts.DatabaseURL, clock, cmp.Or(opts.MaxConns, 8), cmp.Or(opts.ConnLifetime, defaultConnLifetime))
	}
	if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data folder: %w", err)
	}
	return openSQLite(ctx, filepath.Join(opts.DataDir, "botpay.db"), clock)
}

// Engine reports the engine in use.
func (db *DB) Engine() Engine { return db.driver.Engine() }

// Driver is the engine's driver: its SQL fragments and behaviour.
func (db *DB) Driver() Driver { return db.driver }

// Clock is the database's notion of now.
func (db *DB) Clock() botpay.Clock { return db.clock }

// Pools are the write and read connection pools (the same pool on
// PostgreSQL), for bulk loads and pool statistics.
func (db *DB) Pools() (write, read *sql.DB) { return db.write, db.read }

// Ping checks that the database answers (readiness).
func (db *DB) Ping(ctx context.Context) error {
	if err := db.read.PingContext(ctx); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// Close releases all connections.
func (db *DB) Close() error {
	db.readStmts.close()
	db.writeStmts.close()
	err := db.write.Close()
	if db.read != db.write {
		err = errors.Join(err, db.read.Close())
	}
	if err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Rebind writes query in the engine's placeholders.
func (db *DB) Rebind(query string) string { return db.driver.Rebind(query) }

// QueryRow reads outside any transaction, from the read pool.
func (db *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if st := db.readStmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return db.read.QueryRowContext(ctx, db.Rebind(query), args...)
}

// ReadRow reads one row outside any transaction, from the read pool, into
// dest: QueryRow's Scan, at a lower cost per column on PostgreSQL, for the
// hottest reads.
func (db *DB) ReadRow(ctx context.Context, query string, args []any, dest ...any) error {
	return db.driver.readRow(ctx, db, query, args, dest)
}

// Query reads rows outside any transaction, from the read pool.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := db.readStmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return db.read.QueryContext(ctx, db.Rebind(query), args...)
}

// MS stores times as integer Unix milliseconds on both engines: exact,
// comparable in SQL and free of driver time-zone quirks.
func MS(t time.Time) int64 { return t.UnixMilli() }

// FromMS is the time a stored millisecond count names, in UTC.
func FromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// NullMS is t in Unix milliseconds, NULL when t is zero.
func NullMS(t time.Time) sql.NullInt64 { return sql.NullInt64{Int64: MS(t), Valid: !t.IsZero()} }

// FromNullMS is the time of v, zero when NULL.
func FromNullMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return FromMS(v.Int64)
}

// NullString is s, NULL when empty.
func NullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// IsNoRows says a single-row read found nothing.
func IsNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
