package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/wire"
)

// checkoutSetup prepares the shopper and returns the checkout to send.
type checkoutSetup func(t *testing.T, h *harness, s shopper) client.CheckoutRequest

// checkoutErrorCase is one refusal checkout can answer.
type checkoutErrorCase struct {
	name     string
	setup    checkoutSetup
	status   int
	code     string
	declined bool // a guardrail refusal writes wallet.spend.declined
}

// plainPurchase sends purchase(cents) with nothing else set up.
func plainPurchase(cents int64) checkoutSetup {
	return func(*testing.T, *harness, shopper) client.CheckoutRequest { return purchase(cents) }
}

// checkoutRequestErrors are refusals of the request, the card or the wallet.
func checkoutRequestErrors() []checkoutErrorCase {
	return []checkoutErrorCase{
		{"validation_error for a missing merchant", func(*testing.T, *harness, shopper) client.CheckoutRequest {
			r := purchase(100)
			r.MerchantName = ""
			return r
		}, 400, client.CodeValidation, false},
		{"validation_error for a zero amount", plainPurchase(0), 400, client.CodeValidation, false},
		{"card_id_required with two active cards", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			if _, err := s.owner.CreateCard(h.ctx, s.reg.BotID, newCard("Second")); err != nil {
				t.Fatal(err)
			}
			return purchase(100)
		}, 400, client.CodeCardIDRequired, false},
		{"invalid_profile for a profile the card lacks", func(*testing.T, *harness, shopper) client.CheckoutRequest {
			r := purchase(100)
			r.ProfileIndex = 7
			return r
		}, 400, client.CodeInvalidProfile, false},
		{"insufficient_funds over the available balance", plainPurchase(5100), 402, client.CodeInsufficientFunds, true},
		{"wallet_frozen", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			if _, err := s.owner.Freeze(h.ctx, s.reg.BotID, true); err != nil {
				t.Fatal(err)
			}
			return purchase(100)
		}, 403, client.CodeWalletFrozen, false},
		{"card_not_active for an inactive card", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			if _, err := s.owner.SetCardStatus(h.ctx, s.reg.BotID, s.card.CardID, "inactive"); err != nil {
				t.Fatal(err)
			}
			return purchase(100)
		}, 403, client.CodeCardNotActive, false},
		{"card_not_active for a named inactive card", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			if _, err := s.owner.SetCardStatus(h.ctx, s.reg.BotID, s.card.CardID, "inactive"); err != nil {
				t.Fatal(err)
			}
			r := purchase(100)
			r.CardID = wire.Ptr(s.card.CardID)
			return r
		}, 403, client.CodeCardNotActive, false},
		{"card_not_found for an unknown card_id", func(*testing.T, *harness, shopper) client.CheckoutRequest {
			r := purchase(100)
			r.CardID = wire.Ptr("card_0000000000000000")
			return r
		}, 404, client.CodeCardNotFound, false},
		{"card_not_found for another bot's card", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			other := h.shopper("other", 0, nil)
			r := purchase(100)
			r.CardID = wire.Ptr(other.card.CardID)
			return r
		}, 404, client.CodeCardNotFound, false},
		{"not_found for an unknown task", func(*testing.T, *harness, shopper) client.CheckoutRequest {
			r := purchase(100)
			r.TaskID = wire.Ptr("task_0000000000000000")
			return r
		}, 404, client.CodeNotFound, false},
	}
}

// checkoutGuardrailErrors are refusals by a guardrail (each writes
// wallet.spend.declined).
func checkoutGuardrailErrors() []checkoutErrorCase {
	return []checkoutErrorCase{
		{"card_guardrail_violation over the per-transaction limit", plainPurchase(10100), 403, client.CodeCardGuardrailViolation, true},
		{"card_guardrail_violation over the card's own limit", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			c := newCard("Tight")
			c.Limits = &client.NewCardLimits{PerTransactionUSD: usd(500)}
			card, err := s.owner.CreateCard(h.ctx, s.reg.BotID, c)
			if err != nil {
				t.Fatal(err)
			}
			r := purchase(600)
			r.CardID = wire.Ptr(card.CardID)
			return r
		}, 403, client.CodeCardGuardrailViolation, true},
		{"card_guardrail_violation for a blocked domain", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			if _, err := s.owner.SetProcurement(h.ctx, s.reg.BotID, client.Procurement{BlockedDomains: []string{"acme.com"}}); err != nil {
				t.Fatal(err)
			}
			return purchase(100)
		}, 403, client.CodeCardGuardrailViolation, true},
		{"allowance_exceeded on the profile's window", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			c := newCard("Small allowance")
			c.Profiles[0].AllowanceUSD = 1000
			c.Profiles[0].AllowanceDuration = client.AllowanceWeek
			card, err := s.owner.CreateCard(h.ctx, s.reg.BotID, c)
			if err != nil {
				t.Fatal(err)
			}
			r := purchase(1500)
			r.CardID = wire.Ptr(card.CardID)
			return r
		}, 403, client.CodeAllowanceExceeded, true},
		{"master_budget_exceeded", func(t *testing.T, h *harness, s shopper) client.CheckoutRequest {
			if _, err := s.owner.SetMasterGuardrails(h.ctx, client.MasterGuardrails{DailyBudgetUSD: usd(1000)}); err != nil {
				t.Fatal(err)
			}
			return purchase(1500)
		}, 403, client.CodeMasterBudgetExceeded, true},
	}
}

// TestCheckoutAnswersEveryErrorCodeOfTheInterface covers every code of
// the API reference (docs/api.md) that checkout can answer (the
// authentication error included), each with its exact status.
func TestCheckoutAnswersEveryErrorCodeOfTheInterface(t *testing.T) {
	cases := append(checkoutRequestErrors(), checkoutGuardrailErrors()...)
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				h := h.fork(t)
				s := h.shopper("errors", client.Dollars(50, 0), nil)
				_, err := s.bot.Checkout(h.ctx, tc.setup(t, h, s))
				e := wantError(t, err, tc.status, tc.code)
				if e.Message == "" {
					t.Errorf("%s has no message", tc.code)
				}
				if got := countOf(h.events(s.reg.BotID), "wallet.spend.declined"); got != map[bool]int{true: 1}[tc.declined] {
					t.Errorf("wallet.spend.declined written %d times, want %v", got, tc.declined)
				}
				if s.available(h) != client.Dollars(50, 0) {
					t.Errorf("a refused checkout moved money: available %s", s.available(h))
				}
			})
		}

		t.Run("wallet_not_active before the claim", func(t *testing.T) {
			h := h.fork(t)
			bot, _ := h.register(client.RegisterRequest{BotName: "unclaimed", OwnerEmail: uniqueEmail("unclaimed")})
			_, err := bot.Checkout(h.ctx, purchase(100))
			wantError(t, err, http.StatusForbidden, client.CodeWalletNotActive)
		})
		t.Run("card_not_active without any card", func(t *testing.T) {
			h := h.fork(t)
			c := h.claimedBot("cardless")
			h.fund(c, 1000)
			_, err := c.bot.Checkout(h.ctx, purchase(100))
			wantError(t, err, http.StatusForbidden, client.CodeCardNotActive)
		})
		t.Run("invalid_json", func(t *testing.T) {
			h := h.fork(t)
			s := h.shopper("raw", 0, nil)
			req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/api/v1/bot/merchant/checkout", strings.NewReader(`{"amount_cents":`))
			req.Header.Set("Authorization", "Bearer "+s.reg.APIKey)
			resp, err := h.srv.HTTP.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var e struct{ Error string }
			json.Unmarshal(body, &e)
			if resp.StatusCode != http.StatusBadRequest || e.Error != client.CodeInvalidJSON {
				t.Errorf("HTTP %d %s, want 400 invalid_json", resp.StatusCode, body)
			}
		})
		t.Run("Authentication required without a key", func(t *testing.T) {
			h := h.fork(t)
			_, err := h.bots.Checkout(h.ctx, purchase(100))
			wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
		})
		t.Run("rate_limited after 30 checkouts in an hour", func(t *testing.T) {
			h := h.fork(t)
			s := h.shopper("hasty", client.Dollars(50, 0), nil)
			decoy := purchase(100)
			decoy.ProfileIndex = 2
			for i := range 30 {
				if _, err := s.bot.Checkout(h.ctx, decoy); err != nil {
					t.Fatalf("checkout %d: %v", i+1, err)
				}
			}
			_, err := s.bot.Checkout(h.ctx, decoy)
			e := wantError(t, err, http.StatusTooManyRequests, client.CodeRateLimited)
			if e.RetryAfterSeconds < 1 || e.RetryAfterSeconds > 3600 {
				t.Errorf("retry_after_seconds = %d", e.RetryAfterSeconds)
			}
		})
	})
}
