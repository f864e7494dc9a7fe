package storetest

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/store"
)

// dirty writes into a schema what tests leave behind: rows, a used
// identity, an advanced sequence, a changed seed row.
func dirty(t *testing.T, raw *sql.DB) {
	t.Helper()
	for _, stmt := range []string{
		`INSERT INTO rate_limit_buckets (bucket) VALUES ('left-behind')`,
		`INSERT INTO rate_limit_hits (bucket, at) VALUES ('left-behind', 1), ('left-behind', 2)`,
		`UPDATE api_key_epoch SET epoch = 7`,
		`SELECT nextval('list_seq')`,
	} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// fresh checks that a schema is as a new migration leaves it.
func fresh(t *testing.T, raw *sql.DB) {
	t.Helper()
	var buckets, epoch, hitID, seq int64
	for _, q := range []struct {
		sql  string
		into *int64
		want int64
	}{
		{`SELECT count(*) FROM rate_limit_buckets`, &buckets, 0},
		{`SELECT epoch FROM api_key_epoch WHERE id = 1`, &epoch, 0},
		{`INSERT INTO rate_limit_hits (bucket, at) VALUES ('x', 1) RETURNING id`, &hitID, 1},
		{`SELECT nextval('list_seq')`, &seq, 1},
	} {
		if err := raw.QueryRow(q.sql).Scan(q.into); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
		if *q.into != q.want {
			t.Errorf("%s = %d, want %d as in a fresh schema", q.sql, *q.into, q.want)
		}
	}
}

func TestALeasedSchemaIsResetToAFreshMigration(t *testing.T) {
	t.Parallel()
	db := Open(t, store.Postgres, nil)
	raw, err := sql.Open("pgx", db.Options.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	dirty(t, raw)
	left, err := raw.Conn(context.Background()) // a connection a finished test left open
	if err != nil {
		t.Fatal(err)
	}
	defer left.Close()
	p := poolFor(postgresBase())
	name := db.schema(t)
	conn, err := p.admin.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := p.reset(context.Background(), conn, name); err != nil {
		t.Fatalf("reset: %v", err)
	}
	var one int
	if err := left.QueryRowContext(context.Background(), `SELECT 1`).Scan(&one); err == nil {
		t.Error("a connection of the schema's last user survived the reset")
	}
	raw.Close()
	again, err := sql.Open("pgx", db.Options.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	fresh(t, again)
}

func TestConcurrentLeasesNeverShareASchema(t *testing.T) {
	t.Parallel()
	const leases = 6
	tests := make([]*oneTest, leases)
	names := make([]string, leases)
	var wg sync.WaitGroup
	for i := range leases {
		tests[i] = &oneTest{TB: t}
		wg.Go(func() { names[i] = Open(tests[i], store.Postgres, nil).schema(t) })
	}
	wg.Wait()
	defer func() {
		for _, one := range tests {
			one.end()
		}
	}()
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Fatalf("schema %s leased twice at once", n)
		}
		seen[n] = true
	}
}

func TestAHalfBuiltSchemaIsDroppedNotLeased(t *testing.T) {
	t.Parallel()
	Open(t, store.Postgres, nil) // the pool is ready
	p := poolFor(postgresBase())
	ctx := context.Background()
	conn, err := p.admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	broken := p.prefix + "lhalfbuilt" + randomSuffix()
	if _, err := conn.ExecContext(ctx, `CREATE SCHEMA `+broken+`;
		CREATE TABLE `+broken+`.schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL);
		INSERT INTO `+broken+`.schema_migrations VALUES (1, '0001_init.sql', 0)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+broken+` CASCADE`) })
	// Offered the broken schema directly, since claim visits free schemas
	// in random order and a large pool may not reach it.
	leased, err := p.tryLease(ctx, conn, broken)
	if err != nil {
		t.Fatal(err)
	}
	if leased {
		t.Fatal("a half-built schema was leased")
	}
	var exists bool
	conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, broken).Scan(&exists)
	if exists {
		t.Fatal("the half-built schema is still there after it was offered")
	}
}
