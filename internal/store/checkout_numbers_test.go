package store_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Migration 0008 numbers the checkouts a database already has: each bot's
// card and rail5 checkouts 1, 2, 3… in time order, the wallet keeping the
// last number, and the next checkout takes the number after it.
func TestMigration0008NumbersExistingCheckoutsInTimeOrder(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
		clock := botpay.NewManualClock(start)
		st := storetest.Open(t, d, clock).Store
		owner := storetest.NewOwner(t, st)
		var bots []botpay.Bot
		for range 2 {
			b, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) { g.ApprovalMode = botpay.ApprovalUnderThreshold })
			confirmedRail5Card(t, st, owner, b)
			bots = append(bots, b)
		}
		checkout := func(b botpay.Bot, i int) {
			clock.Advance(time.Second)
			req := botpay.CheckoutRequest{Amount: 100, MerchantName: "Acme", MerchantURL: "acme.com"}
			var err error
			if i%3 == 2 {
				cents := int(req.Amount)
				_, err = spendingOf(st).Rail5Checkout(ctx, b, spending.Rail5CheckoutInput{ItemName: "thing", AmountCents: &cents,
					MerchantName: req.MerchantName, MerchantURL: req.MerchantURL})
			} else {
				_, err = spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing", Request: req})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		for i := range 7 { // the two bots' checkouts interleave in time
			checkout(bots[0], i)
			checkout(bots[1], i)
		}
		if err := st.RenumberCheckoutsAsMigration0008(ctx); err != nil {
			t.Fatalf("backfill: %v", err)
		}
		checkout(bots[0], 0)
		for i, b := range bots {
			numbers, times, last, err := st.CheckoutNumbers(ctx, b.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := 7 + 1 - i // the first bot checked out once more after the backfill
			if len(numbers) != want || last != int64(want) {
				t.Fatalf("bot %d: numbers %v, last %d; want 1..%d", i, numbers, last, want)
			}
			for j, n := range numbers {
				if n != int64(j+1) || (j > 0 && times[j] <= times[j-1]) {
					t.Fatalf("bot %d: numbers %v at %v; want 1..%d in time order", i, numbers, times, want)
				}
			}
		}
	})
}

// confirmedRail5Card gives the bot a rail5 card whose delivery it confirmed.
func confirmedRail5Card(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot) {
	t.Helper()
	now := st.Clock().Now()
	r5 := botpay.Rail5Card{ID: botpay.NewID("r5card_"), BotID: b.ID, OwnerID: owner.ID, Name: "r5", Last4: "4242",
		Status: botpay.Rail5PendingDelivery, CreatedAt: now}
	if err := spendingOf(st).AddRail5Card(ctx, r5, []byte("sealed key"),
		botpay.NewEvent(b.ID, botpay.Rail5CardDeliveredData{CardID: r5.ID}, now)); err != nil {
		t.Fatal(err)
	}
	if _, err := spendingOf(st).ConfirmRail5Delivery(ctx, b, r5.ID); err != nil {
		t.Fatal(err)
	}
}
