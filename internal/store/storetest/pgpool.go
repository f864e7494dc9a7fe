package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/store"
)

// Migrating a PostgreSQL schema costs most of an empty test's time, so
// tests lease migrated schemas from a pool kept in the test database and
// shared by every test process and worktree that uses the server:
//
//   - A schema is named after the fingerprint of the migrations that built
//     it (tp_<fingerprint>_l<random>), so a process never leases a schema
//     of other migrations.
//   - A lease is a session advisory lock on the schema's name, held by one
//     connection for the test's life: two tests never share a schema, and
//     a crashed process's schemas come free when its connections close.
//   - A leased schema is reset before use, never after, so a crash cannot
//     leave a dirty schema behind: connections still open on it are ended
//     (each test connection names its schema as application_name), every
//     table is emptied, sequences restart, and the rows the migrations
//     seed are copied back from the fingerprint's pristine schema
//     (tp_<fingerprint>_seed), which is migrated once and never leased.
//   - A schema whose schema_migrations is short was left half-built by a
//     crash; whoever finds it drops it.
const leaseLockClass = 727275 // store's migration lock uses 727274

// pgPool is this process's view of the pool of one server.
type pgPool struct {
	once       sync.Once
	err        error
	ready      atomic.Bool // init succeeded
	base       *url.URL
	admin      *sql.DB
	prefix     string          // tp_<fingerprint>_
	seedTables []string        // tables a fresh migration leaves rows in
	migrated   map[string]bool // every table a fresh migration makes
	superuser  bool            // may reset with session_replication_role
}

var pools sync.Map // base URL → *pgPool

func poolFor(base string) *pgPool {
	p, _ := pools.LoadOrStore(base, &pgPool{})
	return p.(*pgPool)
}

// leaseSchema returns a URL of a migrated, empty schema that is this test's
// alone until it ends.
func leaseSchema(t testing.TB, base string) string {
	t.Helper()
	p := poolFor(base)
	p.once.Do(func() { p.err = p.init(base) })
	if p.err != nil {
		t.Fatalf("test schema pool: %v", p.err)
	}
	ctx := context.Background()
	conn, err := p.admin.Conn(ctx)
	if err != nil {
		t.Fatalf("test schema pool: %v", err)
	}
	name, err := p.claim(ctx, conn)
	if err == nil && name == "" {
		name, err = p.create(ctx, conn)
	}
	if err != nil {
		conn.Close()
		t.Fatalf("lease a test schema: %v", err)
	}
	t.Cleanup(func() {
		conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1, hashtext($2))`, leaseLockClass, name)
		conn.Close()
	})
	return p.schemaURL(name)
}

func (p *pgPool) init(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("TEST_DATABASE_URL: %w", err)
	}
	// The pool's own handle lives as long as the process: leases hold one
	// of its connections each.
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return err
	}
	fp, err := store.MigrationFingerprint(store.Postgres)
	if err != nil {
		return err
	}
	p.base, p.admin, p.prefix = u, admin, "tp_"+fp[:12]+"_"
	ctx := context.Background()
	conn, err := admin.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	seed := p.prefix + "seed"
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1, hashtext($2))`, leaseLockClass, seed); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1, hashtext($2))`, leaseLockClass, seed)
	if !p.complete(ctx, conn, seed) {
		if err := p.build(ctx, conn, seed); err != nil {
			return fmt.Errorf("migrate the pristine schema: %w", err)
		}
	}
	if err := conn.QueryRowContext(ctx, `SELECT current_setting('is_superuser') = 'on'`).Scan(&p.superuser); err != nil {
		return err
	}
	p.seedTables, err = nonEmptyTables(ctx, conn, seed)
	if err == nil {
		err = p.noteMigratedTables(ctx, conn, seed)
	}
	p.ready.Store(err == nil)
	return err
}

// claim locks a free schema of the pool and resets it; "" when none is free.
func (p *pgPool) claim(ctx context.Context, conn *sql.Conn) (string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT nspname FROM pg_namespace
		WHERE starts_with(nspname, $1) ORDER BY random()`, p.prefix+"l")
	if err != nil {
		return "", err
	}
	names, err := scanStrings(rows)
	if err != nil {
		return "", err
	}
	for _, name := range names {
		leased, err := p.tryLease(ctx, conn, name)
		if err != nil {
			return "", err
		}
		if leased {
			return name, nil
		}
	}
	return "", nil
}

// tryLease leases schema name if it is free and complete; a free schema
// that is half-built is dropped instead.
func (p *pgPool) tryLease(ctx context.Context, conn *sql.Conn, name string) (bool, error) {
	var locked bool
	err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1, hashtext($2))`, leaseLockClass, name).Scan(&locked)
	if err != nil || !locked {
		return false, err
	}
	if !p.complete(ctx, conn, name) {
		conn.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+name+` CASCADE`)
		conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1, hashtext($2))`, leaseLockClass, name)
		return false, nil
	}
	if err := p.reset(ctx, conn, name); err != nil {
		conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1, hashtext($2))`, leaseLockClass, name)
		return false, fmt.Errorf("reset %s: %w", name, err)
	}
	return true, nil
}

// create adds a schema to the pool, leased to the caller.
func (p *pgPool) create(ctx context.Context, conn *sql.Conn) (string, error) {
	b := make([]byte, 6)
	rand.Read(b)
	name := p.prefix + "l" + hex.EncodeToString(b)
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1, hashtext($2))`, leaseLockClass, name); err != nil {
		return "", err
	}
	if err := p.build(ctx, conn, name); err != nil {
		conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1, hashtext($2))`, leaseLockClass, name)
		return "", err
	}
	return name, nil
}

// build (re)creates schema name and migrates it; the caller holds its lock.
func (p *pgPool) build(ctx context.Context, conn *sql.Conn, name string) error {
	if _, err := conn.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+name+` CASCADE; CREATE SCHEMA `+name); err != nil {
		return err
	}
	// Migrate holds one connection for its lock and runs on another.
	st, err := store.Open(ctx, store.Options{DatabaseURL: p.schemaURL(name), MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	_, err = st.Kernel().Migrate(ctx)
	return err
}

// complete reports whether every migration of this binary built name.
func (p *pgPool) complete(ctx context.Context, conn *sql.Conn, name string) bool {
	var n int
	err := conn.QueryRowContext(ctx, `SELECT count(*) FROM `+name+`.schema_migrations`).Scan(&n)
	return err == nil && n == store.MigrationCount(store.Postgres)
}

// reset makes a leased schema as a fresh migration leaves it.
func (p *pgPool) reset(ctx context.Context, conn *sql.Conn, name string) error {
	// A connection left open by the schema's last test (a replica, a
	// killed child process's pool) must not write into this one's data.
	conn.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = $1 AND pid <> pg_backend_pid()`, name)
	all, err := tablesOf(ctx, conn, name)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	var tables []string
	for _, t := range all {
		if !p.migrated[t] { // a test's own scratch table
			fmt.Fprintf(&b, "DROP TABLE %s.%s CASCADE;\n", name, t)
			continue
		}
		tables = append(tables, t)
	}
	if p.superuser {
		// A test leaves a few rows: deleting them is much cheaper than
		// TRUNCATE, which makes new files for every table and index. The
		// replica role skips triggers and foreign-key checks, so the order
		// of the deletes does not matter and no trigger writes anything.
		b.WriteString("SET LOCAL session_replication_role = replica;\n")
		for _, t := range tables {
			fmt.Fprintf(&b, "DELETE FROM %s.%s;\n", name, t)
		}
	} else if len(tables) > 0 {
		fmt.Fprintf(&b, "TRUNCATE %s CASCADE;\n", qualified(name, tables))
	}
	// Every sequence, identities included, starts again where a fresh
	// migration leaves it; setval writes no new file, unlike RESTART.
	fmt.Fprintf(&b, `SELECT setval(format('%%I.%%I', schemaname, sequencename), start_value, false)
		FROM pg_sequences WHERE schemaname = '%s';`+"\n", name)
	for _, t := range p.seedTables {
		fmt.Fprintf(&b, "INSERT INTO %s.%s SELECT * FROM %sseed.%s;\n", name, t, p.prefix, t)
	}
	b.WriteString("COMMIT;")
	_, err = conn.ExecContext(ctx, b.String())
	return err
}

// noteMigratedTables records the tables of the pristine schema: any other
// table in a leased schema was made by a test, and reset drops it.
func (p *pgPool) noteMigratedTables(ctx context.Context, conn *sql.Conn, seed string) error {
	tables, err := tablesOf(ctx, conn, seed)
	if err != nil {
		return err
	}
	p.migrated = map[string]bool{}
	for _, t := range tables {
		p.migrated[t] = true
	}
	return nil
}

// schemaURL is the base URL with connections put in schema name, and
// named after it so that reset can find and end them.
func (p *pgPool) schemaURL(name string) string {
	u := *p.base
	q := u.Query()
	q.Set("search_path", name)
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// tablesOf lists schema name's tables but schema_migrations.
func tablesOf(ctx context.Context, conn *sql.Conn, name string) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT tablename FROM pg_tables
		WHERE schemaname = $1 AND tablename <> 'schema_migrations' ORDER BY tablename`, name)
	if err != nil {
		return nil, err
	}
	return scanStrings(rows)
}

// nonEmptyTables lists the tables of schema name that hold rows.
func nonEmptyTables(ctx context.Context, conn *sql.Conn, name string) ([]string, error) {
	tables, err := tablesOf(ctx, conn, name)
	if err != nil || len(tables) == 0 {
		return nil, err
	}
	probes := make([]string, len(tables))
	for i, t := range tables {
		probes[i] = fmt.Sprintf(`SELECT '%s' WHERE EXISTS (SELECT 1 FROM %s.%s)`, t, name, t)
	}
	rows, err := conn.QueryContext(ctx, strings.Join(probes, " UNION ALL "))
	if err != nil {
		return nil, err
	}
	return scanStrings(rows)
}

func qualified(schema string, tables []string) string {
	out := make([]string, len(tables))
	for i, t := range tables {
		out[i] = schema + "." + t
	}
	return strings.Join(out, ", ")
}

func scanStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
