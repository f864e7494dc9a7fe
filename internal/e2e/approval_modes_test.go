package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

func TestApprovalByCategoryApprovesHoldsAndBlocks(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("categorised", client.Dollars(100, 0), func(g *client.Guardrails) {
			g.ApprovalMode = "auto_approve_by_category"
			g.ApprovedCategories = []string{"saas"}
			g.BlockedCategories = []string{"gambling"}
		})
		buy := func(category string) (*client.Checkout, error) {
			r := purchase(1000)
			r.Category = optText(category)
			return s.bot.Checkout(h.ctx, r)
		}
		if got, err := buy("SaaS"); err != nil || !isTrue(got.Approved) {
			t.Errorf("approved category = %+v, %v; want approved", got, err)
		}
		if got, err := buy("retail"); err != nil || isTrue(got.Approved) || got.Status != client.PurchasePendingConfirmation {
			t.Errorf("other category = %+v, %v; want held", got, err)
		}
		if got, err := buy(""); err != nil || isTrue(got.Approved) {
			t.Errorf("no category = %+v, %v; want held", got, err)
		}
		_, err := buy("gambling")
		wantError(t, err, http.StatusForbidden, client.CodeCardGuardrailViolation)
	})
}

func TestProfileNeedingHumanPermissionIsHeld(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("supervised", client.Dollars(100, 0), nil)
		c := newCard("Supervised")
		c.Profiles[0].HumanPermissionRequired = wire.Ptr(true)
		card, err := s.owner.CreateCard(h.ctx, s.reg.BotID, c)
		if err != nil {
			t.Fatal(err)
		}
		r := purchase(100)
		r.CardID = wire.Ptr(card.CardID)
		if got, err := s.bot.Checkout(h.ctx, r); err != nil || isTrue(got.Approved) {
			t.Errorf("checkout = %+v, %v; want held for the owner", got, err)
		}
	})
}

func TestOwnerManagesCardsAndProcurement(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("managed", client.Dollars(100, 0), nil)
		cards, err := s.owner.Cards(h.ctx, s.reg.BotID)
		if err != nil || len(cards) != 1 || cards[0].CardID != s.card.CardID || len(cards[0].Profiles) != 2 ||
			cards[0].RealProfileIndex != 1 || cards[0].Status != "active" {
			t.Fatalf("cards = %+v, %v", cards, err)
		}
		raw := string(h.wire.answer("GET /api/v1/owner/bots/" + s.reg.BotID + "/cards").body)
		if strings.Contains(raw, "missing_digits") || strings.Contains(raw, "expiry") {
			t.Errorf("the card listing shows digits: %s", raw)
		}
		if _, err := s.owner.SetCardStatus(h.ctx, s.reg.BotID, s.card.CardID, "inactive"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.owner.SetCardStatus(h.ctx, s.reg.BotID, s.card.CardID, "active"); err != nil {
			t.Fatal(err)
		}
		_, err = s.owner.SetCardStatus(h.ctx, s.reg.BotID, s.card.CardID, "lost")
		wantError(t, err, http.StatusBadRequest, client.CodeValidation)
		_, err = s.owner.SetCardStatus(h.ctx, s.reg.BotID, "card_0000000000000000", "inactive")
		wantError(t, err, http.StatusNotFound, client.CodeCardNotFound)
		evs := h.events(s.reg.BotID)
		if countOf(evs, "rails.updated") < 3 {
			t.Errorf("events = %v, want rails.updated for card_created, card_frozen, card_unfrozen", evs)
		}

		p, err := s.owner.SetProcurement(h.ctx, s.reg.BotID, client.Procurement{AllowedDomains: []string{"https://Shop.Acme.com/path"},
			BlockedMerchants: []string{"Evil Corp"}})
		if err != nil || len(p.AllowedDomains) != 1 || p.AllowedDomains[0] != "shop.acme.com" || p.BlockedMerchants[0] != "Evil Corp" {
			t.Fatalf("procurement = %+v, %v", p, err)
		}
		if got, _ := s.owner.Procurement(h.ctx, s.reg.BotID); got.UpdatedAt == nil || len(got.AllowedDomains) != 1 {
			t.Errorf("read back = %+v", got)
		}
		if _, err := s.bot.Checkout(h.ctx, purchase(100)); err != nil {
			t.Errorf("allowed domain refused: %v", err)
		}
		other := purchase(100)
		other.MerchantURL = "https://globex.io"
		_, err = s.bot.Checkout(h.ctx, other)
		wantError(t, err, http.StatusForbidden, client.CodeCardGuardrailViolation)
		evil := purchase(100)
		evil.MerchantName = "evil corp"
		_, err = s.bot.Checkout(h.ctx, evil)
		wantError(t, err, http.StatusForbidden, client.CodeCardGuardrailViolation)

		stranger, _ := h.signup(uniqueEmail("stranger"))
		_, err = stranger.Procurement(h.ctx, s.reg.BotID)
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)
		_, err = stranger.CreateCard(h.ctx, s.reg.BotID, newCard("Sneaky"))
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)
	})
}
