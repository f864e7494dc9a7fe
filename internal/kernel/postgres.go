package kernel

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/botpay/botpay/internal/botpay"
)

// postgresDriver is PostgreSQL through pgx: row locks, transactions driven
// by hand on one connection (tx.go), migrations under an advisory lock.
type postgresDriver struct{}

func (postgresDriver) Engine() Engine             { return Postgres }
func (postgresDriver) Rebind(query string) string { return query }
func (postgresDriver) ForUpdate() string          { return " FOR UPDATE" }
func (postgresDriver) SkipLocked() string         { return " FOR UPDATE SKIP LOCKED" }
func (postgresDriver) InsertInsideWith() bool     { return true }
func (postgresDriver) preparesStatements() bool   { return false }

// readRow reads through pgx itself on a read connection: database/sql's
// rows set up a conversion per column on every query, a quarter of the
// allocations of a wallet check.
func (postgresDriver) readRow(ctx context.Context, db *DB, query string, args, dest []any) error {
	conn, err := db.read.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		err := dc.(*stdlib.Conn).Conn().QueryRow(ctx, query, args...).Scan(dest...)
		if errors.Is(err, pgx.ErrNoRows) {
			return sql.ErrNoRows
		}
		return err
	})
}

func (postgresDriver) LockForNoKeyUpdate(alias string) string {
	return " FOR NO KEY UPDATE OF " + alias
}

func (postgresDriver) Seeding() Seeding {
	return Seeding{
		Series: func(n int) string { return " FROM generate_series(1, " + strconv.Itoa(n) + ") AS g(i)" },
		False:  "FALSE", True: "TRUE", Bytes: `'\x00'::bytea`,
		Hex16:           func(expr string) string { return "lpad(to_hex(" + expr + "), 16, '0')" },
		AnalyzeAfterAll: true,
	}
}

func (postgresDriver) Classify(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505":
			return errors.Join(ErrUnique, err)
		case "23503":
			return errors.Join(ErrForeignKey, err)
		}
	}
	return err
}

func (postgresDriver) run(ctx context.Context, db *DB, fn func(*Tx) error) error {
	return db.inConnTxRetried(ctx, fn)
}

// pgMigrationLock is the advisory lock replicas take around migrations.
// Advisory locks are per database, so the schema is the second key:
// deployments (and tests) in other schemas of one database migrate
// without waiting for each other.
const (
	pgMigrationLock   = `SELECT pg_advisory_lock(727274, hashtext(current_schema()))`
	pgMigrationUnlock = `SELECT pg_advisory_unlock(727274, hashtext(current_schema()))`
)

func (postgresDriver) lockMigrations(ctx context.Context, db *DB) (func(), error) {
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: migrate: %w", err)
	}
	if _, err := conn.ExecContext(ctx, pgMigrationLock); err != nil {
		conn.Close()
		return nil, fmt.Errorf("migration lock: %w", err)
	}
	return func() {
		conn.ExecContext(context.WithoutCancel(ctx), pgMigrationUnlock)
		conn.Close()
	}, nil
}

func (postgresDriver) backup(context.Context, *DB, string) error { return ErrBackupPostgres }

// checkIntegrity is left to PostgreSQL, which checks its own pages.
func (postgresDriver) checkIntegrity(context.Context, *DB) error { return nil }

// defaultConnLifetime is how long a PostgreSQL connection is reused before
// the pool replaces it with a new backend. Under sustained checkouts a
// long-lived backend's CPU per commit crept up, and stepped up after
// checkpoints, to up to twice a new backend's; replacing the backends
// brought it back at once (444 → 303 µs), and with 30 s connections the
// later rounds of the checkout comparison gave a median 0.48 of pgbench
// against 0.40 with kept ones. Why an old backend gets slower was not
// found (its memory does not grow). A new connection costs a backend start
// and each prepared statement's first use again: milliseconds a minute.
const defaultConnLifetime = 30 * time.Second

func openPostgres(ctx context.Context, dsn string, clock botpay.Clock, maxConns int, lifetime time.Duration) (*DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	// Transactions are driven by hand on a connection (inConnTx); a
	// connection that is somehow still inside one is never reused.
	pool := stdlib.OpenDB(*cfg, stdlib.OptionResetSession(func(_ context.Context, c *pgx.Conn) error {
		if c.PgConn().TxStatus() != 'I' {
			return driver.ErrBadConn
		}
		return nil
	}))
	pool.SetMaxOpenConns(maxConns)
	pool.SetMaxIdleConns(maxConns)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	pool.SetConnMaxLifetime(lifetime)
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	return &DB{driver: postgresDriver{}, write: pool, read: pool, clock: clock, gate: newWriteGate(maxConns)}, nil
}
