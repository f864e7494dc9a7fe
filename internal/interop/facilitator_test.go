package interop

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/botpay/botpay/internal/x402"
)

// TestStockExpressMiddlewareSettlesThroughBotpayIntoTheBotsWallet: a bot's
// own API behind the stock v2 express middleware, whose HTTP facilitator
// client is pointed at botpay (sandbox), is paid by the stock v2 client;
// the sale lands in the seller bot's sales once.
func TestStockExpressMiddlewareSettlesThroughBotpayIntoTheBotsWallet(t *testing.T) {
	dir := interopDir(t)
	for _, pkg := range []string{"@x402/express", "@x402/fetch", "@x402/evm", "@x402/core", "express"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			if os.Getenv("X402_INTEROP_REQUIRED") == "1" {
				t.Fatalf("npm package %s is not installed in interop/node_modules (X402_INTEROP_REQUIRED=1)", pkg)
			}
			t.Skipf("npm package %s is not installed in interop/node_modules", pkg)
		}
	}
	c := start(t)
	seller := c.walletBot("facilitated")
	secret := make([]byte, 32)
	rand.Read(secret)
	payer, err := x402.KeyFromBytes(secret)
	if err != nil {
		t.Fatal(err)
	}
	out := node(t, dir, nil, "facilitated.mjs", c.url, seller.key, seller.address, "0x"+hex.EncodeToString(secret))
	var got struct {
		Status          int            `json:"status"`
		Body            map[string]any `json:"body"`
		PaymentResponse map[string]any `json:"paymentResponse"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output %s: %v", out, err)
	}
	if got.Status != 200 || got.Body["forecast"] != "sunny" || got.PaymentResponse["success"] != true ||
		got.PaymentResponse["network"] != "eip155:8453" || got.PaymentResponse["payer"] != payer.Address().Hex() {
		t.Fatalf("stock client through the stock middleware = %s", out)
	}
	tx, _ := got.PaymentResponse["transaction"].(string)
	sales := c.call("GET", "/api/v1/bot/sales?payment_method=x402", seller.key, nil)["sales"].([]any)
	if len(sales) != 1 {
		t.Fatalf("sales = %v, want the one payment", sales)
	}
	sale := sales[0].(map[string]any)
	if sale["amount_usd"] != 0.02 || sale["tx_hash"] != tx || sale["checkout_page_id"] != nil || sale["buyer_identifier"] != payer.Address().Hex() {
		t.Fatalf("sale = %v (transaction %s)", sale, tx)
	}
	if len(tx) != 66 || tx[:2] != "0x" {
		t.Fatalf("transaction %q is no sandbox hash", tx)
	}
}
