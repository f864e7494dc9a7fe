package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestUnknownRoutesAndWrongMethodsAnswerJSON (docs/decisions.md).
func TestUnknownRoutesAndWrongMethodsAnswerJSON(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		for _, c := range []struct{ method, path string }{
			{http.MethodGet, "/api/v1/nope"},
			{http.MethodPost, "/api/v1/bots/register/extra"},
			{http.MethodGet, "/api/v2/bot/status"},
			{http.MethodDelete, "/no/such/thing"},
		} {
			t.Run("404 "+c.method+" "+c.path, func(t *testing.T) {
				wantError(t, do(t, srv, c.method, c.path, nil), http.StatusNotFound, "not_found")
			})
		}
		for _, c := range []struct{ method, path, allow string }{
			{http.MethodGet, "/api/v1/bots/register", "POST"},
			{http.MethodDelete, "/api/v1/bots/register", "POST"},
			{http.MethodPost, "/api/v1/bot/status", "GET"},
			{http.MethodPut, "/api/v1/bot/wallet/topup-request", "POST"},
			{http.MethodDelete, "/api/v1/owner/bots/bot_0000000000000000/guardrails", "PUT"},
		} {
			t.Run("405 "+c.method+" "+c.path, func(t *testing.T) {
				r := do(t, srv, c.method, c.path, nil)
				wantError(t, r, http.StatusMethodNotAllowed, "method_not_allowed")
				allow := r.header.Get("Allow")
				if !strings.Contains(allow, c.allow) || strings.Contains(allow, c.method) {
					t.Errorf("Allow = %q, want it to list %s and not %s", allow, c.allow, c.method)
				}
			})
		}
	})
}

// padded fills head…tail to exactly n bytes. Oversized bodies are exactly
// one byte over the cap, so the server has read all of it when it answers
// and closing the connection cannot reset the client before it reads.
func padded(head, tail string, n int) string {
	return head + strings.Repeat("a", n-len(head)-len(tail)) + tail
}

// TestBodyOverOneMiBIsRefused: 413 payload_too_large, with or without an
// Idempotency-Key, and nothing is written.
func TestBodyOverOneMiBIsRefused(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		big := padded(`{"bot_name":"big","owner_email":"owner@example.com","description":"`, `"}`, api.MaxBodyBytes+1)
		t.Run("register", func(t *testing.T) {
			wantError(t, do(t, srv, http.MethodPost, registerPath, big), http.StatusRequestEntityTooLarge, "payload_too_large")
		})
		t.Run("register with Idempotency-Key", func(t *testing.T) {
			r := do(t, srv, http.MethodPost, registerPath, big, "Idempotency-Key", "big-1")
			wantError(t, r, http.StatusRequestEntityTooLarge, "payload_too_large")
		})
		t.Run("one byte over", func(t *testing.T) {
			body := padded(`{"x":"`, `"}`, api.MaxBodyBytes+1)
			wantError(t, do(t, srv, http.MethodPost, registerPath, body), http.StatusRequestEntityTooLarge, "payload_too_large")
		})
		t.Run("exactly 1 MiB is read", func(t *testing.T) {
			body := padded(`{"bot_name":"x","owner_email":"o@example.com","description":"`, `"}`, api.MaxBodyBytes)
			wantValidation(t, do(t, srv, http.MethodPost, registerPath, body), "description")
		})
		o := signup(t, srv)
		key, botID := claimedBot(t, srv, o)
		t.Run("top-up request", func(t *testing.T) {
			body := padded(`{"amount_usd":5,"reason":"`, `"}`, api.MaxBodyBytes+1)
			r := do(t, srv, http.MethodPost, "/api/v1/bot/wallet/topup-request", body, auth(key)...)
			wantError(t, r, http.StatusRequestEntityTooLarge, "payload_too_large")
		})
		t.Run("fund", func(t *testing.T) {
			body := padded(`{"amount_usd":5,"rail":"`, `"}`, api.MaxBodyBytes+1)
			r := do(t, srv, http.MethodPost, "/api/v1/owner/bots/"+botID+"/fund", body, auth(o.token)...)
			wantError(t, r, http.StatusRequestEntityTooLarge, "payload_too_large")
		})
		wantRows(t, srv, "bots", 1) // the claimed one only
		wantRows(t, srv, "topup_requests", 0)
		wantRows(t, srv, "ledger", 0)
		wantRows(t, srv, "idempotency_keys", 0)
	})
}

// TestWrongTypesAreValidationErrorsNamingTheField (docs/decisions.md): on
// every endpoint that takes a body, a field of the wrong JSON type is
// validation_error with details naming it, never invalid_json or 500.
func TestWrongTypesAreValidationErrorsNamingTheField(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, botID := claimedBot(t, srv, o)
		bot := "/api/v1/owner/bots/" + botID
		reg := func(k string, v any) map[string]any { m := botBody(o.email); m[k] = v; return m }
		cases := []struct {
			name, method, path string
			body               map[string]any
			token, field       string
		}{
			{"register bot_name number", "POST", registerPath, reg("bot_name", 1), "", "bot_name"},
			{"register owner_email object", "POST", registerPath, reg("owner_email", map[string]any{}), "", "owner_email"},
			{"register description number", "POST", registerPath, reg("description", 1.5), "", "description"},
			{"register callback_url array", "POST", registerPath, reg("callback_url", []any{}), "", "callback_url"},
			{"register pairing_code boolean", "POST", registerPath, reg("pairing_code", false), "", "pairing_code"},
			{"register bot_type number", "POST", registerPath, reg("bot_type", 3), "", "bot_type"},
			{"register local_port string", "POST", registerPath, reg("local_port", "80"), "", "local_port"},
			{"register local_port boolean", "POST", registerPath, reg("local_port", true), "", "local_port"},
			{"register webhook_path array", "POST", registerPath, reg("webhook_path", []any{"/x"}), "", "webhook_path"},
			{"topup amount_usd object", "POST", "/api/v1/bot/wallet/topup-request", map[string]any{"amount_usd": map[string]any{}}, key, "amount_usd"},
			{"topup reason boolean", "POST", "/api/v1/bot/wallet/topup-request", map[string]any{"amount_usd": 1, "reason": true}, key, "reason"},
			{"profile callback_url number", "PATCH", "/api/v1/bot/profile", map[string]any{"callback_url": 5}, key, "callback_url"},
			{"signup email array", "POST", "/api/v1/owner/signup", map[string]any{"email": []any{}, "password": testPassword}, "", "email"},
			{"login password number", "POST", "/api/v1/owner/login", map[string]any{"email": o.email, "password": 123456789012}, "", "password"},
			{"claim claim_token object", "POST", "/api/v1/owner/bots/claim", map[string]any{"claim_token": map[string]any{}}, o.token, "claim_token"},
			{"fund amount_usd string", "POST", bot + "/fund", map[string]any{"amount_usd": "1"}, o.token, "amount_usd"},
			{"fund rail number", "POST", bot + "/fund", map[string]any{"amount_usd": 1, "rail": 1}, o.token, "rail"},
			{"freeze frozen number", "POST", bot + "/freeze", map[string]any{"frozen": 1}, o.token, "frozen"},
			{"guardrails approval_mode number", "PUT", bot + "/guardrails", map[string]any{"approval_mode": 1}, o.token, "approval_mode"},
			{"guardrails notes number", "PUT", bot + "/guardrails", map[string]any{"notes": 1}, o.token, "notes"},
			{"guardrails blocked_categories string", "PUT", bot + "/guardrails", map[string]any{"blocked_categories": "food"}, o.token, "blocked_categories"},
			{"guardrails nested ask_approval_above_usd string", "PUT", bot + "/guardrails",
				map[string]any{"limits": map[string]any{"ask_approval_above_usd": "5"}}, o.token, "limits.ask_approval_above_usd"},
			{"master per_transaction_usd boolean", "PUT", "/api/v1/owner/master-guardrails", map[string]any{"per_transaction_usd": true}, o.token, "per_transaction_usd"},
			{"callback-url callback_url boolean", "PUT", bot + "/callback-url", map[string]any{"callback_url": true}, o.token, "callback_url"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var kv []string
				if c.token != "" {
					kv = auth(c.token)
				}
				wantValidation(t, do(t, srv, c.method, c.path, c.body, kv...), c.field)
			})
		}
		wantRows(t, srv, "bots", 1)
		wantRows(t, srv, "ledger", 0)
	})
}

// TestControlCharactersNeverCauseServerErrors: a NUL byte in any text field
// must be refused or harmless on both engines (PostgreSQL rejects NUL in
// text columns, so an unchecked one is a 500).
func TestControlCharactersNeverCauseServerErrors(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, botID := claimedBot(t, srv, o)
		bot := "/api/v1/owner/bots/" + botID
		nul := "a\x00b"
		cases := []struct {
			name, method, path string
			body               map[string]any
			token              string
			want               int // 0: any answer but a server error
		}{
			{"register owner_email", "POST", registerPath, map[string]any{"bot_name": "n", "owner_email": "a\x00b@example.com"}, "", 400},
			{"register description", "POST", registerPath, map[string]any{"bot_name": "n", "owner_email": o.email, "description": nul}, "", 400},
			{"register webhook_path", "POST", registerPath, map[string]any{"bot_name": "n", "owner_email": o.email, "webhook_path": "/a\x00"}, "", 400},
			{"register callback_url", "POST", registerPath, map[string]any{"bot_name": "n", "owner_email": o.email, "callback_url": "https://x.example.com/\x00"}, "", 400},
			{"register bot_type", "POST", registerPath, map[string]any{"bot_name": "n", "owner_email": o.email, "bot_type": nul}, "", 400},
			{"signup email", "POST", "/api/v1/owner/signup", map[string]any{"email": "a\x00b@example.com", "password": testPassword}, "", 400},
			{"signup password", "POST", "/api/v1/owner/signup", map[string]any{"email": unique("nul") + "@example.com", "password": testPassword + "\x00"}, "", 0},
			{"login email", "POST", "/api/v1/owner/login", map[string]any{"email": "a\x00b@example.com", "password": testPassword}, "", 400},
			{"claim token", "POST", "/api/v1/owner/bots/claim", map[string]any{"claim_token": nul}, o.token, 0},
			{"topup reason", "POST", "/api/v1/bot/wallet/topup-request", map[string]any{"amount_usd": 1, "reason": nul}, key, 400},
			{"guardrails notes", "PUT", bot + "/guardrails", map[string]any{"notes": nul}, o.token, 400},
			{"guardrails categories", "PUT", bot + "/guardrails", map[string]any{"approved_categories": []any{nul}}, o.token, 0},
			{"callback-url", "PUT", bot + "/callback-url", map[string]any{"callback_url": "https://x.example.com/\x00"}, o.token, 400},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var kv []string
				if c.token != "" {
					kv = auth(c.token)
				}
				r := do(t, srv, c.method, c.path, c.body, kv...)
				if r.status >= 500 || (c.want != 0 && r.status != c.want) {
					t.Fatalf("want HTTP %d (0: not 5xx), got %s", c.want, r)
				}
			})
		}
		// The same through the path: a bot id that is not valid text is
		// just a bot that does not exist.
		for _, id := range []string{"a%00b", "%ff%fe", "bot_%C0%80"} {
			for _, rt := range []struct{ method, path string }{
				{"POST", "/fund"}, {"POST", "/freeze"}, {"GET", "/guardrails"}, {"PUT", "/guardrails"}, {"PUT", "/callback-url"},
			} {
				t.Run(rt.method+" bot id "+id+rt.path, func(t *testing.T) {
					body := map[string]any{"amount_usd": 1, "frozen": true, "callback_url": "https://x.example.com/"}
					if rt.method == "GET" {
						body = nil
					}
					r := do(t, srv, rt.method, "/api/v1/owner/bots/"+id+rt.path, body, auth(o.token)...)
					wantError(t, r, http.StatusNotFound, "not_found")
				})
			}
		}
	})
}
