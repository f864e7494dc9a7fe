package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/testserver"
)

// call sends a raw request with the bot's key and returns status and the
// "error" and "details" of the answer.
func (h *harness) call(t *testing.T, apiKey, method, path, body string) (int, string, map[string]string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(h.ctx, method, h.srv.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.srv.HTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var e struct {
		Error   string            `json:"error"`
		Details map[string]string `json:"details"`
	}
	json.Unmarshal(data, &e)
	return resp.StatusCode, e.Error, e.Details
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// earningLimitCase is one request at the edge of a limit: ok, or refused
// with a validation_error naming field.
type earningLimitCase struct {
	name, path, body, field string
	ok                      bool
}

// earningLimitCases are the edges of every earning limit; invoices go on
// the checkout page page.
func earningLimitCases(page string) []earningLimitCase {
	rep := strings.Repeat
	invoice := func(extra string) string {
		return `{"checkout_page_id":"` + page + `","line_items":[{"description":"x","quantity":1,"unit_price_usd":1}]` + extra + `}`
	}
	line := func(desc string) string {
		return `{"checkout_page_id":"` + page + `","line_items":[{"description":` + jsonString(desc) + `,"quantity":1,"unit_price_usd":1}]}`
	}
	return []earningLimitCase{
		{"link amount 0.49", "/api/v1/bot/payments/create-link", `{"amount_usd":0.49,"description":"d"}`, "amount_usd", false},
		{"link amount 0.50", "/api/v1/bot/payments/create-link", `{"amount_usd":0.50,"description":"d"}`, "", true},
		{"link amount 10000", "/api/v1/bot/payments/create-link", `{"amount_usd":10000,"description":"d"}`, "", true},
		{"link amount 10000.01", "/api/v1/bot/payments/create-link", `{"amount_usd":10000.01,"description":"d"}`, "amount_usd", false},
		{"link description empty", "/api/v1/bot/payments/create-link", `{"amount_usd":1,"description":""}`, "description", false},
		{"link description 1", "/api/v1/bot/payments/create-link", `{"amount_usd":1,"description":"d"}`, "", true},
		{"link description 500", "/api/v1/bot/payments/create-link", `{"amount_usd":1,"description":"` + rep("é", 500) + `"}`, "", true},
		{"link description 501", "/api/v1/bot/payments/create-link", `{"amount_usd":1,"description":"` + rep("d", 501) + `"}`, "description", false},
		{"link payer_email invalid", "/api/v1/bot/payments/create-link", `{"amount_usd":1,"description":"d","payer_email":"nope"}`, "payer_email", false},
		{"page title empty", "/api/v1/bot/checkout-pages/create", `{"title":""}`, "title", false},
		{"page title 1", "/api/v1/bot/checkout-pages/create", `{"title":"t"}`, "", true},
		{"page title 200", "/api/v1/bot/checkout-pages/create", `{"title":"` + rep("é", 200) + `"}`, "", true},
		{"page title 201", "/api/v1/bot/checkout-pages/create", `{"title":"` + rep("t", 201) + `"}`, "title", false},
		{"page description 2000", "/api/v1/bot/checkout-pages/create", `{"title":"t","description":"` + rep("d", 2000) + `"}`, "", true},
		{"page description 2001", "/api/v1/bot/checkout-pages/create", `{"title":"t","description":"` + rep("d", 2001) + `"}`, "description", false},
		{"page unknown method", "/api/v1/bot/checkout-pages/create", `{"title":"t","allowed_methods":["paypal"]}`, "allowed_methods", false},
		{"page no methods", "/api/v1/bot/checkout-pages/create", `{"title":"t","allowed_methods":[]}`, "allowed_methods", false},
		{"page every method", "/api/v1/bot/checkout-pages/create", `{"title":"t","allowed_methods":["x402","usdc_direct","processor_onramp","l2_pay"]}`, "", true},
		{"page bad type", "/api/v1/bot/checkout-pages/create", `{"title":"t","page_type":"service"}`, "page_type", false},
		{"digital product without url", "/api/v1/bot/checkout-pages/create", `{"title":"t","page_type":"digital_product"}`, "digital_product_url", false},
		{"digital product with url", "/api/v1/bot/checkout-pages/create", `{"title":"t","page_type":"digital_product","digital_product_url":"https://files.example.com/e.pdf"}`, "", true},
		{"digital product url invalid", "/api/v1/bot/checkout-pages/create", `{"title":"t","page_type":"digital_product","digital_product_url":"javascript:alert(1)"}`, "digital_product_url", false},
		{"image url invalid", "/api/v1/bot/checkout-pages/create", `{"title":"t","image_url":"data:image/png;base64,AAAA"}`, "image_url", false},
		{"success url invalid", "/api/v1/bot/checkout-pages/create", `{"title":"t","success_url":"/relative"}`, "success_url", false},
		{"expires_at past", "/api/v1/bot/checkout-pages/create", `{"title":"t","expires_at":"2020-01-01T00:00:00Z"}`, "expires_at", false},
		{"expires_at not a date", "/api/v1/bot/checkout-pages/create", `{"title":"t","expires_at":"soon"}`, "expires_at", false},
		{"page amount zero", "/api/v1/bot/checkout-pages/create", `{"title":"t","amount_usd":0}`, "amount_usd", false},
		{"page amount string", "/api/v1/bot/checkout-pages/create", `{"title":"t","amount_usd":"5"}`, "amount_usd", false},
		{"invoice recipient_name 200", "/api/v1/bot/invoices/create", invoice(`,"recipient_name":"` + rep("r", 200) + `"`), "", true},
		{"invoice recipient_name 201", "/api/v1/bot/invoices/create", invoice(`,"recipient_name":"` + rep("r", 201) + `"`), "recipient_name", false},
		{"invoice notes 2000", "/api/v1/bot/invoices/create", invoice(`,"notes":"` + rep("n", 2000) + `"`), "", true},
		{"invoice notes 2001", "/api/v1/bot/invoices/create", invoice(`,"notes":"` + rep("n", 2001) + `"`), "notes", false},
		{"invoice line description 500", "/api/v1/bot/invoices/create", line(rep("l", 500)), "", true},
		{"invoice line description 501", "/api/v1/bot/invoices/create", line(rep("l", 501)), "line_items[0].description", false},
		{"invoice line description empty", "/api/v1/bot/invoices/create", line(""), "line_items[0].description", false},
		{"invoice no lines", "/api/v1/bot/invoices/create", `{"checkout_page_id":"` + page + `","line_items":[]}`, "line_items", false},
		{"invoice lines missing", "/api/v1/bot/invoices/create", `{"checkout_page_id":"` + page + `"}`, "line_items", false},
		{"invoice quantity zero", "/api/v1/bot/invoices/create", `{"checkout_page_id":"` + page + `","line_items":[{"description":"x","quantity":0,"unit_price_usd":1}]}`, "line_items[0].quantity", false},
		{"invoice unit price negative", "/api/v1/bot/invoices/create", `{"checkout_page_id":"` + page + `","line_items":[{"description":"x","quantity":1,"unit_price_usd":-1}]}`, "line_items[0].unit_price_usd", false},
		{"invoice with a free line beside a paid one", "/api/v1/bot/invoices/create", `{"checkout_page_id":"` + page + `","line_items":[{"description":"x","quantity":1,"unit_price_usd":0},{"description":"y","quantity":1,"unit_price_usd":5}]}`, "", true},
		{"invoice of $0.00 in all", "/api/v1/bot/invoices/create", `{"checkout_page_id":"` + page + `","line_items":[{"description":"x","quantity":1,"unit_price_usd":0}]}`, "total_usd", false},
		{"invoice line not an object", "/api/v1/bot/invoices/create", `{"checkout_page_id":"` + page + `","line_items":["x"]}`, "line_items[0]", false},
		{"invoice tax negative", "/api/v1/bot/invoices/create", invoice(`,"tax_usd":-1`), "tax_usd", false},
		{"invoice recipient type", "/api/v1/bot/invoices/create", invoice(`,"recipient_type":"alien"`), "recipient_type", false},
		{"invoice recipient email", "/api/v1/bot/invoices/create", invoice(`,"recipient_email":"not-an-address"`), "recipient_email", false},
		{"invoice due date", "/api/v1/bot/invoices/create", invoice(`,"due_date":"next week"`), "due_date", false},
		{"invoice page missing", "/api/v1/bot/invoices/create", `{"line_items":[{"description":"x","quantity":1,"unit_price_usd":1}]}`, "checkout_page_id", false},
	}
}

// TestEarningLimitsAtTheirEdges checks each limit of the API reference (docs/api.md)
// that applies to earning just inside and just outside.
func TestEarningLimitsAtTheirEdges(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("limits")
		key := c.reg.APIKey
		status, _, _ := h.call(t, key, http.MethodPost, "/api/v1/bot/checkout-pages/create", `{"title":"Base"}`)
		if status != http.StatusCreated {
			t.Fatalf("base page: HTTP %d", status)
		}
		pages, _ := c.bot.CheckoutPages(h.ctx)
		page := pages[0].CheckoutPageID
		cases := earningLimitCases(page)
		for _, tc := range cases {
			status, code, details := h.call(t, key, http.MethodPost, tc.path, tc.body)
			switch {
			case tc.ok && status != http.StatusCreated:
				t.Errorf("%s: HTTP %d %s %v, want 201", tc.name, status, code, details)
			case !tc.ok && (status != http.StatusBadRequest || code != "validation_error" || details[tc.field] == ""):
				t.Errorf("%s: HTTP %d %s %v, want 400 validation_error naming %s", tc.name, status, code, details, tc.field)
			}
		}
		for _, tc := range []struct {
			query string
			ok    bool
		}{{"limit=0", false}, {"limit=1", true}, {"limit=100", true}, {"limit=101", false}, {"status=done", false}, {"status=expired", true}} {
			status, code, _ := h.call(t, key, http.MethodGet, "/api/v1/bot/payments/links?"+tc.query, "")
			if tc.ok != (status == http.StatusOK) || (!tc.ok && code != "validation_error") {
				t.Errorf("payment links ?%s: HTTP %d %s", tc.query, status, code)
			}
		}
		for _, path := range []string{"/api/v1/bot/payments/create-link", "/api/v1/bot/checkout-pages/create", "/api/v1/bot/invoices/create"} {
			if status, code, _ := h.call(t, key, http.MethodPost, path, `{"title":`); status != http.StatusBadRequest || code != "invalid_json" {
				t.Errorf("%s with broken JSON: HTTP %d %s, want 400 invalid_json", path, status, code)
			}
		}
	})
}
