package kernel

import (
	"context"
	"regexp"
	"sync"
)

// Engine names a database engine.
type Engine string

const (
	SQLite   Engine = "sqlite"
	Postgres Engine = "postgres"
)

// Driver holds every difference between the two engines, SQL text and
// behaviour alike: the rest of the service asks it and never compares
// engine names. Statements both engines agree on are written once, with
// $N placeholders (Rebind); where they differ, the driver gives the
// fragment. The conformance suite (driver_test.go) runs on both.
type Driver interface {
	Engine() Engine
	// Rebind writes a query in the engine's placeholders.
	Rebind(query string) string
	// ForUpdate locks the rows a SELECT reads for the rest of the
	// transaction. SQLite's immediate transactions already hold the
	// database's write lock, so it needs nothing.
	ForUpdate() string
	// SkipLocked is ForUpdate that also skips rows another transaction
	// holds, so concurrent claimers each take the next free row.
	SkipLocked() string
	// LockForNoKeyUpdate locks only the rows of one table of a join, in
	// the mode an UPDATE of a non-key column takes.
	LockForNoKeyUpdate(alias string) string
	// InsertInsideWith: the engine runs INSERT and UPDATE inside WITH, so
	// several writes can travel as one statement.
	InsertInsideWith() bool
	// Seeding is the SQL of bulk loads (the scale benchmarks' seed).
	Seeding() Seeding
	// Classify wraps the engine's constraint errors as ErrUnique and
	// ErrForeignKey, by error code, never by message text.
	Classify(err error) error

	// run runs fn in one write transaction of db.
	run(ctx context.Context, db *DB, fn func(*Tx) error) error
	// readRow reads one row outside any transaction into dest
	// (sql.ErrNoRows when there is none).
	readRow(ctx context.Context, db *DB, query string, args, dest []any) error
	// lockMigrations serialises replicas' migrations; the returned func
	// releases the lock.
	lockMigrations(ctx context.Context, db *DB) (unlock func(), err error)
	// preparesStatements: the service caches prepared statements itself
	// (SQLite); PostgreSQL's driver caches them.
	preparesStatements() bool
	backup(ctx context.Context, db *DB, path string) error
	checkIntegrity(ctx context.Context, db *DB) error
}

// Seeding is the SQL a bulk load needs of an engine: a series of n rows,
// the boolean literals, a one-byte blob literal, an integer as 16
// hexadecimal digits, and whether the planner needs fresh statistics
// after the load.
type Seeding struct {
	Series          func(n int) string
	False, True     string
	Bytes           string
	Hex16           func(expr string) string
	AnalyzeAfterAll bool
}

// placeholder matches $N outside of quoted text; the service's SQL never
// puts a dollar sign inside a literal.
var placeholder = regexp.MustCompile(`\$(\d+)`)

var rebound sync.Map // query text → SQLite form

// rebindNumbered turns PostgreSQL placeholders ($1) into SQLite numbered
// ones (?1), so every statement is written once.
func rebindNumbered(query string) string {
	if q, ok := rebound.Load(query); ok {
		return q.(string)
	}
	q := placeholder.ReplaceAllString(query, "?$1")
	rebound.Store(query, q)
	return q
}

// DriverFor is the driver of engine, for what needs one without a
// database (migration fingerprints).
func DriverFor(engine Engine) Driver {
	if engine == Postgres {
		return postgresDriver{}
	}
	return sqliteDriver{}
}
