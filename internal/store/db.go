package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // registers driver "sqlite"
)

// Dialect names a database engine.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Store is the database handle shared by all requests.
type Store struct {
	dialect dialect
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
	// onEvent, when set, runs after a transaction that emitted events commits
	// (wakes the local dispatcher; other replicas poll).
	onEvent func()
	// onJob, when set, runs after a transaction that enqueued a job commits
	// (wakes the local job runner; other replicas poll).
	onJob func()
	// configs and signers keep the bots' spending configurations for
	// checkout (checkout_config.go) and x402 signing (signerConfig in
	// processor_wallets.go).
	configs configCache[checkoutConfig]
	signers configCache[signerConfig]
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
}

// Open connects to the configured engine. It does not migrate.
func Open(ctx context.Context, opts Options) (*Store, error) {
	clock := opts.Clock
	if clock == nil {
		clock = botpay.SystemClock{}
	}
	if opts.DatabaseURL != "" {
		return openPostgres(ctx, opts.DatabaseURL, clock, cmp.Or(opts.MaxConns, 8))
	}
	if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data folder: %w", err)
	}
	return openSQLite(ctx, filepath.Join(opts.DataDir, "botpay.db"), clock)
}

func openPostgres(ctx context.Context, dsn string, clock botpay.Clock, maxConns int) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	// Transactions are driven by hand on a connection (inConnTx); a
	// connection that is somehow still inside one is never reused.
	db := stdlib.OpenDB(*cfg, stdlib.OptionResetSession(func(_ context.Context, c *pgx.Conn) error {
		if c.PgConn().TxStatus() != 'I' {
			return driver.ErrBadConn
		}
		return nil
	}))
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	return &Store{dialect: postgresDialect, write: db, read: db, clock: clock, gate: newWriteGate(maxConns)}, nil
}

// sqliteURIPath escapes what a "file:" URI would otherwise read as its
// query or fragment: a data folder named with "#" (as Go names the
// folders of repeated subtests) must not open a database elsewhere.
var sqliteURIPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

func openSQLite(ctx context.Context, path string, clock botpay.Clock) (*Store, error) {
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
	s := &Store{dialect: sqliteDialect, write: write, read: read, clock: clock, gate: newWriteGate(1)}
	if err := write.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return s, nil
}

// Dialect reports the engine in use.
func (s *Store) Dialect() Dialect { return s.dialect.name }

// Clock is the store's notion of now.
func (s *Store) Clock() botpay.Clock { return s.clock }

// Ping checks that the database answers (readiness).
func (s *Store) Ping(ctx context.Context) error { return wrapErr(s.read.PingContext(ctx), "ping") }

// Close releases all connections.
func (s *Store) Close() error {
	s.readStmts.close()
	s.writeStmts.close()
	err := s.write.Close()
	if s.read != s.write {
		err = errors.Join(err, s.read.Close())
	}
	return wrapErr(err, "close")
}

// placeholder matches $N outside of quoted text; the SQL in this package
// never puts a dollar sign inside a literal.
var placeholder = regexp.MustCompile(`\$(\d+)`)

// rebind writes query in the engine's placeholders.
func (s *Store) rebind(query string) string { return s.dialect.rebind(query) }

// ms stores times as integer Unix milliseconds on both engines: exact,
// comparable in SQL and free of driver time-zone quirks.
func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func fromNullMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMS(v.Int64)
}

func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
