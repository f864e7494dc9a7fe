package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestZeroInvoiceIsRefused: an invoice of $0.00 is refused at creation
// (400 validation_error on total_usd) and nothing is stored.
func TestZeroInvoiceIsRefused(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		key, _ := claimedBot(t, srv, signup(t, srv))
		pg := do(t, srv, http.MethodPost, "/api/v1/bot/checkout-pages/create", map[string]any{"title": "Work", "amount_usd": 5, "page_type": "product"}, auth(key)...)
		wantStatus(t, pg, http.StatusCreated)
		r := do(t, srv, http.MethodPost, "/api/v1/bot/invoices/create", map[string]any{"checkout_page_id": pg.str("checkout_page_id"),
			"recipient_email": "buyer@example.com", "line_items": []any{map[string]any{"description": "Free", "quantity": 1, "unit_price_usd": 0}}}, auth(key)...)
		wantValidation(t, r, "total_usd")
		wantRows(t, srv, "invoices", 0)
	})
}

// TestRegistrationRateLimitResetIsWhenTheOldestLeaves: the 429 keeps its
// fixed Retry-After of 3600 s, but RateLimit's t= says when the oldest
// counted registration leaves the window.
func TestRegistrationRateLimitResetIsWhenTheOldestLeaves(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Now())
		srv := testserver.Start(t, d, testserver.Options{Clock: clock})
		for range 3 {
			register(t, srv, botBody("limit@example.com"))
		}
		clock.Advance(10 * time.Minute)
		r := do(t, srv, http.MethodPost, registerPath, botBody("limit@example.com"))
		wantError(t, r, http.StatusTooManyRequests, "rate_limited")
		if got := r.header.Get("Retry-After"); got != "3600" {
			t.Errorf("Retry-After = %q, want 3600", got)
		}
		rl := r.header.Get("RateLimit")
		if !strings.Contains(rl, `"register";r=0;t=3000`) {
			t.Errorf("RateLimit = %q, want t= until the oldest registration leaves the window (< 3600)", rl)
		}
	})
}

// TestMCPEnvelopeWithDuplicateMembersIsRefused: a JSON-RPC message naming
// a member twice, at any depth, is refused before any tool runs.
func TestMCPEnvelopeWithDuplicateMembersIsRefused(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		key, _ := claimedBot(t, srv, signup(t, srv))
		mcpHeaders := append(auth(key), "Accept", "application/json, text/event-stream")
		for name, body := range map[string]string{
			"arguments": `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"request_topup","arguments":{"amount_usd":1,"amount_usd":999,"reason":"x"}}}`,
			"envelope":  `{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{}}`,
		} {
			r := do(t, srv, http.MethodPost, "/mcp", body, mcpHeaders...)
			if r.status != http.StatusBadRequest || r.str("error") != "validation_error" {
				t.Errorf("%s: %s, want 400 validation_error", name, r)
			}
		}
		wantRows(t, srv, "topup_requests", 0)
	})
}
