package interop

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// v2Payment is what interop/pay-v2.mjs reports.
type v2Payment struct {
	Status int            `json:"status"`
	Body   map[string]any `json:"body"`
	// The decoded PAYMENT-RESPONSE and X-PAYMENT-RESPONSE.
	PaymentResponse  *x402.SettleResponse `json:"paymentResponse"`
	XPaymentResponse *x402.SettleResponse `json:"xPaymentResponse"`
	PaymentSignature string               `json:"paymentSignature"`
}

func payV2(t *testing.T, dir, url string, key x402.Key, paymentID string) v2Payment {
	t.Helper()
	args := []string{"pay-v2.mjs", url, "0x" + hex.EncodeToString(key.Bytes())}
	if paymentID != "" {
		args = append(args, paymentID)
	}
	out := node(t, dir, nil, args...)
	var p v2Payment
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("pay-v2.mjs answered %s", out)
	}
	return p
}

// resend sends a recorded PAYMENT-SIGNATURE again.
func resend(t *testing.T, url, signature string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("PAYMENT-SIGNATURE", signature)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// TestStockV2ClientPaysPagesAndInvoicesInSandbox: the stock x402 v2 client
// (@x402/fetch with only the v2 exact scheme) pays a checkout page, an
// invoice and a payment link of a sandbox service on both engines; its
// PAYMENT-SIGNATURE sent again answers the first sale, and a payment
// identifier reused with a new authorization answers 409
// payment_identifier_reused.
func TestStockV2ClientPaysPagesAndInvoicesInSandbox(t *testing.T) {
	dir := interopDir(t)
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}})
		c := caller{t: t, url: srv.URL}
		seller := c.walletBot("seller")
		pageID := c.call("POST", "/api/v1/bot/checkout-pages/create", seller.key, map[string]any{"title": "Report", "amount_usd": 0.25,
			"page_type": "digital_product", "digital_product_url": "https://files.example/report.pdf"})["checkout_page_id"].(string)
		url := c.url + "/api/v1/checkout/" + pageID + "/x402"
		key, _ := x402.GenerateKey()

		paid := payV2(t, dir, url, key, "sandbox-order-0000000001")
		pr, xr := paid.PaymentResponse, paid.XPaymentResponse
		if paid.Status != 200 || paid.Body["status"] != "confirmed" || pr == nil || !pr.Success || pr.Network != "eip155:8453" ||
			pr.Amount != "250000" || !strings.EqualFold(pr.Payer, key.Address().Hex()) || xr == nil || xr.Network != "base" {
			t.Fatalf("stock v2 payment: %+v", paid)
		}
		if status, body := resend(t, url, paid.PaymentSignature); status != 200 || !strings.Contains(body, paid.Body["sale_id"].(string)) {
			t.Fatalf("replayed PAYMENT-SIGNATURE: %d %s", status, body)
		}
		reused := payV2(t, dir, url, key, "sandbox-order-0000000001")
		if reused.Status != 409 || reused.Body["error"] != "payment_identifier_reused" {
			t.Fatalf("reused identifier: %+v", reused)
		}

		inv := c.call("POST", "/api/v1/bot/invoices/create", seller.key, map[string]any{"checkout_page_id": pageID,
			"line_items": []any{map[string]any{"description": "Work", "quantity": 1, "unit_price_usd": 1.5}}})
		invoiceURL := url + "?" + strings.SplitN(inv["payment_url"].(string), "?", 2)[1]
		if p := payV2(t, dir, invoiceURL, key, ""); p.Status != 200 || p.Body["reference_number"] != inv["reference_number"] {
			t.Fatalf("invoice: %+v", p)
		}
		stockV2PaysALinkOnce(t, dir, c, seller)
		if sales := c.call("GET", "/api/v1/bot/sales", seller.key, nil)["sales"].([]any); len(sales) != 3 {
			t.Fatalf("sales = %v", sales)
		}
	})
}

// stockV2PaysALinkOnce: the stock v2 client pays a payment link, which
// completes; its PAYMENT-SIGNATURE again answers the same sale, and another
// payer is told the link is no longer pending before it signs anything.
func stockV2PaysALinkOnce(t *testing.T, dir string, c caller, seller bot) {
	t.Helper()
	linkID := c.call("POST", "/api/v1/bot/payments/create-link", seller.key, map[string]any{"amount_usd": 0.75,
		"description": "Consulting"})["payment_link_id"].(string)
	url := c.url + "/api/v1/payment-links/" + linkID + "/x402"
	key, _ := x402.GenerateKey()
	paid := payV2(t, dir, url, key, "")
	if pr := paid.PaymentResponse; paid.Status != 200 || paid.Body["status"] != "completed" || paid.Body["payment_link_id"] != linkID ||
		pr == nil || !pr.Success || pr.Amount != "750000" || !strings.EqualFold(pr.Payer, key.Address().Hex()) {
		t.Fatalf("stock v2 payment of a link: %+v", paid)
	}
	if status, body := resend(t, url, paid.PaymentSignature); status != 200 || !strings.Contains(body, paid.Body["sale_id"].(string)) {
		t.Fatalf("replayed PAYMENT-SIGNATURE at the link: %d %s", status, body)
	}
	other, _ := x402.GenerateKey()
	if late := payV2(t, dir, url, other, ""); late.Status != 409 || late.Body["error"] != "payment_link_not_pending" || late.PaymentSignature != "" {
		t.Fatalf("a second payer at the paid link: %+v", late)
	}
	links := c.call("GET", "/api/v1/bot/payments/links?status=completed", seller.key, nil)["payment_links"].([]any)
	if len(links) != 1 || links[0].(map[string]any)["paid_at"] == nil {
		t.Fatalf("completed links = %v", links)
	}
}
