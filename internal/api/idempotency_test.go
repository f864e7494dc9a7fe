package api_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// wantReplay checks that second is a byte-for-byte replay of first.
func wantReplay(t *testing.T, first, second response) {
	t.Helper()
	if first.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("first answer is marked as replayed")
	}
	if got := second.header.Get("Idempotent-Replayed"); got != "true" {
		t.Errorf("Idempotent-Replayed = %q, want true", got)
	}
	if second.status != first.status || !bytes.Equal(second.raw, first.raw) {
		t.Errorf("replay differs:\nfirst  %s\nsecond %s", first, second)
	}
	if a, b := first.header.Get("Content-Type"), second.header.Get("Content-Type"); a != b {
		t.Errorf("Content-Type %q on replay, %q first", b, a)
	}
}

// TestIdempotentRegistration (docs/decisions.md): same key and body
// replay the first answer, API key included, and create one bot; same key
// with another body is 409 idempotency_key_reused.
func TestIdempotentRegistration(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		body := botBody("owner@example.com")
		first := register(t, srv, body, "Idempotency-Key", "reg-1")
		second := do(t, srv, http.MethodPost, registerPath, body, "Idempotency-Key", "reg-1")
		wantReplay(t, first, second)
		wantRows(t, srv, "bots", 1)
		// The replayed key works: it is the one bot's key.
		wantStatus(t, do(t, srv, http.MethodGet, "/api/v1/bot/status", nil, auth(second.str("api_key"))...), http.StatusOK)

		t.Run("same key, other body", func(t *testing.T) {
			other := botBody("owner@example.com")
			r := do(t, srv, http.MethodPost, registerPath, other, "Idempotency-Key", "reg-1")
			wantError(t, r, http.StatusConflict, "idempotency_key_reused")
		})
		t.Run("a refused request is replayed too", func(t *testing.T) {
			bad := map[string]any{"bot_name": "x"}
			a := do(t, srv, http.MethodPost, registerPath, bad, "Idempotency-Key", "reg-bad")
			b := do(t, srv, http.MethodPost, registerPath, bad, "Idempotency-Key", "reg-bad")
			wantValidation(t, a, "owner_email")
			wantReplay(t, a, b)
		})
		t.Run("same key on another route is independent", func(t *testing.T) {
			r := do(t, srv, http.MethodPost, "/api/v1/owner/signup",
				map[string]any{"email": unique("idem") + "@example.com", "password": testPassword}, "Idempotency-Key", "reg-1")
			wantStatus(t, r, http.StatusCreated)
		})
		t.Run("malformed keys", func(t *testing.T) {
			for _, key := range []string{strings.Repeat("k", 256), "has space", "tab\tkey", "é"} {
				r := do(t, srv, http.MethodPost, registerPath, botBody("owner@example.com"), "Idempotency-Key", key)
				wantValidation(t, r, "Idempotency-Key")
			}
		})
		t.Run("a key of 255 characters is fine", func(t *testing.T) {
			register(t, srv, botBody("owner@example.com"), "Idempotency-Key", strings.Repeat("k", 255))
		})
		wantRows(t, srv, "bots", 2)
	})
}

// TestIdempotentFundingWritesOneLedgerRow: an owner funding retried with
// its key moves money once.
func TestIdempotentFundingWritesOneLedgerRow(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, botID := claimedBot(t, srv, o)
		fund := "/api/v1/owner/bots/" + botID + "/fund"
		body := map[string]any{"amount_usd": 12.5}
		first := do(t, srv, http.MethodPost, fund, body, append(auth(o.token), "Idempotency-Key", "fund-1")...)
		wantStatus(t, first, http.StatusOK)
		second := do(t, srv, http.MethodPost, fund, body, append(auth(o.token), "Idempotency-Key", "fund-1")...)
		wantReplay(t, first, second)
		r := do(t, srv, http.MethodPost, fund, map[string]any{"amount_usd": 99}, append(auth(o.token), "Idempotency-Key", "fund-1")...)
		wantError(t, r, http.StatusConflict, "idempotency_key_reused")

		wantRows(t, srv, "ledger", 1)
		w := do(t, srv, http.MethodGet, "/api/v1/bot/wallet/check", nil, auth(key)...)
		if w.body["balance_usd"] != 12.5 {
			t.Errorf("balance after a replayed funding: %s", w)
		}
		txs := do(t, srv, http.MethodGet, "/api/v1/bot/wallet/transactions", nil, auth(key)...)
		if list, _ := txs.body["transactions"].([]any); len(list) != 1 {
			t.Errorf("transactions: %s", txs)
		}

		// Keys are scoped to the caller: another owner's identical key and
		// body is their own request (404 for them), not a replay.
		other := signup(t, srv)
		r = do(t, srv, http.MethodPost, fund, body, append(auth(other.token), "Idempotency-Key", "fund-1")...)
		wantError(t, r, http.StatusNotFound, "not_found")
		if r.header.Get("Idempotent-Replayed") != "" {
			t.Errorf("another owner got a replay")
		}
		wantRows(t, srv, "ledger", 1)
	})
}

// TestIdempotentTopupRequest: a bot's retried top-up request notifies once.
func TestIdempotentTopupRequest(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		key, _ := claimedBot(t, srv, signup(t, srv))
		kv := append(auth(key), "Idempotency-Key", "topup-1")
		body := map[string]any{"amount_usd": 20, "reason": "paper"}
		first := do(t, srv, http.MethodPost, "/api/v1/bot/wallet/topup-request", body, kv...)
		wantStatus(t, first, http.StatusOK)
		second := do(t, srv, http.MethodPost, "/api/v1/bot/wallet/topup-request", body, kv...)
		wantReplay(t, first, second)
		wantRows(t, srv, "topup_requests", 1)
	})
}
