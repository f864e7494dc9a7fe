package api_test

import (
	"net/http"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestCheckoutAuthenticatesBeforeAnythingElse: with or without an
// Idempotency-Key, a bad key is 401 whatever the body (malformed, failing
// decoding or failing validation), a good key with a bad body is 400, and
// nothing is written for either.
func TestCheckoutAuthenticatesBeforeAnythingElse(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, _ := claimedBot(t, srv, o)
		valid := map[string]any{"profile_index": 1, "merchant_name": "Shop", "merchant_url": "https://shop.example.com/x",
			"item_name": "Widget", "amount_cents": 100}
		invalid := map[string]any{"profile_index": 0, "merchant_name": "Shop"} // fails decoding
		zero := map[string]any{"profile_index": 1, "merchant_name": "Shop", "merchant_url": "https://shop.example.com/x",
			"item_name": "Widget", "amount_cents": 0} // fails validation
		badKeys := badCredentials(key, o.token)
		bodies := []struct {
			name string
			body any
		}{{"valid body", valid}, {"invalid body", invalid}, {"zero amount", zero}, {"malformed JSON", `{"amount_cents":`}}
		for _, k := range badKeys {
			for _, b := range bodies {
				for _, idem := range []string{"", "idem-1"} {
					t.Run(k.name+"/"+b.name+"/idempotency key "+idem, func(t *testing.T) {
						var kv []string
						if k.header != "" {
							kv = append(kv, "Authorization", k.header)
						}
						if idem != "" {
							kv = append(kv, "Idempotency-Key", idem)
						}
						r := do(t, srv, http.MethodPost, "/api/v1/bot/merchant/checkout", b.body, kv...)
						wantError(t, r, http.StatusUnauthorized, "Authentication required")
					})
				}
			}
		}
		t.Run("valid key/invalid body", func(t *testing.T) {
			wantValidation(t, do(t, srv, http.MethodPost, "/api/v1/bot/merchant/checkout", invalid, auth(key)...), "merchant_url")
		})
		t.Run("valid key/zero amount", func(t *testing.T) {
			wantValidation(t, do(t, srv, http.MethodPost, "/api/v1/bot/merchant/checkout", zero, auth(key)...), "amount_cents")
		})
		t.Run("valid key/malformed JSON", func(t *testing.T) {
			r := do(t, srv, http.MethodPost, "/api/v1/bot/merchant/checkout", `{"amount_cents":`, auth(key)...)
			wantError(t, r, http.StatusBadRequest, "invalid_json")
		})
		t.Run("valid key/valid body reaches the guardrails", func(t *testing.T) {
			r := do(t, srv, http.MethodPost, "/api/v1/bot/merchant/checkout", valid, auth(key)...)
			wantError(t, r, http.StatusForbidden, "card_not_active") // the bot has no card yet
		})
		wantRows(t, srv, "purchases", 0)
	})
}
