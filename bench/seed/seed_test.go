package main

import (
	"context"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/store/storetest"
)

var ctx = context.Background()

// The seeding tool's data is consistent with what the service writes
// (every wallet equals its ledger), the service keeps working on top of
// it, and a second seeding is refused.
func TestSeedFillsAConsistentDatabase(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		if err := seed(ctx, st.Kernel(), 1000, func(string, time.Duration) {}); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"bot_0000000000000001", "bot_00000000000003e8"} {
			v, ok, err := storetest.Wallets(st).WalletView(ctx, id)
			sum, _ := storetest.Wallets(st).LedgerSum(ctx, id)
			if err != nil || !ok || v.Wallet.Balance != 9700 || sum != 9700 {
				t.Errorf("seeded %s: wallet %+v (%v, %v), ledger sum %d", id, v.Wallet, ok, err, sum)
			}
		}
		seller, _ := bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox()}).Bot(ctx, "bot_00000000000003e8")
		sales, err := earning.New(earning.Deps{DB: st.Kernel(), Outbox: st.Outbox()}).Sales(ctx, seller, botpay.SaleFilter{}, botpay.PageRequest{Limit: 10})
		if err != nil || len(sales.Items) != 1 || sales.Items[0].Amount != 500 {
			t.Errorf("seeded sales: %+v, %v", sales.Items, err)
		}
		owner := storetest.NewOwner(t, st)
		bot := storetest.ClaimedBot(t, st, owner)
		if _, err := storetest.Wallets(st).Fund(ctx, owner, bot.ID, botpay.Money(500), ""); err != nil {
			t.Fatalf("funding a new bot on a seeded database: %v", err)
		}
		if err := seed(ctx, st.Kernel(), 10, func(string, time.Duration) {}); err == nil {
			t.Error("a second seeding was accepted")
		}
	})
}
