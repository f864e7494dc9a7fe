package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Every write transaction waits at the write gate (gate.go) on both
// engines: with every turn taken it starts nothing until its context ends,
// and runs once a turn is free.
func TestWriteTransactionsWaitForATurnAtTheGate(t *testing.T) {
	gateLimit := ratelimit.Limit{Bucket: "gate-test", Max: 10, Window: time.Hour}
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		release := st.HoldWriteGate()
		waiting, cancel := context.WithCancel(ctx)
		cancel()
		if err := ratelimit.New(st.Kernel()).Take(waiting, gateLimit); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "waiting for a write turn") {
			release()
			t.Fatalf("a write with every turn taken: %v, want it to wait until its context ends", err)
		}
		release()
		if err := ratelimit.New(st.Kernel()).Take(ctx, gateLimit); err != nil {
			t.Fatalf("a write with a turn free: %v", err)
		}
	})
}
