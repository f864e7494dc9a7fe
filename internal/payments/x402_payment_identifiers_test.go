package payments_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// A payment identifier binds to the first authorization claimed with it on
// its route: racing claims of two authorizations with one id (from two
// replicas) let exactly one through; the id is free again once that claim
// is released, and another route may use it at any time.
func TestPaymentIdentifierBindsOneAuthorizationPerRoute(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st, other := db.Store, db.OpenAnother(t)
		page := storetest.Page(t, st, storetest.ClaimedBot(t, st, storetest.NewOwner(t, st)).ID, storetest.Cents(1999))
		claim := func(st *store.Store, route string, nonce int) (int64, error) {
			return paymentsOf(st).ClaimX402Payment(ctx, payments.X402Payment{Payer: "0x00000000000000000000000000000000000000aa",
				Nonce: fmt.Sprintf("0x%064x", nonce), PageID: page.ID, Amount: 19_990_000, Route: route, PaymentID: "order-0000000000000001"})
		}
		ids := make([]int64, 2)
		wins, refusals := raceReplicas(t, []*store.Store{st, other}, payments.ErrPaymentIdentifierTaken, func(i int, replica *store.Store) error {
			var err error
			for range 3 { // the loser of the primary key sees the winner's row when it claims again
				if ids[i], err = claim(replica, page.ID, i+1); !errors.Is(err, store.ErrUnique) {
					return err
				}
			}
			return err
		})
		if wins != 1 || refusals != 1 {
			t.Fatalf("%d claims won and %d were refused, want 1 and 1", wins, refusals)
		}
		winner := ids[0] + ids[1] // the loser's id is 0
		bound, ok, err := paymentsOf(st).X402PaymentByIdentifier(ctx, page.ID, "order-0000000000000001")
		if err != nil || !ok || bound.ID != winner {
			t.Fatalf("bound to %+v (%v, %v), want claim %d", bound, ok, err, winner)
		}
		if _, err := claim(st, page.ID+"?ref=INV-2026-000001", 3); err != nil {
			t.Fatalf("the same id on another route: %v", err)
		}
		if err := paymentsOf(st).ReleaseX402Payment(ctx, winner); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := paymentsOf(st).X402PaymentByIdentifier(ctx, page.ID, "order-0000000000000001"); ok {
			t.Fatal("the id is still bound after its claim was released")
		}
		if _, err := claim(st, page.ID, 4); err != nil {
			t.Fatalf("a new authorization after the release: %v", err)
		}
	})
}
