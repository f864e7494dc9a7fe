package store_test

import (
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// A transaction whose connection breaks before COMMIT was sent provably
// did not commit: it runs once more on a fresh connection and applies
// exactly once. (PostgreSQL only: SQLite has no connection to break.)
func TestBrokenConnectionBeforeCommitIsRetriedOnce(t *testing.T) {
	db := storetest.Open(t, store.Postgres, nil)
	proxied, proxy := db.OpenThroughProxy(t)
	st := proxied.Store
	owner := storetest.NewOwner(t, st)
	bot := storetest.ClaimedBot(t, st, owner)
	for i := range 3 {
		if _, err := storetest.Wallets(st).Fund(ctx, owner, bot.ID, 100, ""); err != nil {
			t.Fatal(err)
		}
		proxy.Cut() // as a database restart does, between two requests
		if _, err := storetest.Wallets(st).Fund(ctx, owner, bot.ID, 250, ""); err != nil {
			t.Fatalf("round %d: a funding on a broken connection failed instead of being retried: %v", i, err)
		}
	}
	sum, err := storetest.Wallets(st).LedgerSum(ctx, bot.ID)
	if err != nil || sum != botpay.Money(3*350) {
		t.Fatalf("ledger sum %d (%v), want %d: each funding applied exactly once", sum, err, 3*350)
	}
}
