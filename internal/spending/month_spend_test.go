package spending_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// The wallet's spend of the month counts the debits of the reader's UTC
// month and the holds, on either write path: a debit of the month before
// drops out when the month changes, a hold approved in the new month
// counts there, and a debit stamped with the old month after the new one
// began (a replica's clock behind) leaves the new month's sum alone.
func TestTheWalletsMonthSpendCountsTheMonthsDebits(t *testing.T) {
	paths := []struct {
		name    string
		dialect store.Dialect
		general bool
	}{
		{"sqlite", store.SQLite, false},
		{"postgres, one statement", store.Postgres, false},
		{"postgres, statement by statement", store.Postgres, true},
	}
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			clock := botpay.NewManualClock(time.Date(2026, 10, 31, 23, 58, 0, 0, time.UTC))
			db := storetest.Open(t, p.dialect, clock)
			if p.general {
				statementByStatement(db.Store)
			}
			owner := storetest.NewOwner(t, db.Store)
			b, _ := storetest.Shopper(t, db.Store, owner, func(*botpay.Guardrails) {})
			key := storetest.NewAPIKey(t, db.Store, b.ID)
			spent := func(want botpay.Money, when string) {
				t.Helper()
				v, _, err := storetest.Wallets(db.Store).WalletView(ctx, b.ID)
				if err != nil || v.MonthlySpent != want {
					t.Errorf("%s: monthly spent %d, %v; want %d", when, v.MonthlySpent, err, want)
				}
				o, err := storetest.Wallets(db.Store).WalletCheck(ctx, key)
				if err != nil || o.Wallet == nil || o.Wallet.MonthlySpent != want {
					t.Errorf("%s: wallet check %+v, %v; want monthly spent %d", when, o.Wallet, err, want)
				}
			}
			buy(t, db.Store, b, 300)
			buy(t, db.Store, b, 200)
			held := storetest.Hold(t, db.Store, b, 5000)
			spent(300+200+5000, "in October")

			clock.Advance(5 * time.Minute)
			spent(5000, "in November, the hold only")
			if _, err := spendingOf(db.Store).DecidePurchase(ctx, owner, held.ID, true); err != nil {
				t.Fatal(err)
			}
			buy(t, db.Store, b, 700)
			spent(5000+700, "in November, the hold approved")

			clock.Advance(-10 * time.Minute) // a replica whose clock still reads October
			buy(t, db.Store, b, 100)
			clock.Advance(10 * time.Minute)
			spent(5000+700, "in November, after a debit stamped October")
		})
	}
}

// buy has the bot check out amount and fails the test unless it is
// approved at once.
func buy(t *testing.T, st *store.Store, b botpay.Bot, amount botpay.Money) {
	t.Helper()
	res, err := spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
		Request: botpay.CheckoutRequest{Amount: amount, MerchantName: "Acme", MerchantURL: "acme.com"}})
	if err != nil || res.Purchase.Status != botpay.PurchaseApproved {
		t.Fatalf("checkout of %d = %+v, %v; want approved", amount, res.Purchase, err)
	}
}
