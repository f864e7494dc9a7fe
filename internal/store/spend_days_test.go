package store_test

import (
	"errors"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// A transaction that fails half-way on PostgreSQL (driven by hand on its
// connection) is rolled back and its connection goes back to the pool idle:
// every later write commits and is visible to another connection.
func TestFailedTransactionsLeaveNoConnectionInsideOne(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		c := botpay.Card{ID: botpay.NewID("card_"), BotID: b.ID, Name: "card", Status: botpay.CardActive, RealProfileIndex: 1,
			Profiles:  []botpay.PaymentProfile{{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: 100}},
			CreatedAt: st.Clock().Now()}
		if err := spendingOf(st).AddCard(ctx, owner.ID, c, map[int][]byte{1: []byte("sealed")}); err != nil {
			t.Fatal(err)
		}
		for i := range 20 { // more than the pool's connections
			if err := spendingOf(st).AddCard(ctx, owner.ID, c, map[int][]byte{1: []byte("sealed")}); !errors.Is(err, store.ErrUnique) {
				t.Fatalf("duplicate card %d: err = %v, want ErrUnique", i, err)
			}
			if _, err := storetest.Wallets(st).Fund(ctx, owner, b.ID, 1, ""); err != nil {
				t.Fatalf("fund %d after a failed transaction: %v", i, err)
			}
		}
		w, ok, err := storetest.Wallets(db.OpenAnother(t)).WalletView(ctx, b.ID)
		if err != nil || !ok {
			t.Fatalf("wallet: %v, %v", ok, err)
		}
		if w.Wallet.Balance != 20 {
			t.Fatalf("balance seen by another connection = %d cents, want 20 (every fund committed)", w.Wallet.Balance)
		}
	})
}
