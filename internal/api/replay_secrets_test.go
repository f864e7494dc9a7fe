package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestRotationAnswerIsNeverReplayed: a bot rotates with an
// Idempotency-Key and a grace period; the same request and key again,
// from the superseded key or from the new one, is 409
// idempotency_key_reused and never shows the new key.
func TestRotationAnswerIsNeverReplayed(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		oldKey, botID := claimedBot(t, srv, o)
		body := map[string]any{"grace_seconds": 3600}
		first := do(t, srv, http.MethodPost, "/api/v1/bot/api-key/rotate", body, append(auth(oldKey), "Idempotency-Key", "rotate-1")...)
		wantStatus(t, first, http.StatusOK)
		newKey := first.str("api_key")
		for name, key := range map[string]string{"superseded key": oldKey, "new key": newKey} {
			r := do(t, srv, http.MethodPost, "/api/v1/bot/api-key/rotate", body, append(auth(key), "Idempotency-Key", "rotate-1")...)
			if r.status == http.StatusOK || r.header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("%s: retry answered %s", name, r)
			}
		}
		r := do(t, srv, http.MethodPost, "/api/v1/bot/api-key/rotate", body, append(auth(newKey), "Idempotency-Key", "rotate-1")...)
		wantError(t, r, http.StatusConflict, "idempotency_key_reused")
		t.Run("owner rotation", func(t *testing.T) {
			path := "/api/v1/owner/bots/" + botID + "/api-key/rotate"
			a := do(t, srv, http.MethodPost, path, nil, append(auth(o.token), "Idempotency-Key", "owner-rotate-1")...)
			wantStatus(t, a, http.StatusOK)
			b := do(t, srv, http.MethodPost, path, nil, append(auth(o.token), "Idempotency-Key", "owner-rotate-1")...)
			wantError(t, b, http.StatusConflict, "idempotency_key_reused")
		})
	})
}

// TestSupersededKeyReadsAndSpendsOnly: a key in its grace period still
// reads, but cannot rotate or change the callback: 403 key_superseded.
func TestSupersededKeyReadsAndSpendsOnly(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		oldKey, _ := claimedBot(t, srv, signup(t, srv))
		rot := do(t, srv, http.MethodPost, "/api/v1/bot/api-key/rotate", map[string]any{"grace_seconds": 3600}, auth(oldKey)...)
		wantStatus(t, rot, http.StatusOK)
		wantStatus(t, do(t, srv, http.MethodGet, "/api/v1/bot/status", nil, auth(oldKey)...), http.StatusOK)
		for _, tc := range []struct {
			name, method, path string
			body               any
		}{
			{"rotate", http.MethodPost, "/api/v1/bot/api-key/rotate", map[string]any{"grace_seconds": 60}},
			{"callback", http.MethodPatch, "/api/v1/bot/profile", map[string]any{"callback_url": "https://attacker.example.com/hook"}},
		} {
			r := do(t, srv, tc.method, tc.path, tc.body, auth(oldKey)...)
			if r.status != http.StatusForbidden || r.str("error") != botpay.CodeKeySuperseded {
				t.Errorf("%s with the superseded key = %s, want 403 key_superseded", tc.name, r)
			}
		}
		ok := do(t, srv, http.MethodPatch, "/api/v1/bot/profile", map[string]any{"callback_url": "https://bot.example.com/new"}, auth(rot.str("api_key"))...)
		wantStatus(t, ok, http.StatusOK)
	})
}

// TestSecretAnswersReplayOnlyToTheirCaller: a registration's answer is
// replayed to the same address and body for ten minutes, never later; a
// pairing code's only to the same owner credential.
func TestSecretAnswersReplayOnlyToTheirCaller(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Now())
		opts := lenient()
		opts.Clock = clock
		srv := testserver.Start(t, d, opts)
		body := botBody("victim@example.com")
		first := register(t, srv, body, "Idempotency-Key", "reg-secret")
		clock.Advance(9 * time.Minute)
		wantReplay(t, first, do(t, srv, http.MethodPost, registerPath, body, "Idempotency-Key", "reg-secret"))
		clock.Advance(2 * time.Minute)
		late := do(t, srv, http.MethodPost, registerPath, body, "Idempotency-Key", "reg-secret")
		wantError(t, late, http.StatusConflict, "idempotency_key_reused")
		if late.str("api_key") != "" || late.str("claim_token") != "" {
			t.Fatalf("late retry learned a secret: %s", late)
		}

		o := signup(t, srv)
		login := do(t, srv, http.MethodPost, "/api/v1/owner/login", map[string]any{"email": o.email, "password": testPassword})
		wantStatus(t, login, http.StatusOK)
		code := do(t, srv, http.MethodPost, "/api/v1/owner/pairing-codes", nil, append(auth(o.token), "Idempotency-Key", "pair-1")...)
		wantStatus(t, code, http.StatusCreated)
		other := do(t, srv, http.MethodPost, "/api/v1/owner/pairing-codes", nil, append(auth(login.str("token")), "Idempotency-Key", "pair-1")...)
		wantError(t, other, http.StatusConflict, "idempotency_key_reused")
		wantReplay(t, code, do(t, srv, http.MethodPost, "/api/v1/owner/pairing-codes", nil, append(auth(o.token), "Idempotency-Key", "pair-1")...))
	})
}
