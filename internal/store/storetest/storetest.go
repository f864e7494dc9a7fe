// Package storetest opens isolated, migrated databases for tests on every
// engine: a SQLite file per test, copied from a migrated template, and a
// PostgreSQL schema per test, leased from a pool of migrated schemas and
// reset. It is the one place that decides whether PostgreSQL tests run, skip
// or fail (TEST_POSTGRES_REQUIRED=1 makes an unreachable server fatal).
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/suite"
)

// DefaultPostgresURL is this machine's test server (trust auth).
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Dialects are the engines every store test runs on.
var Dialects = []store.Dialect{store.SQLite, store.Postgres}

// DB is an isolated test database.
type DB struct {
	Store   *store.Store
	Options store.Options
}

// OpenAnother connects a second, independent Store to the same database, as
// a second server replica would.
func (d *DB) OpenAnother(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), d.Options)
	if err != nil {
		t.Fatalf("open second store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// ForEach runs fn as a subtest per engine, each with its own database.
func ForEach(t *testing.T, fn func(t *testing.T, db *DB)) {
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			fn(t, Open(t, d, nil))
		})
	}
}

// FreshSchemasEnv, set to 1, makes Open migrate a new database for every
// test instead of copying a template file (SQLite) or leasing a pooled
// schema (PostgreSQL): the way to rule the reuse out when a test misbehaves,
// and the "before" of the setup benchmark.
const FreshSchemasEnv = "TEST_FRESH_SCHEMAS"

func freshSchemas() bool { return os.Getenv(FreshSchemasEnv) == "1" }

// Open creates a migrated, empty database on dialect for this test. It is
// the test's alone; unless FreshSchemasEnv says otherwise it comes from a
// template (SQLite) or a pool of migrated schemas (PostgreSQL, pgpool.go)
// instead of running every migration.
func Open(t testing.TB, dialect store.Dialect, clock botpay.Clock) *DB {
	t.Helper()
	var opts store.Options
	switch dialect {
	case store.SQLite:
		opts = store.Options{DataDir: t.TempDir()}
		if !freshSchemas() {
			copySQLiteTemplate(t, opts.DataDir)
		}
	case store.Postgres:
		opts = store.Options{DatabaseURL: postgresSchema(t), MaxConns: 8}
	}
	opts.Clock = clock
	st, err := store.Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("open %s: %v", dialect, err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Kernel().Migrate(context.Background()); err != nil {
		t.Fatalf("migrate %s: %v", dialect, err)
	}
	return &DB{Store: st, Options: opts}
}

// postgresSchema makes a schema for this test and returns a URL whose
// connections use it. It skips, or fails when PostgreSQL is required.
func postgresSchema(t testing.TB) string {
	t.Helper()
	base := postgresBase()
	if !freshSchemas() && poolFor(base).ready.Load() {
		return leaseSchema(t, base) // the server answered this process already
	}
	admin, err := sql.Open("pgx", base)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = admin.PingContext(ctx)
		cancel()
	}
	if err != nil {
		suite.PostgreSQL.Need(t, fmt.Sprintf("not reachable at %s (%v)", redact(base), err))
	}
	suite.PostgreSQL.Need(t)
	if !freshSchemas() {
		admin.Close()
		return leaseSchema(t, base)
	}
	schema := "t_" + randomSuffix()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// postgresBase is the URL of the test server's database.
func postgresBase() string {
	if base := os.Getenv("TEST_DATABASE_URL"); base != "" {
		return base
	}
	return DefaultPostgresURL
}

// randomSuffix names a schema nobody else will pick.
func randomSuffix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// schema is the PostgreSQL schema of d.
func (d *DB) schema(t testing.TB) string {
	t.Helper()
	u, err := url.Parse(d.Options.DatabaseURL)
	if err != nil || u.Query().Get("search_path") == "" {
		t.Fatalf("no schema in %q", d.Options.DatabaseURL)
	}
	return u.Query().Get("search_path")
}

func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "the configured URL"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return strings.TrimSpace(u.String())
}

// EachEngine runs fn as a parallel subtest per engine (named after it), for
// tests that open their own database or server on the engine given
// (testserver.Start, Open with a clock). Tests of the store alone use
// ForEach, which opens the database too.
func EachEngine(t *testing.T, fn func(t *testing.T, d store.Dialect)) {
	t.Helper()
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			fn(t, d)
		})
	}
}
