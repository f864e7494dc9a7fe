package livetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/suite"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// live is one live-mode service on a fresh node.
type live struct {
	t       *testing.T
	node    *chaintest.Node
	srv     *testserver.Server
	relayer x402.Key
}

// forEachEngine runs test on SQLite and PostgreSQL, each against its own
// node so balances and nonces start from zero.
func forEachEngine(t *testing.T, test func(t *testing.T, l *live)) {
	chaintest.Require(t)
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		test(t, start(t, d))
	})
}

func start(t *testing.T, d store.Dialect) *live {
	node := chaintest.Start(t)
	relayer, _ := x402.GenerateKey()
	node.FundGas(t, relayer.Address())
	l := &live{t: t, node: node, relayer: relayer}
	l.srv = testserver.Start(t, d, l.options())
	return l
}

func (l *live) options() testserver.Options {
	return testserver.Options{Limits: app.Limits{RegisterPerHour: 1000}, Chain: l.chain()}
}

func (l *live) chain() *settle.Chain {
	return &settle.Chain{RPC: l.node.RPC, Key: l.relayer, Domain: l.node.Domain(), Confirmations: 1, Poll: 20 * time.Millisecond}
}

// call sends a JSON request and decodes the answer.
func call(t testing.TB, base, method, path, token string, body any, headers ...string) (int, map[string]any) {
	t.Helper()
	code, m, _ := callWithRetryAfter(t, base, method, path, token, body, headers...)
	return code, m
}

// callWithRetryAfter is call with the answer's Retry-After header.
func callWithRetryAfter(t testing.TB, base, method, path, token string, body any, headers ...string) (int, map[string]any, string) {
	t.Helper()
	a := testserver.CallJSON(t, method, base+path, token, body, headers...)
	return a.Status, a.Body, a.Header.Get("Retry-After")
}

func must(t testing.TB, base string, want int, method, path, token string, body any) map[string]any {
	t.Helper()
	status, m := call(t, base, method, path, token, body)
	if status != want {
		t.Fatalf("%s %s = %d %v, want %d", method, path, status, m, want)
	}
	return m
}

var botSeq atomic.Int64

// bot is a claimed bot with its processor wallet.
type bot struct {
	ID, Key, Owner string
	Address        x402.Address
}

func walletBot(t testing.TB, base, name string) bot {
	t.Helper()
	n := botSeq.Add(1)
	email := func(s string) string {
		return name + s + "-" + time.Now().Format("150405.000000") + "-" + string(rune('a'+n%26)) + "@example.com"
	}
	reg := must(t, base, 201, "POST", "/api/v1/bots/register", "", map[string]any{"bot_name": name, "owner_email": email("")})
	o := must(t, base, 201, "POST", "/api/v1/owner/signup", "", map[string]any{"email": email("-o"), "password": "correct horse battery staple"})
	b := bot{ID: reg["bot_id"].(string), Key: reg["api_key"].(string), Owner: o["token"].(string)}
	must(t, base, 200, "POST", "/api/v1/owner/bots/claim", b.Owner, map[string]any{"claim_token": reg["claim_token"]})
	addr := must(t, base, 201, "POST", "/api/v1/owner/bots/"+b.ID+"/processor-wallet", b.Owner, nil)["address"].(string)
	b.Address, _ = x402.ParseAddress(addr)
	return b
}

// page creates a checkout page of the seller and returns its x402 URL.
func page(t testing.TB, base string, seller bot, usd float64) string {
	t.Helper()
	p := must(t, base, 201, "POST", "/api/v1/bot/checkout-pages/create", seller.Key, map[string]any{"title": "Report",
		"amount_usd": usd, "page_type": "digital_product", "digital_product_url": "https://files.example/report.pdf"})
	return base + "/api/v1/checkout/" + p["checkout_page_id"].(string) + "/x402"
}

// interopDir is interop/ with the stock x402 client installed.
func interopDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "interop")
	for _, pkg := range []string{"x402-fetch", "@x402/express", "@x402/core", "@x402/evm"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			if os.Getenv("CHAIN_TESTS_REQUIRED") == "1" {
				t.Fatalf("%s is not installed in interop/node_modules; run `npm ci --prefix interop`", pkg)
			}
			suite.X402Interop.Need(t, "npm package "+pkg+" is not installed in interop/node_modules")
		}
	}
	suite.X402Interop.Need(t)
	return dir
}

// stockPayment is what interop/pay.mjs reports.
type stockPayment struct {
	Status int `json:"status"`
	Body   struct {
		Status string `json:"status"`
		TxHash string `json:"tx_hash"`
		SaleID string `json:"sale_id"`
		Error  string `json:"error"`
	} `json:"body"`
	PaymentResponse *struct {
		Success     bool   `json:"success"`
		Transaction string `json:"transaction"`
		Network     string `json:"network"`
		Payer       string `json:"payer"`
	} `json:"paymentResponse"`
	XPayment string `json:"xPayment"`
}

// payWithStockClient pays url with x402-fetch signing as key on Base Sepolia.
func payWithStockClient(t *testing.T, url string, key x402.Key) stockPayment {
	t.Helper()
	var p stockPayment
	runInteropScript(t, &p, "pay.mjs", url, "0x"+strings.TrimPrefix(hexKey(key), "0x"), "base-sepolia")
	return p
}

// runInteropScript runs a node script of interop/ and decodes the JSON it
// prints into answer.
func runInteropScript(t *testing.T, answer any, script string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "node", append([]string{script}, args...)...)
	cmd.Dir = interopDir(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s\n%s", script, err, out, stderr.String())
	}
	if err := json.Unmarshal(out, answer); err != nil {
		t.Fatalf("%s answered %s", script, out)
	}
}

// startInteropServer runs a node script of interop/ that serves until its
// stdin closes, and decodes the JSON line it prints once it listens into
// answer. The script ends with the test.
func startInteropServer(t *testing.T, answer any, script string, args ...string) {
	t.Helper()
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Dir = interopDir(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil && t.Failed() {
			t.Logf("%s: %v\n%s", script, err, stderr.String())
		}
	})
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil || json.Unmarshal(line, answer) != nil {
		t.Fatalf("%s printed %q (%v)\n%s", script, line, err, stderr.String())
	}
}

func hexKey(k x402.Key) string {
	const digits = "0123456789abcdef"
	b := k.Bytes()
	out := make([]byte, 0, 66)
	out = append(out, '0', 'x')
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
