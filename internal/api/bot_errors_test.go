package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// botEndpoints are every authenticated bot route with a body that would be
// accepted from a claimed bot.
var botEndpoints = []struct {
	method, path string
	body         any
}{
	{http.MethodGet, "/api/v1/bot/status", nil},
	{http.MethodGet, "/api/v1/bot/wallet/check", nil},
	{http.MethodGet, "/api/v1/bot/wallet/transactions", nil},
	{http.MethodPost, "/api/v1/bot/wallet/topup-request", map[string]any{"amount_usd": 5}},
	{http.MethodGet, "/api/v1/bot/wallet/spending", nil},
	{http.MethodPatch, "/api/v1/bot/profile", map[string]any{"callback_url": "https://bot.example.com/new"}},
}

// badCredentials are Authorization headers that must not authenticate a
// bot, made from a real bot key and a real owner token.
func badCredentials(key, ownerToken string) []struct{ name, header string } {
	hex48 := strings.Repeat("0123456789abcdef", 3)
	return []struct{ name, header string }{
		{"no Authorization header", ""},
		{"empty bearer", "Bearer "},
		{"basic scheme", "Basic " + key},
		{"key without scheme", key},
		{"wrong prefix", "Bearer sk_live_" + hex48},
		{"owner token instead of API key", "Bearer " + ownerToken},
		{"too short", "Bearer bp_live_abc123"},
		{"too long", "Bearer " + key + "0"},
		{"upper-case hex", "Bearer " + key[:8] + strings.ToUpper(key[8:])},
		{"non-hex characters", "Bearer bp_live_" + strings.Repeat("z", 48)},
		{"well-formed but unknown", "Bearer bp_live_" + hex48},
	}
}

// TestBotEndpointsRequireAValidKey: a missing, malformed or unknown key is
// 401 "Authentication required" on every bot endpoint (docs/api.md,
// docs/decisions.md), and nothing runs.
func TestBotEndpointsRequireAValidKey(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, _ := claimedBot(t, srv, o)
		creds := badCredentials(key, o.token)
		for _, e := range botEndpoints {
			for _, c := range creds {
				t.Run(e.method+" "+e.path+"/"+c.name, func(t *testing.T) {
					var kv []string
					if c.header != "" {
						kv = []string{"Authorization", c.header}
					}
					r := do(t, srv, e.method, e.path, e.body, kv...)
					wantError(t, r, http.StatusUnauthorized, "Authentication required")
				})
			}
			t.Run(e.method+" "+e.path+"/valid key", func(t *testing.T) {
				r := do(t, srv, e.method, e.path, e.body, "Authorization", "bearer "+key)
				wantStatus(t, r, http.StatusOK)
			})
		}
		wantRows(t, srv, "topup_requests", 1) // only the valid call
	})
}

// TestUnclaimedBotGetsWalletNotActive: transactions, spending and top-up
// requests need a claimed bot (docs/api.md).
func TestUnclaimedBotGetsWalletNotActive(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		reg := register(t, srv, botBody("owner@example.com"))
		key := reg.str("api_key")
		for _, e := range []struct {
			method, path string
			body         any
		}{
			{http.MethodGet, "/api/v1/bot/wallet/transactions", nil},
			{http.MethodGet, "/api/v1/bot/wallet/transactions?limit=10", nil},
			{http.MethodGet, "/api/v1/bot/wallet/spending", nil},
			{http.MethodPost, "/api/v1/bot/wallet/topup-request", map[string]any{"amount_usd": 5, "reason": "paper"}},
		} {
			t.Run(e.method+" "+e.path, func(t *testing.T) {
				wantError(t, do(t, srv, e.method, e.path, e.body, auth(key)...), http.StatusForbidden, "wallet_not_active")
			})
		}
		wantRows(t, srv, "topup_requests", 0)
		// The bot itself is known: status and wallet/check answer 200.
		r := do(t, srv, http.MethodGet, "/api/v1/bot/wallet/check", nil, auth(key)...)
		wantStatus(t, r, http.StatusOK)
		if r.str("wallet_status") != "pending" {
			t.Errorf("wallet/check of an unclaimed bot: %s", r)
		}
	})
}

// TestTopupRequestRejectsBadBodies: 400 invalid_json and validation_error
// with details (docs/api.md), from a claimed bot, writing nothing.
func TestTopupRequestRejectsBadBodies(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		body  any
		code  string
		field string
	}{
		{"amount 0", map[string]any{"amount_usd": 0}, "validation_error", "amount_usd"},
		{"amount rounds to 0 cents", map[string]any{"amount_usd": 0.004}, "validation_error", "amount_usd"},
		{"negative amount", map[string]any{"amount_usd": -5}, "validation_error", "amount_usd"},
		{"amount as a string", map[string]any{"amount_usd": "5"}, "validation_error", "amount_usd"},
		{"amount as a boolean", map[string]any{"amount_usd": true}, "validation_error", "amount_usd"},
		{"amount missing", map[string]any{"reason": "paper"}, "validation_error", "amount_usd"},
		{"amount null", map[string]any{"amount_usd": nil}, "validation_error", "amount_usd"},
		{"amount absurdly large", `{"amount_usd": 1e30}`, "validation_error", "amount_usd"},
		{"reason not a string", map[string]any{"amount_usd": 5, "reason": 12}, "validation_error", "reason"},
		{"reason with a control character", map[string]any{"amount_usd": 5, "reason": "a\x07b"}, "validation_error", "reason"},
		{"malformed JSON", `{"amount_usd": 5`, "invalid_json", ""},
		{"empty body", "", "invalid_json", ""},
		{"array body", `[5]`, "invalid_json", ""},
		{"trailing garbage", `{"amount_usd": 5} 5`, "invalid_json", ""},
	}
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		key, _ := claimedBot(t, srv, signup(t, srv))
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := do(t, srv, http.MethodPost, "/api/v1/bot/wallet/topup-request", c.body, auth(key)...)
				if c.code == "validation_error" {
					wantValidation(t, r, c.field)
				} else {
					wantError(t, r, http.StatusBadRequest, c.code)
				}
			})
		}
		wantRows(t, srv, "topup_requests", 0)
		r := do(t, srv, http.MethodPost, "/api/v1/bot/wallet/topup-request", map[string]any{"amount_usd": 0.005}, auth(key)...)
		wantStatus(t, r, http.StatusOK)
		if r.body["amount_usd"] != 0.01 {
			t.Errorf("0.005 dollars should round to 0.01: %s", r)
		}
	})
}

// TestTransactionsLimitOutOfRange: limit outside 1-100 is 400
// validation_error, not clamped (docs/api.md, docs/decisions.md).
func TestTransactionsLimitOutOfRange(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		key, _ := claimedBot(t, srv, signup(t, srv))
		for _, limit := range []string{"0", "101", "abc", "-1", "1.5", "1e2"} {
			t.Run("limit="+limit, func(t *testing.T) {
				r := do(t, srv, http.MethodGet, "/api/v1/bot/wallet/transactions?limit="+limit, nil, auth(key)...)
				wantValidation(t, r, "limit")
			})
		}
		for _, limit := range []string{"1", "100"} {
			t.Run("limit="+limit+" is accepted", func(t *testing.T) {
				r := do(t, srv, http.MethodGet, "/api/v1/bot/wallet/transactions?limit="+limit, nil, auth(key)...)
				wantStatus(t, r, http.StatusOK)
				if _, ok := r.body["transactions"].([]any); !ok {
					t.Errorf("no transactions array: %s", r)
				}
			})
		}
	})
}
