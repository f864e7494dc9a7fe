package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/wire"
)

func TestEarningCallsSendExactRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	price, tax := client.USD(1250), client.USD(99)
	locked := false
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name                      string
		do                        func(c *client.Client) error
		method, path, query, body string
		auth                      bool
	}{
		{"create page", func(c *client.Client) error {
			_, err := c.CreateCheckoutPage(ctx, client.CheckoutPageRequest{Title: "T", AmountUSD: &price, AmountLocked: &locked,
				AllowedMethods: []string{client.MethodX402}, ExpiresAt: wire.Ptr(at.Format(time.RFC3339)), CollectBuyerName: wire.Ptr(true)})
			return err
		}, "POST", "/api/v1/bot/checkout-pages/create", "",
			`{"title":"T","amount_usd":12.50,"amount_locked":false,"allowed_methods":["x402"],"expires_at":"2026-12-01T00:00:00Z","collect_buyer_name":true}`, true},
		{"list pages", func(c *client.Client) error { _, err := c.CheckoutPages(ctx); return err },
			"GET", "/api/v1/bot/checkout-pages", "", "", true},
		{"create link", func(c *client.Client) error { _, err := c.CreatePaymentLink(ctx, 50, "Tea", ""); return err },
			"POST", "/api/v1/bot/payments/create-link", "", `{"amount_usd":0.50,"description":"Tea"}`, true},
		{"list links", func(c *client.Client) error { _, err := c.PaymentLinks(ctx, client.LinkExpired, 5); return err },
			"GET", "/api/v1/bot/payments/links", "limit=5&status=expired", "", true},
		{"create invoice", func(c *client.Client) error {
			_, err := c.CreateInvoice(ctx, client.InvoiceRequest{CheckoutPageID: "cp_1", TaxUSD: &tax,
				LineItems: []client.LineItemRequest{{Description: "d", Quantity: "1.5", UnitPriceUSD: 200}}})
			return err
		}, "POST", "/api/v1/bot/invoices/create", "",
			`{"checkout_page_id":"cp_1","line_items":[{"description":"d","quantity":1.5,"unit_price_usd":2.00}],"tax_usd":0.99}`, true},
		{"list invoices", func(c *client.Client) error {
			_, err := c.Invoices(ctx, client.InvoiceFilter{Status: client.InvoicePaid, CheckoutPageID: "cp_1", Limit: 3})
			return err
		}, "GET", "/api/v1/bot/invoices", "checkout_page_id=cp_1&limit=3&status=paid", "", true},
		{"send invoice escapes the id", func(c *client.Client) error { _, err := c.SendInvoice(ctx, "inv/../x"); return err },
			"POST", "/api/v1/bot/invoices/inv%2F..%2Fx/send", "", "", true},
		{"sales", func(c *client.Client) error {
			_, err := c.Sales(ctx, client.SaleFilter{CheckoutPageID: "cp_1", Status: "confirmed", PaymentMethod: "l2_pay", Limit: 9})
			return err
		}, "GET", "/api/v1/bot/sales", "checkout_page_id=cp_1&limit=9&payment_method=l2_pay&status=confirmed", "", true},
		{"pay a page as a buyer", func(c *client.Client) error {
			_, err := c.PayCheckoutSandbox(ctx, "cp_1", client.BuyerPayment{BuyerEmail: "b@example.com", Ref: wire.Ptr("INV-2026-000001")})
			return err
		}, "POST", "/api/v1/checkout/cp_1/pay/sandbox", "", `{"buyer_email":"b@example.com","ref":"INV-2026-000001"}`, false},
		{"pay a link as a buyer", func(c *client.Client) error {
			_, err := c.PayLinkSandbox(ctx, "pl_1", client.BuyerPayment{BuyerEmail: "b@example.com", Method: wire.Ptr(client.MethodL2Pay)})
			return err
		}, "POST", "/api/v1/payment-links/pl_1/pay/sandbox", "", `{"buyer_email":"b@example.com","method":"l2_pay"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, got := fakeService(t, 200, `{}`, nil)
			key := "bp_live_key"
			if !tt.auth {
				key = ""
			}
			if err := tt.do(client.New(srv.URL, key)); err != nil {
				t.Fatal(err)
			}
			if got.method != tt.method || got.path != tt.path || got.rawQuery != tt.query || got.body != tt.body {
				t.Errorf("sent %s %s?%s %s\nwant %s %s?%s %s", got.method, got.path, got.rawQuery, got.body,
					tt.method, tt.path, tt.query, tt.body)
			}
			if a := got.header.Get("Authorization"); (a != "") != tt.auth {
				t.Errorf("Authorization = %q", a)
			}
		})
	}
}

func TestOwnerCancelsAnInvoice(t *testing.T) {
	t.Parallel()
	srv, got := fakeService(t, 200, `{"invoice_id":"inv_1","status":"cancelled"}`, nil)
	inv, err := client.NewOwner(srv.URL, "bpo_live_tok").CancelInvoice(context.Background(), "inv_1")
	if err != nil {
		t.Fatal(err)
	}
	if got.method != "POST" || got.path != "/api/v1/owner/invoices/inv_1/cancel" || inv.Status != client.InvoiceCancelled {
		t.Errorf("sent %s %s, decoded %+v", got.method, got.path, inv)
	}
}
