package spending_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// The checkout rate limit is a rolling window over every checkout of the
// bot: card-wallet and rail5 ones, approved, held and declined alike. A bot
// at the limit waits until its limit-th most recent checkout leaves the
// window, and is told how long that is.
func TestCheckoutRateLimitRollsOverCardAndRail5Checkouts(t *testing.T) {
	t.Parallel()
	limit := struct {
		Max    int
		Window time.Duration
	}{Max: 3, Window: time.Hour}
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
		clock := botpay.NewManualClock(start)
		db := storetest.Open(t, d, clock)
		st := db.Store
		owner := storetest.NewOwner(t, st)
		b, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) {
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
		limited := spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Signing: storetest.HeldSigning(st),
			CheckoutsPerHour: limit.Max})
		rail5 := func(amount botpay.Money) error {
			cents := int(amount)
			_, err := limited.Rail5Checkout(ctx, b, spending.Rail5CheckoutInput{ItemName: "thing", AmountCents: &cents,
				MerchantName: "Acme", MerchantURL: "acme.com"})
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
			storetest.WantCode(t, err, s.wantCode)
			if e := botpay.AsError(err); s.wantRetry != 0 && e.RetryAfterSeconds != s.wantRetry {
				t.Fatalf("%s: retry after %d s, want %d", s.name, e.RetryAfterSeconds, s.wantRetry)
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
