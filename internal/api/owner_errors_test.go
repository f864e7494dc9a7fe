package api_test

import (
	"bytes"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestOwnerAccountErrors covers signup and login (docs/decisions.md,
// "Passwords" and "Login throttling without lockout").
func TestOwnerAccountErrors(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		post := func(path string, body any) response { return do(t, srv, http.MethodPost, path, body) }

		t.Run("signup password of 11 characters", func(t *testing.T) {
			r := post("/api/v1/owner/signup", map[string]any{"email": "short@example.com", "password": "elevenchars"})
			wantValidation(t, r, "password")
		})
		t.Run("signup with a bad e-mail", func(t *testing.T) {
			wantValidation(t, post("/api/v1/owner/signup", map[string]any{"email": "nobody", "password": testPassword}), "email")
		})
		t.Run("signup with nothing names both fields", func(t *testing.T) {
			r := post("/api/v1/owner/signup", map[string]any{})
			wantValidation(t, r, "email")
			wantValidation(t, r, "password")
		})
		t.Run("signup with wrong types", func(t *testing.T) {
			r := post("/api/v1/owner/signup", map[string]any{"email": 1, "password": []any{testPassword}})
			wantValidation(t, r, "email")
			wantValidation(t, r, "password")
		})
		t.Run("signup with malformed JSON", func(t *testing.T) {
			wantError(t, post("/api/v1/owner/signup", `{"email":`), http.StatusBadRequest, "invalid_json")
		})
		t.Run("signup with a taken e-mail in another case", func(t *testing.T) {
			r := post("/api/v1/owner/signup", map[string]any{"email": strings.ToUpper(o.email), "password": testPassword})
			wantError(t, r, http.StatusConflict, "email_taken")
		})
		t.Run("login with a wrong password", func(t *testing.T) {
			r := post("/api/v1/owner/login", map[string]any{"email": o.email, "password": testPassword + "!"})
			wantError(t, r, http.StatusUnauthorized, "invalid_credentials")
		})
		t.Run("login with an unknown e-mail", func(t *testing.T) {
			r := post("/api/v1/owner/login", map[string]any{"email": "ghost@example.com", "password": testPassword})
			wantError(t, r, http.StatusUnauthorized, "invalid_credentials")
		})
		t.Run("login with malformed JSON", func(t *testing.T) {
			wantError(t, post("/api/v1/owner/login", `[]`), http.StatusBadRequest, "invalid_json")
		})
		t.Run("login succeeds with the e-mail in another case", func(t *testing.T) {
			r := post("/api/v1/owner/login", map[string]any{"email": strings.ToUpper(o.email), "password": testPassword})
			wantStatus(t, r, http.StatusOK)
		})
		t.Run("owner routes without a token", func(t *testing.T) {
			for _, tok := range []string{"", "bpo_live_" + strings.Repeat("a", 48), o.token + "x"} {
				r := do(t, srv, http.MethodGet, "/api/v1/bots/mine", nil, auth(tok)...)
				wantError(t, r, http.StatusUnauthorized, "Authentication required")
			}
		})
		wantRows(t, srv, "owners", 1)
	})
}

// TestOwnerCannotTouchAnotherOwnersBot: every bot route of the owner API
// answers another owner's bot exactly as it answers a missing one (docs/decisions.md),
// and changes nothing.
func TestOwnerCannotTouchAnotherOwnersBot(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		alice, mallory := signup(t, srv), signup(t, srv)
		key, botID := claimedBot(t, srv, alice)
		routes := []struct {
			method, path string
			body         any
		}{
			{http.MethodPost, "/fund", map[string]any{"amount_usd": 10}},
			{http.MethodPost, "/freeze", map[string]any{"frozen": true}},
			{http.MethodGet, "/guardrails", nil},
			{http.MethodPut, "/guardrails", map[string]any{"approval_mode": "ask_for_everything"}},
			{http.MethodPut, "/callback-url", map[string]any{"callback_url": "https://evil.example.com/"}},
		}
		for _, rt := range routes {
			t.Run(rt.method+" "+rt.path, func(t *testing.T) {
				foreign := do(t, srv, rt.method, "/api/v1/owner/bots/"+botID+rt.path, rt.body, auth(mallory.token)...)
				missing := do(t, srv, rt.method, "/api/v1/owner/bots/bot_0000000000000000"+rt.path, rt.body, auth(mallory.token)...)
				wantError(t, foreign, http.StatusNotFound, "not_found")
				wantError(t, missing, http.StatusNotFound, "not_found")
				// Only the request id may differ: it names the request, not the bot.
				if !bytes.Equal(withoutRequestID(foreign.raw), withoutRequestID(missing.raw)) {
					t.Errorf("another owner's bot is distinguishable from a missing one:\n%s\n%s", foreign, missing)
				}
			})
		}
		wantRows(t, srv, "ledger", 0)
		r := do(t, srv, http.MethodGet, "/api/v1/bot/status", nil, auth(key)...)
		if r.str("status") != "active" || r.str("callback_url") == "https://evil.example.com/" {
			t.Errorf("the bot changed: %s", r)
		}
		g := do(t, srv, http.MethodGet, "/api/v1/owner/bots/"+botID+"/guardrails", nil, auth(alice.token)...)
		if g.str("approval_mode") == "ask_for_everything" {
			t.Errorf("guardrails changed: %s", g)
		}
	})
}

// TestOwnerBotRequestErrors: claim, fund, freeze and guardrails refuse bad
// input with the documented codes.
func TestOwnerBotRequestErrors(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		alice, bob := signup(t, srv), signup(t, srv)
		reg := register(t, srv, botBody(alice.email))
		claimToken, botID := reg.str("claim_token"), reg.str("bot_id")
		call := func(o owner, method, path string, body any) response {
			return do(t, srv, method, path, body, auth(o.token)...)
		}
		claim := "/api/v1/owner/bots/claim"

		t.Run("claim with an unknown token", func(t *testing.T) {
			wantError(t, call(alice, http.MethodPost, claim, map[string]any{"claim_token": "reef-ZZZZ"}), http.StatusNotFound, "invalid_claim_token")
		})
		t.Run("claim without a token", func(t *testing.T) {
			wantValidation(t, call(alice, http.MethodPost, claim, map[string]any{}), "claim_token")
		})
		t.Run("claim token of the wrong type", func(t *testing.T) {
			wantValidation(t, call(alice, http.MethodPost, claim, map[string]any{"claim_token": 7}), "claim_token")
		})
		wantStatus(t, call(alice, http.MethodPost, claim, map[string]any{"claim_token": claimToken}), http.StatusOK)
		t.Run("claim an already claimed token", func(t *testing.T) {
			wantError(t, call(bob, http.MethodPost, claim, map[string]any{"claim_token": claimToken}), http.StatusNotFound, "invalid_claim_token")
		})

		bot := "/api/v1/owner/bots/" + botID
		cases := []struct {
			name, method, path string
			body               any
			field              string
		}{
			{"fund amount 0", http.MethodPost, "/fund", map[string]any{"amount_usd": 0}, "amount_usd"},
			{"fund negative amount", http.MethodPost, "/fund", map[string]any{"amount_usd": -1}, "amount_usd"},
			{"fund amount as a string", http.MethodPost, "/fund", map[string]any{"amount_usd": "10"}, "amount_usd"},
			{"fund without amount", http.MethodPost, "/fund", map[string]any{}, "amount_usd"},
			{"fund on an unknown rail", http.MethodPost, "/fund", map[string]any{"amount_usd": 1, "rail": "gold"}, "rail"},
			{"freeze without frozen", http.MethodPost, "/freeze", map[string]any{}, "frozen"},
			{"freeze with a string", http.MethodPost, "/freeze", map[string]any{"frozen": "yes"}, "frozen"},
			{"guardrails with a bad approval_mode", http.MethodPut, "/guardrails", map[string]any{"approval_mode": "yolo"}, "approval_mode"},
			{"guardrails with approval_mode null", http.MethodPut, "/guardrails", map[string]any{"approval_mode": nil}, "approval_mode"},
			{"guardrails with a negative limit", http.MethodPut, "/guardrails",
				map[string]any{"limits": map[string]any{"per_transaction_usd": -1}}, "limits.per_transaction_usd"},
			{"guardrails with a string limit", http.MethodPut, "/guardrails",
				map[string]any{"limits": map[string]any{"daily_usd": "10"}}, "limits.daily_usd"},
			{"guardrails with limits not an object", http.MethodPut, "/guardrails", map[string]any{"limits": 5}, "limits"},
			{"guardrails with categories not strings", http.MethodPut, "/guardrails",
				map[string]any{"approved_categories": []any{1}}, "approved_categories"},
			{"guardrails with recurring_allowed a string", http.MethodPut, "/guardrails",
				map[string]any{"recurring_allowed": "true"}, "recurring_allowed"},
			{"callback-url ftp", http.MethodPut, "/callback-url", map[string]any{"callback_url": "ftp://x.example.com/"}, "callback_url"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				wantValidation(t, call(alice, c.method, bot+c.path, c.body), c.field)
			})
		}
		t.Run("master guardrails with a string", func(t *testing.T) {
			r := call(alice, http.MethodPut, "/api/v1/owner/master-guardrails", map[string]any{"daily_budget_usd": "x"})
			wantValidation(t, r, "daily_budget_usd")
		})
		t.Run("fund with malformed JSON", func(t *testing.T) {
			wantError(t, call(alice, http.MethodPost, bot+"/fund", "{"), http.StatusBadRequest, "invalid_json")
		})
		wantRows(t, srv, "ledger", 0)
		g := call(alice, http.MethodGet, bot+"/guardrails", nil)
		if g.str("approval_mode") != "auto_approve_under_threshold" {
			t.Errorf("a refused PUT changed the guardrails: %s", g)
		}
	})
}

// TestPairingCodeRateLimit: the sixth pairing code within an hour is 429
// (docs/decisions.md, "Rate limits live in the database and name themselves").
func TestPairingCodeRateLimit(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{})
		o := signup(t, srv)
		for range 5 {
			wantStatus(t, do(t, srv, http.MethodPost, "/api/v1/owner/pairing-codes", nil, auth(o.token)...), http.StatusCreated)
		}
		r := do(t, srv, http.MethodPost, "/api/v1/owner/pairing-codes", nil, auth(o.token)...)
		wantError(t, r, http.StatusTooManyRequests, "rate_limited")
		secs, _ := r.body["retry_after_seconds"].(float64)
		if secs < 1 || secs > 3600 {
			t.Errorf("retry_after_seconds = %v (%s)", r.body["retry_after_seconds"], r)
		}
		if got := r.header.Get("Retry-After"); got != strconv.Itoa(int(secs)) {
			t.Errorf("Retry-After = %q, body says %v", got, secs)
		}
		wantRows(t, srv, "pairing_codes", 5)
		// Another owner is not affected.
		other := signup(t, srv)
		wantStatus(t, do(t, srv, http.MethodPost, "/api/v1/owner/pairing-codes", nil, auth(other.token)...), http.StatusCreated)
	})
}

var requestIDField = regexp.MustCompile(`"request_id":"[^"]*"`)

// withoutRequestID blanks the one field of an error body that differs
// between any two requests.
func withoutRequestID(body []byte) []byte {
	return requestIDField.ReplaceAll(body, []byte(`"request_id":""`))
}
