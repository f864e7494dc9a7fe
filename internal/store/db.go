package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Dialect names a database engine.
type Dialect = kernel.Engine

const (
	SQLite   = kernel.SQLite
	Postgres = kernel.Postgres
)

// Store is the service's database handle: the kernel and the outbox over
// it, with the wallet SQL not yet cut out into a capability.
type Store struct {
	db    *kernel.DB
	clock botpay.Clock
	// outbox writes events and, after a commit, wakes the local
	// dispatcher (other replicas poll).
	outbox *ledger.Outbox
}

// Options configure Open.
type Options = kernel.Options

// Errors of the kernel that callers of the store test for.
var (
	ErrUnique         = kernel.ErrUnique
	ErrForeignKey     = kernel.ErrForeignKey
	ErrBackupPostgres = kernel.ErrBackupPostgres
)

// Open connects to the configured engine. It does not migrate.
func Open(ctx context.Context, opts Options) (*Store, error) {
	db, err := kernel.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &Store{db: db, clock: db.Clock(), outbox: &ledger.Outbox{}}, nil
}

// Kernel is the database kernel the store runs on.
func (s *Store) Kernel() *kernel.DB { return s.db }

// Outbox writes events in the transaction of their change; capability
// packages write theirs through it too, so one dispatcher wake-up serves
// all.
func (s *Store) Outbox() *ledger.Outbox { return s.outbox }

// Dialect reports the engine in use.
func (s *Store) Dialect() Dialect { return s.db.Engine() }

// Clock is the store's notion of now.
func (s *Store) Clock() botpay.Clock { return s.db.Clock() }

// Ping checks that the database answers (readiness).
func (s *Store) Ping(ctx context.Context) error { return s.db.Ping(ctx) }

// Close releases all connections.
func (s *Store) Close() error { return s.db.Close() }

// MigrationFingerprint names the schema engine's migrations build.
func MigrationFingerprint(engine Dialect) (string, error) { return kernel.MigrationFingerprint(engine) }

// MigrationCount is how many migrations engine's schema is built from.
func MigrationCount(engine Dialect) int { return kernel.MigrationCount(engine) }

// queryRow reads outside any transaction, from the read pool.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return s.db.QueryRow(ctx, query, args...)
}

func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return s.db.Query(ctx, query, args...)
}

// ms stores times as integer Unix milliseconds on both engines: exact,
// comparable in SQL and free of driver time-zone quirks.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("store")

// The NULL and no-rows helpers of the kernel, by their short names here.
var (
	fromNullMS = kernel.FromNullMS
	isNoRows   = kernel.IsNoRows
)
