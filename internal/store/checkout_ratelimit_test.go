package store_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// The checkout rate limit is a rolling window over every checkout of the
// bot: card-wallet and rail5 ones, approved, held and declined alike. A bot
// at the limit waits until its limit-th most recent checkout leaves the
// window, and is told how long that is.
func TestCheckoutRateLimitRollsOverCardAndRail5Checkouts(t *testing.T) {
	t.Parallel()
	limit := store.Limit{Bucket: "checkout", Max: 3, Window: time.Hour}
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
		clock := botpay.NewManualClock(start)
		db := storetest.Open(t, d, clock)
		st := db.Store
		owner := newOwner(t, st)
		b, _ := shopper(t, st, owner, func(g *botpay.Guardrails) {
			g.ApprovalMode = botpay.ApprovalUnderThreshold
			above := botpay.Money(5000)
			g.AskApprovalAbove = &above
			g.PerTransaction = 10000
		})
		confirmedRail5Card(t, st, owner, b)
		card := func(amount botpay.Money) error {
			_, err := spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing", PerWindow: limit.Max, Window: limit.Window,
				Request: botpay.CheckoutRequest{Amount: amount, MerchantName: "Acme", MerchantURL: "acme.com"}})
			return err
		}
		rail5 := func(amount botpay.Money) error {
			_, err := st.Rail5Checkout(ctx, store.Rail5CheckoutInput{BotID: b.ID, Item: "thing", Limit: limit,
				Request: botpay.CheckoutRequest{Amount: amount, MerchantName: "Acme", MerchantURL: "acme.com"}})
			return err
		}
		steps := []struct {
			at        time.Duration // since start
			name      string
			do        func() error
			wantCode  string // "" for admitted
			wantRetry int    // seconds, when limited
		}{
			{0, "approved card checkout", func() error { return card(100) }, "", 0},
			{10 * time.Minute, "held card checkout", func() error { return card(6000) }, "", 0},
			{20 * time.Minute, "declined card checkout counts", func() error { return card(20000) },
				botpay.CodeCardGuardrailViolation, 0},
			{30 * time.Minute, "fourth in the hour", func() error { return card(100) }, botpay.CodeRateLimited, 30 * 60},
			{30 * time.Minute, "rail5 shares the limit", func() error { return rail5(100) }, botpay.CodeRateLimited, 30 * 60},
			{60*time.Minute + time.Millisecond, "first one left the window", func() error { return rail5(100) }, "", 0},
			{61 * time.Minute, "limited until the held one leaves", func() error { return card(100) }, botpay.CodeRateLimited, 9 * 60},
			{70*time.Minute + time.Second, "held one left", func() error { return card(100) }, "", 0},
			{71 * time.Minute, "limited again", func() error { return card(100) }, botpay.CodeRateLimited, 9 * 60},
		}
		for _, s := range steps {
			clock.Advance(start.Add(s.at).Sub(clock.Now()))
			err := s.do()
			if s.wantCode == "" {
				if err != nil {
					t.Fatalf("%s: %v, want admitted", s.name, err)
				}
				continue
			}
			wantCode(t, err, s.wantCode)
			if e := botpay.AsError(err); s.wantRetry != 0 && e.RetryAfterSeconds != s.wantRetry {
				t.Fatalf("%s: retry after %d s, want %d", s.name, e.RetryAfterSeconds, s.wantRetry)
			}
		}
	})
}

// Migration 0008 numbers the checkouts a database already has: each bot's
// card and rail5 checkouts 1, 2, 3… in time order, the wallet keeping the
// last number, and the next checkout takes the number after it.
func TestMigration0008NumbersExistingCheckoutsInTimeOrder(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
		clock := botpay.NewManualClock(start)
		st := storetest.Open(t, d, clock).Store
		owner := newOwner(t, st)
		var bots []botpay.Bot
		for range 2 {
			b, _ := shopper(t, st, owner, func(g *botpay.Guardrails) { g.ApprovalMode = botpay.ApprovalUnderThreshold })
			confirmedRail5Card(t, st, owner, b)
			bots = append(bots, b)
		}
		checkout := func(b botpay.Bot, i int) {
			clock.Advance(time.Second)
			req := botpay.CheckoutRequest{Amount: 100, MerchantName: "Acme", MerchantURL: "acme.com"}
			var err error
			if i%3 == 2 {
				_, err = st.Rail5Checkout(ctx, store.Rail5CheckoutInput{BotID: b.ID, Item: "thing", Request: req})
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
	if err := st.CreateRail5Card(ctx, r5, []byte("sealed key"),
		botpay.NewEvent(b.ID, botpay.Rail5CardDeliveredData{CardID: r5.ID}, now)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ConfirmRail5Delivery(ctx, b.ID, r5.ID); err != nil {
		t.Fatal(err)
	}
}
