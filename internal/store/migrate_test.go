package store_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestMigrateIsIdempotent(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		applied, err := db.Store.Kernel().Migrate(context.Background())
		if err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		if len(applied) != 0 {
			t.Fatalf("second migrate applied %v, want nothing", applied)
		}
		if err := db.Store.Ping(context.Background()); err != nil {
			t.Fatalf("ping: %v", err)
		}
	})
}

// A replica migrating one schema holds the migration lock; a service in
// another schema of the same database starts without waiting for it.
func TestMigrationsOfOneSchemaDoNotWaitForAnother(t *testing.T) {
	t.Parallel()
	a := storetest.Open(t, store.Postgres, nil)
	raw, err := sql.Open("pgx", a.Options.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	conn, err := raw.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), store.PGMigrationLock); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		storetest.Open(t, store.Postgres, nil)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		// Release the lock so the waiting Open ends with the test.
		conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock_all()`)
		<-done
		t.Fatal("a fresh schema's migrations waited for another schema's lock")
	}
}
