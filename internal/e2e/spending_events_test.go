package e2e

import (
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// The data fields of every spending event, exactly as the API reference (docs/api.md)
// names them.
var spendingEventFields = map[string][]string{
	"wallet.spend.authorized":  {"amount", "currency", "vendor", "description", "remaining_balance"},
	"wallet.spend.declined":    {"amount", "currency", "vendor", "reason"},
	"wallet.balance.low":       {"wallet_id", "current_balance", "currency", "message"},
	"purchase.approved":        {"checkout_id", "amount", "currency", "vendor", "description", "approval_mode"},
	"purchase.rejected":        {"checkout_id", "amount", "currency", "vendor", "reason"},
	"purchase.expired":         {"checkout_id", "amount", "currency", "vendor", "message"},
	"rails.updated":            {"action", "rail", "bot_id", "message"},
	"rail5.card.delivered":     {"card_id", "card_name", "card_last4", "file_content", "suggested_path", "instructions"},
	"rail5.checkout.completed": {"card_id", "amount", "currency", "vendor", "description"},
	"rail5.checkout.failed":    {"card_id", "amount", "currency", "vendor", "reason"},
}

func TestSpendingEventsCarryExactlyTheInterfaceFields(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
		h := start(t, dialect, testserver.Options{Clock: clock})
		s := h.shopper("eventful", client.Dollars(100, 0), nil)
		held := func(cents int64) string {
			got, err := s.bot.Checkout(h.ctx, purchase(cents))
			if err != nil || isTrue(got.Approved) {
				t.Fatalf("checkout of %d = %+v, %v; want held", cents, got, err)
			}
			return got.ConfirmationID
		}
		if _, err := s.bot.Checkout(h.ctx, purchase(2000)); err != nil { // authorized
			t.Fatal(err)
		}
		s.bot.Checkout(h.ctx, purchase(99999)) // declined
		if _, err := s.owner.DenyPurchase(h.ctx, held(3000)); err != nil {
			t.Fatal(err)
		}
		held(3000) // left to expire
		if _, err := s.owner.ApprovePurchase(h.ctx, held(3000)); err != nil {
			t.Fatal(err)
		}
		clock.Advance(16 * time.Minute)
		if n, err := h.srv.App.Spending().ExpireOverdue(h.ctx, 10); err != nil || n != 1 {
			t.Fatalf("expired %d, %v", n, err)
		}
		for range 2 { // $50 → $26 → $2: below the $5 threshold
			if _, err := s.bot.Checkout(h.ctx, purchase(2400)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.owner.CreateRail5Card(h.ctx, s.reg.BotID, newRail5Card()); err != nil {
			t.Fatal(err)
		}
		s.bot.ConfirmRail5Delivery(h.ctx, "")
		for _, ok := range []bool{true, false} {
			chk, err := s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "acme.com", ItemName: "Pen", AmountCents: 100})
			if err != nil {
				t.Fatal(err)
			}
			s.bot.Rail5Key(h.ctx, chk.CheckoutID)
			s.bot.Rail5Complete(h.ctx, chk.CheckoutID, ok, "declined by the shop")
		}

		evs, err := storetest.OutboxOf(h.srv.Store).Events(h.ctx, s.reg.BotID)
		if err != nil {
			t.Fatal(err)
		}
		checkEventFields(t, evs)
	})
}

// checkEventFields: each spending event carries exactly the fields of the
// interface, and every kind was written.
func checkEventFields(t *testing.T, evs []botpay.Event) {
	seen := map[string]bool{}
	for _, e := range evs {
		want, ok := spendingEventFields[e.Type]
		if !ok {
			continue
		}
		seen[e.Type] = true
		var got []string
		for k := range e.Data {
			got = append(got, k)
		}
		sort.Strings(got)
		w := slices.Clone(want)
		sort.Strings(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s data fields = %v, want %v", e.Type, got, w)
		}
		if c, ok := e.Data["currency"]; ok && c != "USD" {
			t.Errorf("%s currency = %v", e.Type, c)
		}
	}
	for typ := range spendingEventFields {
		if !seen[typ] {
			t.Errorf("no %s event was written", typ)
		}
	}
}
