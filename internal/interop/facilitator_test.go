package interop

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// TestStockExpressMiddlewareSettlesThroughBotpayIntoTheBotsWallet: a bot's
// own API behind the stock v2 express middleware, whose HTTP facilitator
// client is pointed at botpay (sandbox), is paid by the stock v2 client on
// both engines; the sale lands in the seller bot's wallet and sales once.
// The facilitator refuses a foreign payTo (invalid_payee), a caller
// without a key (401), and a failed settle still names its transaction
// ("") and network, which the stock middleware reads.
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
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}})
		c := caller{t: t, url: srv.URL}
		seller := c.walletBot("facilitated")
		stockMiddlewareSettles(t, dir, c, seller)
		facilitatorRefuses(t, c, seller, c.walletBot("other"))
	})
}

func stockMiddlewareSettles(t *testing.T, dir string, c caller, seller bot) {
	t.Helper()
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
	// The sandbox credits the sale to the seller's wallet with its ledger row.
	if w := c.call("GET", "/api/v1/bot/wallet/check", seller.key, nil); w["balance_usd"] != 0.02 {
		t.Fatalf("seller's wallet after the sale: %v", w)
	}
}

// facilitatorCall is what stock v2 middleware sends for a payment to payTo.
func facilitatorCall(payTo string) map[string]any {
	key, _ := x402.GenerateKey()
	to, _ := x402.ParseAddress(payTo)
	var nonce x402.Nonce
	rand.Read(nonce[:])
	a := x402.Authorization{From: key.Address(), To: to, Value: 20_000, ValidBefore: uint64(time.Now().Unix() + 600), Nonce: nonce}
	p := x402.Payment{Authorization: a, Signature: key.Sign(x402.BaseUSDC.Digest(a))}
	offer := x402.ExactUSDCOffer(x402.BaseUSDC, 20_000, to, 300)
	payload := x402.NewPaymentPayloadV2(p, offer, &x402.ResourceInfo{URL: "https://api.seller.example/weather"}, nil)
	return map[string]any{"x402Version": 2, "paymentPayload": payload, "paymentRequirements": offer}
}

// facilitatorPost calls the facilitator as the stock HTTP client does and
// answers the status and the JSON body.
func facilitatorPost(t *testing.T, c caller, method, path, key string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.url+"/api/v1/x402/facilitator/"+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	data, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s %s answered %d %s", method, path, resp.StatusCode, data)
	}
	return resp.StatusCode, m
}

func facilitatorRefuses(t *testing.T, c caller, seller, other bot) {
	t.Helper()
	foreign := facilitatorCall(other.address)
	if status, v := facilitatorPost(t, c, "POST", "verify", seller.key, foreign); status != 200 || v["isValid"] != false ||
		v["invalidReason"] != "invalid_payee" {
		t.Fatalf("verify of a foreign payTo = %d %v", status, v)
	}
	status, settled := facilitatorPost(t, c, "POST", "settle", seller.key, foreign)
	tx, hasTx := settled["transaction"]
	if status != 200 || settled["success"] != false || settled["errorReason"] != "invalid_payee" || !hasTx || tx != "" ||
		settled["network"] != "eip155:8453" {
		t.Fatalf("a failed settle = %d %v, want success false with transaction \"\" and the network", status, settled)
	}
	for _, call := range []struct {
		method, path string
		body         any
	}{{"GET", "supported", nil}, {"POST", "verify", facilitatorCall(seller.address)}, {"POST", "settle", facilitatorCall(seller.address)}} {
		if status, _ := facilitatorPost(t, c, call.method, call.path, "", call.body); status != 401 {
			t.Fatalf("%s %s without a key = %d, want 401", call.method, call.path, status)
		}
	}
	if sales := c.call("GET", "/api/v1/bot/sales", seller.key, nil)["sales"].([]any); len(sales) != 1 {
		t.Fatalf("%d sales after refused calls, want the one payment", len(sales))
	}
}
