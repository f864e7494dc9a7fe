package e2e

import (
	"slices"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/wire"
)

// Real card details of every test card; decoy profiles hand out others.
const (
	realDigits = "4242"
	realMonth  = "12"
	realYear   = "2031"
)

// shopper is a claimed, funded bot with one card whose profile 1 is real and
// profile 2 a decoy, each with a monthly allowance of $500.
type shopper struct {
	claimed
	card *client.Card
}

// shopper sets a bot up to spend. tune, when not nil, changes the default
// guardrails ($100 per transaction, $250 a day, $1,000 a month, owner
// approval above $25) before the card is added.
func (h *harness) shopper(name string, funds client.USD, tune func(*client.Guardrails)) shopper {
	h.t.Helper()
	c := h.claimedBot(name)
	if funds > 0 {
		h.fund(c, funds)
	}
	if tune != nil {
		g, err := c.owner.Guardrails(h.ctx, c.reg.BotID)
		if err != nil {
			h.t.Fatal(err)
		}
		tune(g)
		if _, err := c.owner.SetGuardrails(h.ctx, c.reg.BotID, *g); err != nil {
			h.t.Fatalf("set guardrails: %v", err)
		}
	}
	card, err := c.owner.CreateCard(h.ctx, c.reg.BotID, newCard("Team card"))
	if err != nil {
		h.t.Fatalf("create card: %v", err)
	}
	return shopper{claimed: c, card: card}
}

func newCard(name string) client.NewCard {
	return client.NewCard{CardName: name, MissingDigits: realDigits, ExpiryMonth: realMonth, ExpiryYear: realYear,
		RealProfileIndex: 1, Profiles: []client.NewPaymentProfile{
			{ProfileIndex: 1, AllowanceDuration: client.AllowanceMonth, AllowanceUSD: client.Dollars(500, 0)},
			{ProfileIndex: 2, AllowanceDuration: client.AllowanceMonth, AllowanceUSD: client.Dollars(500, 0)},
		}}
}

// purchase is a checkout on the real profile at a shop that no test blocks.
func purchase(cents int64) client.CheckoutRequest {
	return client.CheckoutRequest{ProfileIndex: 1, MerchantName: "Acme", MerchantURL: "https://shop.acme.com/widgets",
		ItemName: "Widget", AmountCents: cents, Category: wire.Ptr("retail")}
}

// events lists the types of a bot's outbox events.
func (h *harness) events(botID string) []string {
	h.t.Helper()
	evs, err := storetest.OutboxOf(h.srv.Store).Events(h.ctx, botID)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func countOf(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

func wantEvents(t *testing.T, got []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("events %v lack %s", got, w)
		}
	}
}

// available is the bot's available balance as wallet/check reports it.
func (s shopper) available(h *harness) client.USD {
	h.t.Helper()
	w, err := s.bot.WalletCheck(h.ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	return w.BalanceUSD
}
