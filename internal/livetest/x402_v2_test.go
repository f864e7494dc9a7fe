package livetest

import (
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/x402"
)

// stockV2Payment is what interop/pay-v2.mjs reports.
type stockV2Payment struct {
	Status int `json:"status"`
	Body   struct {
		Status string `json:"status"`
		TxHash string `json:"tx_hash"`
		SaleID string `json:"sale_id"`
		Error  string `json:"error"`
	} `json:"body"`
	PaymentResponse  *x402.SettleResponse `json:"paymentResponse"`
	XPaymentResponse *x402.SettleResponse `json:"xPaymentResponse"`
	PaymentSignature string               `json:"paymentSignature"`
	Error            string               `json:"error"`
}

// payWithStockV2Client pays url with the stock x402 v2 client (only the v2
// exact scheme registered) signing as key; paymentID, when set, rides in
// the payment-identifier extension.
func payWithStockV2Client(t *testing.T, url string, key x402.Key, paymentID string) stockV2Payment {
	t.Helper()
	args := []string{url, hexKey(key)}
	if paymentID != "" {
		args = append(args, paymentID)
	}
	var p stockV2Payment
	runInteropScript(t, &p, "pay-v2.mjs", args...)
	return p
}

// TestStockV2ClientPaysPageAndInvoiceOnChain: the stock v2 client pays a
// live checkout page and an invoice on the node; the seller gains exactly
// the prices, a replayed PAYMENT-SIGNATURE sends no second transaction, and
// a payment identifier reused with another authorization answers 409 and
// sends nothing.
func TestStockV2ClientPaysPageAndInvoiceOnChain(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller := walletBot(t, base, "seller")
		url := page(t, base, seller, 0.25)
		payer, _ := x402.GenerateKey()
		l.node.Mint(t, payer.Address(), 5_000_000)

		paid := payWithStockV2Client(t, url, payer, "live-order-000000000001")
		pr := paid.PaymentResponse
		if paid.Status != 200 || pr == nil || !pr.Success || pr.Network != "eip155:84532" || pr.Amount != "250000" ||
			pr.Transaction != paid.Body.TxHash || paid.XPaymentResponse == nil || paid.XPaymentResponse.Network != "base-sepolia" {
			t.Fatalf("stock v2 payment: %+v", paid)
		}
		if got := l.node.Balance(t, seller.Address); got != 250_000 {
			t.Fatalf("seller balance %d, want 250000", got)
		}
		status, again := call(t, base, "GET", url[len(base):], "", nil, "PAYMENT-SIGNATURE", paid.PaymentSignature)
		if status != 200 || again["sale_id"] != paid.Body.SaleID {
			t.Fatalf("replay = %d %v", status, again)
		}
		reused := payWithStockV2Client(t, url, payer, "live-order-000000000001")
		if reused.Status != 409 || reused.Body.Error != "payment_identifier_reused" {
			t.Fatalf("reused identifier: %+v", reused)
		}
		if n := l.node.Nonce(t, l.relayer.Address()); n != 1 {
			t.Fatalf("relayer nonce %d after a replay and a reused identifier", n)
		}

		pageID := strings.TrimSuffix(strings.TrimPrefix(url, base+"/api/v1/checkout/"), "/x402")
		inv := must(t, base, 201, "POST", "/api/v1/bot/invoices/create", seller.Key, map[string]any{"checkout_page_id": pageID,
			"line_items": []any{map[string]any{"description": "Work", "quantity": 1, "unit_price_usd": 1.5}}})
		invoiceURL := url + "?" + strings.SplitN(inv["payment_url"].(string), "?", 2)[1]
		if p := payWithStockV2Client(t, invoiceURL, payer, ""); p.Status != 200 || p.PaymentResponse == nil || p.PaymentResponse.Amount != "1500000" {
			t.Fatalf("invoice: %+v", p)
		}
		if got := l.node.Balance(t, seller.Address); got != 1_750_000 {
			t.Fatalf("seller balance %d, want 1750000", got)
		}
		if sales := must(t, base, 200, "GET", "/api/v1/bot/sales", seller.Key, nil)["sales"].([]any); len(sales) != 2 {
			t.Fatalf("sales = %v", sales)
		}
	})
}

// paymentLink creates a payment link of the seller and returns its id and
// x402 URL.
func paymentLink(t testing.TB, base string, seller bot, usd float64) (string, string) {
	t.Helper()
	id := must(t, base, 201, "POST", "/api/v1/bot/payments/create-link", seller.Key, map[string]any{"amount_usd": usd,
		"description": "Consulting"})["payment_link_id"].(string)
	return id, base + "/api/v1/payment-links/" + id + "/x402"
}

// TestStockV2ClientPaysAPaymentLinkOnChainOnce: the stock v2 client pays a
// live payment link on the node, to the seller's processor wallet; the
// link completes, a replayed PAYMENT-SIGNATURE sends no second
// transaction, and a second payer is refused before it signs.
func TestStockV2ClientPaysAPaymentLinkOnChainOnce(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller := walletBot(t, base, "seller")
		id, url := paymentLink(t, base, seller, 0.75)
		payer, _ := x402.GenerateKey()
		l.node.Mint(t, payer.Address(), 5_000_000)
		paid := payWithStockV2Client(t, url, payer, "")
		if pr := paid.PaymentResponse; paid.Status != 200 || paid.Body.Status != "completed" || pr == nil || !pr.Success ||
			pr.Amount != "750000" || pr.Transaction != paid.Body.TxHash {
			t.Fatalf("stock v2 payment of a link: %+v", paid)
		}
		status, again := call(t, base, "POST", url[len(base):], "", nil, "PAYMENT-SIGNATURE", paid.PaymentSignature)
		if status != 200 || again["sale_id"] != paid.Body.SaleID || again["payment_link_id"] != id {
			t.Fatalf("replay = %d %v", status, again)
		}
		late, _ := x402.GenerateKey()
		l.node.Mint(t, late.Address(), 5_000_000)
		if p := payWithStockV2Client(t, url, late, ""); p.Status != 409 || p.Body.Error != "payment_link_not_pending" || p.PaymentSignature != "" {
			t.Fatalf("a second payer at the paid link: %+v", p)
		}
		if got := l.node.Balance(t, seller.Address); got != 750_000 {
			t.Fatalf("seller balance %d, want 750000", got)
		}
		if n := l.node.Nonce(t, l.relayer.Address()); n != 1 {
			t.Fatalf("relayer nonce %d after a replay and a refused payer", n)
		}
		links := must(t, base, 200, "GET", "/api/v1/bot/payments/links?status=completed", seller.Key, nil)["payment_links"].([]any)
		if len(links) != 1 || links[0].(map[string]any)["paid_at"] == nil {
			t.Fatalf("completed links = %v", links)
		}
	})
}
