package spending_test

import (
	"context"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Two replicas sweeping at once expire every overdue hold exactly once:
// each purchase.expired is written once and every hold is released once.
func TestExpiryOnTwoReplicasExpiresEachHoldOnce(t *testing.T) {
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
			db := storetest.Open(t, d, clock)
			replicas := []*store.Store{db.Store, db.OpenAnother(t)}
			owner := storetest.NewOwner(t, db.Store)
			var bots []botpay.Bot
			for range 3 {
				b, _ := storetest.HeldShopper(t, db.Store, owner)
				for range 10 {
					storetest.Hold(t, db.Store, b, 100)
				}
				bots = append(bots, b)
			}
			clock.Advance(botpay.HoldWindow - time.Millisecond)
			if n, err := spendingOf(db.Store).ExpireOverdue(ctx, 100); err != nil || n != 0 {
				t.Fatalf("before the window: expired %d, %v", n, err)
			}
			clock.Advance(time.Millisecond)

			if total := storetest.SweepOnReplicas(t, replicas, func(st *store.Store, ctx context.Context, n int) (int, error) {
				return spendingOf(st).ExpireOverdue(ctx, n)
			}); total != 30 {
				t.Errorf("expired %d purchases in all, want 30", total)
			}
			for _, b := range bots {
				types := storetest.EventTypes(t, db.Store, b.ID)
				n := 0
				for _, ty := range types {
					if ty == botpay.EventPurchaseExpired {
						n++
					}
				}
				if n != 10 {
					t.Errorf("bot %s: %d purchase.expired events, want 10", b.ID, n)
				}
				v, _, err := storetest.Wallets(db.Store).WalletView(ctx, b.ID)
				if err != nil || v.Wallet.Held != 0 || v.Wallet.Balance != 100000 {
					t.Errorf("wallet = %+v, %v; want every hold released", v.Wallet, err)
				}
			}
		})
	}
}

// A purchase both decided by its owner and swept by the expiry worker at
// the deadline ends in exactly one state.
func TestDecisionAndExpiryNeverBothApply(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		b, _ := storetest.HeldShopper(t, st, owner)
		p := storetest.Hold(t, st, b, 500)
		if _, err := spendingOf(st).DecidePurchase(ctx, owner, p.ID, false); err != nil {
			t.Fatal(err)
		}
		if n, err := spendingOf(st).ExpireOverdue(ctx, 10); err != nil || n != 0 {
			t.Errorf("expired %d decided purchases, %v", n, err)
		}
		_, err := spendingOf(st).DecidePurchase(ctx, owner, p.ID, true)
		storetest.WantCode(t, err, botpay.CodeAlreadyDecided)
		v, _, _ := storetest.Wallets(st).WalletView(ctx, b.ID)
		if v.Wallet.Held != 0 || v.Wallet.Balance != 100000 {
			t.Errorf("wallet = %+v, want untouched after a denial", v.Wallet)
		}
	})
}
