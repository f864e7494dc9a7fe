package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/store/storetest"
)

const (
	testPAN    = "4111111111111111"
	testPANAlt = "4111 1111 1111 1111"
)

func newRail5Card() client.NewRail5Card {
	return client.NewRail5Card{CardName: "Owner's Visa", Number: testPANAlt, CVV: "737", ExpiryMonth: "3", ExpiryYear: "2030",
		HolderName: "Ada Lovelace"}
}

// deliveredFile returns the file_content of the bot's rail5.card.delivered
// event.
func (h *harness) deliveredFile(botID string) (data map[string]any) {
	h.t.Helper()
	evs, err := storetest.OutboxOf(h.srv.Store).Events(h.ctx, botID)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, e := range evs {
		if e.Type == "rail5.card.delivered" {
			data = e.Data
		}
	}
	if data == nil {
		h.t.Fatalf("no rail5.card.delivered event")
	}
	return data
}

func TestRail5CardIsDeliveredEncryptedConfirmedAndSpent(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		s := h.shopper("rail5", client.Dollars(10, 0), func(g *client.Guardrails) {
			g.Limits.DailyUSD = client.Dollars(50, 0)
		})
		card, err := s.owner.CreateRail5Card(h.ctx, s.reg.BotID, newRail5Card())
		if err != nil {
			t.Fatal(err)
		}
		if card.CardLast4 != "1111" || card.Status != "pending_delivery" || card.CardID == "" {
			t.Fatalf("card = %+v", card)
		}
		ev := h.deliveredFile(s.reg.BotID)
		file, _ := ev["file_content"].(string)
		if ev["card_id"] != card.CardID || ev["card_last4"] != "1111" || ev["suggested_path"] == "" || ev["instructions"] == "" ||
			!strings.Contains(file, "AES-256-GCM") || strings.Contains(file, testPAN) {
			t.Fatalf("rail5.card.delivered = %v", ev)
		}

		_, err = s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "acme.com", ItemName: "Pen", AmountCents: 500})
		wantError(t, err, http.StatusForbidden, client.CodeCardNotActive)

		conf, err := s.bot.ConfirmRail5Delivery(h.ctx, "")
		if err != nil || conf.Status != "confirmed" || conf.CardID != card.CardID || conf.CardName != "Owner's Visa" ||
			conf.TestCheckoutURL == "" || conf.Message == "" {
			t.Fatalf("confirm = %+v, %v", conf, err)
		}
		_, err = s.bot.ConfirmRail5Delivery(h.ctx, "")
		wantError(t, err, http.StatusConflict, client.CodeInvalidCardStatus)
		if f, _ := h.deliveredFile(s.reg.BotID)["file_content"].(string); strings.Contains(f, "AES-256-GCM") {
			t.Errorf("the service kept the card file after confirmation: %q", f)
		}

		// The wallet holds $10 only: rail5 spends charge the owner's card,
		// not the wallet.
		chk, err := s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "https://acme.com",
			ItemName: "Pen", AmountCents: 2000})
		if err != nil || chk.Status != "approved" || chk.CardID != card.CardID || textOf(chk.Key) != "" {
			t.Fatalf("rail5 checkout = %+v, %v", chk, err)
		}
		_, err = s.bot.Rail5Complete(h.ctx, chk.CheckoutID, true, "")
		wantError(t, err, http.StatusConflict, client.CodeInvalidCheckoutStatus)
		key, err := s.bot.Rail5Key(h.ctx, chk.CheckoutID)
		if err != nil || textOf(key.Key) == "" || key.Status != "key_released" {
			t.Fatalf("key = %+v, %v", key, err)
		}
		details, err := client.DecryptCardFile(textOf(key.Key), file)
		if err != nil || details.Number != testPAN || details.CVV != "737" || details.ExpiryMonth != "03" || details.HolderName != "Ada Lovelace" {
			t.Fatalf("decrypted = %+v, %v", details, err)
		}
		_, err = s.bot.Rail5Key(h.ctx, chk.CheckoutID)
		wantError(t, err, http.StatusConflict, client.CodeKeyAlreadyReleased)
		done, err := s.bot.Rail5Complete(h.ctx, chk.CheckoutID, true, "")
		if err != nil || done.Status != "completed" {
			t.Fatalf("complete = %+v, %v", done, err)
		}
		wantEvents(t, h.events(s.reg.BotID), "rail5.checkout.completed")
		if s.available(h) != client.Dollars(10, 0) {
			t.Errorf("a rail5 spend moved wallet money")
		}

		// Rail5 spends count against the daily budget ($20 of $50 used).
		_, err = s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "acme.com", ItemName: "Desk", AmountCents: 2400})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "acme.com", ItemName: "Lamp", AmountCents: 700})
		wantError(t, err, http.StatusForbidden, client.CodeCardGuardrailViolation)
		// Above the $25 approval threshold rail5 cannot wait for the owner.
		_, err = s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "acme.com", ItemName: "Chair", AmountCents: 2600})
		wantError(t, err, http.StatusForbidden, client.CodeCardGuardrailViolation) // daily budget comes first
	})
}

func TestRail5FailedCheckoutIsReportedAndConfirmWithoutCardIsNotFound(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		s := h.shopper("rail5-fail", 0, nil)
		_, err := s.bot.ConfirmRail5Delivery(h.ctx, "")
		wantError(t, err, http.StatusNotFound, client.CodeCardNotFound)
		if _, err := s.owner.CreateRail5Card(h.ctx, s.reg.BotID, newRail5Card()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.bot.ConfirmRail5Delivery(h.ctx, ""); err != nil {
			t.Fatal(err)
		}
		_, err = s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "acme.com", ItemName: "Sofa", AmountCents: 3000})
		wantError(t, err, http.StatusForbidden, client.CodeApprovalRequired)
		chk, err := s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "acme.com", ItemName: "Pen", AmountCents: 300})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.bot.Rail5Key(h.ctx, chk.CheckoutID); err != nil {
			t.Fatal(err)
		}
		_, err = s.bot.Rail5Complete(h.ctx, chk.CheckoutID, false, "")
		wantError(t, err, http.StatusBadRequest, client.CodeValidation)
		done, err := s.bot.Rail5Complete(h.ctx, chk.CheckoutID, false, "card declined")
		if err != nil || done.Status != "failed" {
			t.Fatalf("complete = %+v, %v", done, err)
		}
		wantEvents(t, h.events(s.reg.BotID), "rail5.checkout.failed")
	})
}
