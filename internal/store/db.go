package store

import (
	"context"

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
// it.
type Store struct {
	db *kernel.DB
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
	return &Store{db: db, outbox: &ledger.Outbox{}}, nil
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
