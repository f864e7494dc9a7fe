package interop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// serveNode runs a node script that serves until its stdin closes and
// answers the JSON line it prints once it listens.
func serveNode(t *testing.T, dir string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatalf("node %v: %v", args, err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	var out map[string]any
	if err != nil || json.Unmarshal(line, &out) != nil {
		t.Fatalf("node %v printed %q (%v)\n%s", args, line, err, stderr.String())
	}
	return out
}

// TestBotPaysAStockV2SellerThroughTheSignEndpoint: a sandbox bot pays an
// API behind the stock x402 v2 express middleware (its facilitator is the
// seller bot's botpay) with the header the sign endpoint made from the
// 402 it was handed, and again with the Go client; the stock middleware
// accepts both, so the echoed offer is the one it wrote.
func TestBotPaysAStockV2SellerThroughTheSignEndpoint(t *testing.T) {
	dir := interopDir(t)
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}})
		c := caller{t: t, url: srv.URL}
		seller, buyer := c.walletBot("stock-seller"), c.walletBot("stock-buyer")
		c.call("POST", "/api/v1/owner/bots/"+buyer.id+"/fund", buyer.owner, map[string]any{"amount_usd": 1, "rail": "processor_wallet"})
		url := serveNode(t, dir, "facilitated-seller.mjs", c.url, seller.key, seller.address)["url"].(string)

		asked := testserver.CallJSON(t, "GET", url, "", nil)
		signed := c.call("POST", "/api/v1/processor-wallet/bot/sign", buyer.key, map[string]any{"resource_url": url,
			"amount_usdc": 20000, "recipient_address": seller.address, "payment_required": asked.Header.Get("PAYMENT-REQUIRED")})
		paid := testserver.CallJSON(t, "GET", url, "", nil, "PAYMENT-SIGNATURE", signed["payment_signature_header"].(string))
		body := paid.Raw
		settled, err := x402.DecodeSettleResponse(paid.Header.Get("PAYMENT-RESPONSE"))
		if paid.Status != 200 || !bytes.Contains(body, []byte("sunny")) || err != nil || !settled.Success || settled.Payer != buyer.address {
			t.Fatalf("the stock middleware answered %d %s, PAYMENT-RESPONSE %+v (%v)", paid.Status, body, settled, err)
		}
		again, err := client.New(c.url, buyer.key).PayX402(t.Context(), url, nil, 20000)
		if err != nil || again.StatusCode != 200 || again.Version != 2 || again.Settlement == nil || !again.Settlement.Success {
			t.Fatalf("PayX402 = %+v, %v", again, err)
		}
		if sales := c.call("GET", "/api/v1/bot/sales?payment_method=x402", seller.key, nil)["sales"].([]any); len(sales) != 2 {
			t.Fatalf("seller's sales = %v, want the two payments", sales)
		}
	})
}

// TestStockV1LibraryReadsTheStandardHeader: the x_payment_standard_header
// the sign endpoint makes from a v1 body passes the stock x402 v1
// package's decodePayment and verifies for the requirement it pays.
func TestStockV1LibraryReadsTheStandardHeader(t *testing.T) {
	dir := interopDir(t)
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}})
		c := caller{t: t, url: srv.URL}
		buyer := c.walletBot("v1-buyer")
		c.call("POST", "/api/v1/owner/bots/"+buyer.id+"/fund", buyer.owner, map[string]any{"amount_usd": 1, "rail": "processor_wallet"})
		requirement := map[string]any{"scheme": "exact", "network": "base", "maxAmountRequired": "30000",
			"resource": "https://api.vendor.example/v1", "description": "v1 report", "mimeType": "application/json",
			"payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "maxTimeoutSeconds": 60,
			"asset": x402.BaseUSDCContract.Hex(), "extra": map[string]any{"name": "USD Coin", "version": "2"}}
		signed := c.call("POST", "/api/v1/processor-wallet/bot/sign", buyer.key, map[string]any{"resource_url": "https://api.vendor.example/v1",
			"amount_usdc": 30000, "recipient_address": requirement["payTo"],
			"payment_required": map[string]any{"x402Version": 1, "error": "X-PAYMENT header is required", "accepts": []any{requirement}}})
		in, _ := json.Marshal([]map[string]any{{"header": signed["x_payment_standard_header"], "requirement": requirement}})
		out := node(t, dir, in, "verify-v1-standard.mjs")
		var results []struct {
			Valid bool   `json:"valid"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(out, &results); err != nil || len(results) != 1 || !results[0].Valid {
			t.Fatalf("the stock v1 package answered %s", out)
		}
	})
}
