package store_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Migration 0095 gives each wallet its spend of the current month from the
// ledger's spend rows of that month; a spend of the month before does not
// count. The migration reads the database's own clock, so the test's clock
// is the real time.
func TestMigration0095CountsTheCurrentMonthsSpends(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		now := time.Now().UTC()
		clock := botpay.NewManualClock(botpay.MonthStart(now).Add(-time.Hour))
		st := storetest.Open(t, d, clock).Store
		owner := storetest.NewOwner(t, st)
		b, _ := storetest.Shopper(t, st, owner, func(*botpay.Guardrails) {})
		buy := func(amount botpay.Money) {
			_, err := spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
				Request: botpay.CheckoutRequest{Amount: amount, MerchantName: "Acme", MerchantURL: "acme.com"}})
			if err != nil {
				t.Fatal(err)
			}
		}
		buy(100) // last month
		clock.Advance(now.Sub(clock.Now()))
		buy(300)
		buy(200)
		if err := st.RecountMonthSpendAsMigration0095(ctx); err != nil {
			t.Fatalf("backfill: %v", err)
		}
		v, _, err := storetest.Wallets(st).WalletView(ctx, b.ID)
		if err != nil || v.MonthlySpent != 500 {
			t.Errorf("monthly spent after the backfill = %d, %v; want 500", v.MonthlySpent, err)
		}
		buy(50)
		if v, _, _ := storetest.Wallets(st).WalletView(ctx, b.ID); v.MonthlySpent != 550 {
			t.Errorf("monthly spent after one more = %d, want 550", v.MonthlySpent)
		}
	})
}
