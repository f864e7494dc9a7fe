package kernel_test

import (
	"context"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// TestPostgresConnectionsAreReplacedAfterTheirLifetime: the pool reuses a
// connection within its lifetime and gives the next transaction a new
// backend after it, so no backend serves for longer.
func TestPostgresConnectionsAreReplacedAfterTheirLifetime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := storetest.Open(t, store.Postgres, nil).Options.DatabaseURL
	const lifetime = 300 * time.Millisecond
	k, err := kernel.Open(ctx, kernel.Options{DatabaseURL: url, MaxConns: 1, ConnLifetime: lifetime})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
	backend := func() (pid int) {
		t.Helper()
		if err := k.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
			t.Fatal(err)
		}
		return pid
	}
	started := time.Now()
	first, again := backend(), backend()
	if time.Since(started) < lifetime && again != first {
		t.Fatalf("a connection within its lifetime was replaced: backend %d, then %d", first, again)
	}
	time.Sleep(lifetime - time.Since(started) + 100*time.Millisecond)
	if later := backend(); later == first {
		t.Errorf("backend %d still served after the connection's lifetime of %s", later, lifetime)
	}
}
