package api_test

import (
	"net/http"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestDuplicateJSONKeysAreRefused: a body naming a member twice is 400
// validation_error naming it, on bot, owner and anonymous endpoints, and
// nothing is written (the last key used to win: $1 funded $500,000).
func TestDuplicateJSONKeysAreRefused(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, botID := claimedBot(t, srv, o)
		for _, c := range []struct {
			name, path, body, field string
			kv                      []string
		}{
			{"owner fund", "/api/v1/owner/bots/" + botID + "/fund", `{"amount_usd":1,"amount_usd":500000}`, "amount_usd", auth(o.token)},
			{"bot top-up request", "/api/v1/bot/wallet/topup-request", `{"amount_usd":5,"reason":"a","amount_usd":9}`, "amount_usd", auth(key)},
			{"nested member", "/api/v1/bot/invoices/create", `{"customer":{"email":"a@example.com","email":"b@example.com"}}`, "customer.email", auth(key)},
			{"member of an array item", "/api/v1/bot/invoices/create",
				`{"line_items":[{"description":"x","description":"y"}]}`, "line_items[0].description", auth(key)},
			{"registration", "/api/v1/bots/register", `{"bot_name":"a","bot_name":"b","owner_email":"o@example.com"}`, "bot_name", nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				wantValidation(t, do(t, srv, http.MethodPost, c.path, c.body, c.kv...), c.field)
			})
		}
		r := do(t, srv, http.MethodGet, "/api/v1/bot/wallet/check", nil, auth(key)...)
		if r.body["balance_usd"] != 0.0 {
			t.Errorf("balance after refused fundings: %s", r)
		}
		wantRows(t, srv, "topup_requests", 0)
	})
}
