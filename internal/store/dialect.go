package store

import (
	"strconv"
	"sync"
)

// dialect holds every difference between the two engines, SQL text and
// behaviour alike. The rest of the package asks it; nothing else compares
// engine names.
type dialect struct {
	name Dialect

	// forUpdate locks the rows a SELECT reads for the rest of the
	// transaction. SQLite's immediate transactions already hold the
	// database's write lock, so it needs nothing.
	forUpdate string
	// skipLocked is forUpdate that also skips rows another transaction
	// holds, so concurrent claimers each take the next free row.
	skipLocked string
	// lockForNoKeyUpdate locks only the rows of one table of a join, in the
	// mode an UPDATE of a non-key column takes (see walletStep).
	lockForNoKeyUpdate func(alias string) string
	// insertInsideWith: the engine runs INSERT and UPDATE inside WITH, so
	// several writes can travel as one statement (emit, the checkout fast
	// path).
	insertInsideWith bool
	// checkoutInOne: an approved real checkout writes everything in one
	// statement (recordApprovedInOne, which needs insertInsideWith), not
	// statement by statement; measured faster on PostgreSQL.
	checkoutInOne bool
	// numberedPlaceholders: the engine reads $1 itself; otherwise rebind
	// turns it into ?1.
	numberedPlaceholders bool
	// handDrivenTx: transactions are driven by hand on one connection so
	// that BEGIN and COMMIT travel with statements (inConnTx); otherwise
	// database/sql's transactions with cached prepared statements.
	handDrivenTx bool
	// embeddedFile: the database is one local file the service can copy
	// and check itself (Backup, CheckIntegrity).
	embeddedFile bool
	// migrationLock: replicas take an advisory lock around migrations
	// (SQLite's immediate transactions serialise them already).
	migrationLock bool

	// analyzeAfterSeed: the planner needs fresh statistics after a bulk
	// load (SQLite plans without them).
	analyzeAfterSeed bool

	// Seeding (seed.go): a series of n rows, the boolean literals, a
	// one-byte blob literal and an integer as 16 hexadecimal digits.
	series func(n int) string
	false_ string
	true_  string
	bytes  string
	hex16  func(expr string) string
}

var sqliteDialect = dialect{
	name:               SQLite,
	lockForNoKeyUpdate: func(string) string { return "" },
	embeddedFile:       true,
	series: func(n int) string {
		return " FROM (WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < " + strconv.Itoa(n) + ") SELECT i FROM g)"
	},
	false_: "0",
	true_:  "1",
	bytes:  "x'00'",
	hex16:  func(expr string) string { return "printf('%016x', " + expr + ")" },
}

var postgresDialect = dialect{
	name:                 Postgres,
	forUpdate:            " FOR UPDATE",
	skipLocked:           " FOR UPDATE SKIP LOCKED",
	lockForNoKeyUpdate:   func(alias string) string { return " FOR NO KEY UPDATE OF " + alias },
	insertInsideWith:     true,
	checkoutInOne:        true,
	numberedPlaceholders: true,
	handDrivenTx:         true,
	migrationLock:        true,
	analyzeAfterSeed:     true,
	series:               func(n int) string { return " FROM generate_series(1, " + strconv.Itoa(n) + ") AS g(i)" },
	false_:               "FALSE",
	true_:                "TRUE",
	bytes:                `'\x00'::bytea`,
	hex16:                func(expr string) string { return "lpad(to_hex(" + expr + "), 16, '0')" },
}

var rebound sync.Map // query text → SQLite form

// rebind turns PostgreSQL placeholders ($1) into SQLite numbered ones (?1)
// where the engine needs it, so every statement is written once.
func (d dialect) rebind(query string) string {
	if d.numberedPlaceholders {
		return query
	}
	if q, ok := rebound.Load(query); ok {
		return q.(string)
	}
	q := placeholder.ReplaceAllString(query, "?$1")
	rebound.Store(query, q)
	return q
}
