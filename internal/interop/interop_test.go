package interop

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/suite"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// interopDir is the repository's interop/ folder with its node_modules.
func interopDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "interop")
	if _, err := exec.LookPath("node"); err != nil {
		suite.X402Interop.Need(t, "node is not installed")
	}
	for _, pkg := range []string{"viem", "x402-fetch", "@x402/fetch", "@x402/evm"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			suite.X402Interop.Need(t, "npm package "+pkg+" is not installed in interop/node_modules")
		}
	}
	suite.X402Interop.Need(t)
	return dir
}

func node(t *testing.T, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "node", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %v: %v\nstdout: %s\nstderr: %s", args, err, out, stderr.String())
	}
	return out
}

type caller struct {
	t   *testing.T
	url string
}

func (c caller) call(method, path, token string, body any) map[string]any {
	c.t.Helper()
	a := testserver.CallJSON(c.t, method, c.url+path, token, body)
	if a.Status >= 300 {
		c.t.Fatalf("%s %s = %d %s", method, path, a.Status, a.Raw)
	}
	return a.Body
}

type bot struct{ id, key, owner, address string }

func (c caller) walletBot(name string) bot {
	suffix := hex.EncodeToString([]byte(time.Now().Format("150405.000000")))
	reg := c.call("POST", "/api/v1/bots/register", "", map[string]any{"bot_name": name, "owner_email": name + suffix + "@example.com"})
	o := c.call("POST", "/api/v1/owner/signup", "", map[string]any{"email": name + suffix + "-o@example.com", "password": "correct horse battery staple"})
	b := bot{id: reg["bot_id"].(string), key: reg["api_key"].(string), owner: o["token"].(string)}
	c.call("POST", "/api/v1/owner/bots/claim", b.owner, map[string]any{"claim_token": reg["claim_token"]})
	b.address = c.call("POST", "/api/v1/owner/bots/"+b.id+"/processor-wallet", b.owner, nil)["address"].(string)
	return b
}

func start(t *testing.T) caller {
	srv := testserver.Start(t, store.SQLite, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}})
	return caller{t: t, url: srv.URL}
}

// TestViemVerifiesSignaturesOfTheSignEndpoint: every signature the sign
// endpoint hands out verifies with viem's verifyTypedData, in both the
// nested x402 payload and the flat fields of the header.
func TestViemVerifiesSignaturesOfTheSignEndpoint(t *testing.T) {
	dir := interopDir(t)
	c := start(t)
	b := c.walletBot("viem")
	c.call("POST", "/api/v1/owner/bots/"+b.id+"/fund", b.owner, map[string]any{"amount_usd": 50, "rail": "processor_wallet"})
	type item struct {
		Address string `json:"address"`
		Header  string `json:"header"`
	}
	var items []item
	for _, amount := range []int64{1, 999_999, 1_000_000, 12_345_678} {
		res := c.call("POST", "/api/v1/processor-wallet/bot/sign", b.key, map[string]any{"resource_url": "https://vendor.example/r",
			"amount_usdc": amount, "recipient_address": "0x209693bc6afc0c5328ba36faf03c514ef312287c"})
		items = append(items, item{Address: b.address, Header: res["x_payment_header"].(string)})
	}
	in, _ := json.Marshal(items)
	out := node(t, dir, in, "verify.mjs")
	var results []struct{ Valid bool }
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(items) {
		t.Fatalf("viem answered %s", out)
	}
	for i, r := range results {
		if !r.Valid {
			t.Fatalf("viem rejects signature %d: %s", i, out)
		}
	}
}

// TestStockX402FetchPaysACheckoutPage: the x402-fetch client reads the 402
// requirements of a running server, signs with its own key and gets the
// product URL in the settlement answer.
func TestStockX402FetchPaysACheckoutPage(t *testing.T) {
	dir := interopDir(t)
	c := start(t)
	seller := c.walletBot("seller")
	page := c.call("POST", "/api/v1/bot/checkout-pages/create", seller.key, map[string]any{"title": "Report", "amount_usd": 0.25,
		"page_type": "digital_product", "digital_product_url": "https://files.example/report.pdf"})
	url := c.url + "/api/v1/checkout/" + page["checkout_page_id"].(string) + "/x402"
	key, _ := x402.GenerateKey()
	out := node(t, dir, nil, "pay.mjs", url, "0x"+hex.EncodeToString(key.Bytes()))
	var res struct {
		Status int `json:"status"`
		Body   struct {
			Status  string `json:"status"`
			TxHash  string `json:"tx_hash"`
			Product struct{ URL, Type string }
		} `json:"body"`
		PaymentResponse struct {
			Success bool   `json:"success"`
			Payer   string `json:"payer"`
		} `json:"paymentResponse"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("x402-fetch answered %s", out)
	}
	if res.Status != 200 || res.Body.Status != "confirmed" || res.Body.Product.URL != "https://files.example/report.pdf" ||
		!res.PaymentResponse.Success || !strings.EqualFold(res.PaymentResponse.Payer, key.Address().Hex()) {
		t.Fatalf("x402-fetch payment: %s", out)
	}
	sales := c.call("GET", "/api/v1/bot/sales", seller.key, nil)["sales"].([]any)
	if len(sales) != 1 || sales[0].(map[string]any)["tx_hash"] != res.Body.TxHash {
		t.Fatalf("sales = %v", sales)
	}
}
