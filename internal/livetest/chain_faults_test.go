package livetest

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// TestChainFaultsAnswerChainUnavailable: with a node that is down, too
// slow, answers an HTML 502, a JSON-RPC error or a malformed result, every
// route that reads the chain answers 503 chain_unavailable with
// Retry-After (never 500, never a refusal such as
// insufficient_token_balance or a 402), nothing is sent, and the routes
// that show the processor balance show it as unknown, never 0. A buyer's
// payment refused that way pays once the node is back.
func TestChainFaultsAnswerChainUnavailable(t *testing.T) {
	chaintest.Require(t)
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		l, proxy := startBehindProxy(t, d)
		for _, fault := range []struct {
			name  string
			fault chaintest.Fault
		}{
			{"node down", chaintest.Down},
			{"timeout", chaintest.Slow},
			{"HTML 502", chaintest.HTMLError},
			{"JSON-RPC error", chaintest.RPCError},
			{"malformed answer", chaintest.Malformed},
		} {
			proxy.Set(chaintest.Healthy)
			f := newFaultFixture(t, l)
			nonce := l.node.Nonce(t, l.relayer.Address())
			proxy.Set(fault.fault)
			for _, route := range chainRoutes {
				route.check(t, fault.name+": "+route.name, l.srv.URL, f)
			}
			proxy.Set(chaintest.Healthy)
			if n := l.node.Nonce(t, l.relayer.Address()); n != nonce {
				t.Fatalf("%s: the relayer sent a transaction during the fault", fault.name)
			}
			for _, url := range []string{f.pageURL, f.invoiceURL} {
				if code, body := call(t, l.srv.URL, "GET", url, "", nil, "X-PAYMENT", f.payments[url]); code != http.StatusOK {
					t.Fatalf("%s: the same payment once the node is back: %d %v", fault.name, code, body)
				}
			}
		}
	})
}

// faultFixture is what the routes of chainRoutes act on, made while the
// node is healthy.
type faultFixture struct {
	seller, fresh       bot // fresh: a processor wallet whose balance is not cached
	saleID              string
	pageURL, invoiceURL string            // paths of the page's and an invoice's x402 routes
	payments            map[string]string // an X-PAYMENT for each of them
}

func newFaultFixture(t *testing.T, l *live) faultFixture {
	base := l.srv.URL
	f := faultFixture{seller: walletBot(t, base, "seller"), payments: map[string]string{}}
	buyer := walletBot(t, base, "buyer")
	l.node.Mint(t, buyer.Address, 2_000_000)
	f.saleID = liveSale(t, l, f.seller, buyer, 1_000_000)
	f.fresh = walletBot(t, base, "fresh")
	f.pageURL = page(t, base, f.seller, 0.5)[len(base):]
	pageID := strings.TrimSuffix(strings.TrimPrefix(f.pageURL, "/api/v1/checkout/"), "/x402")
	inv := must(t, base, 201, "POST", "/api/v1/bot/invoices/create", f.seller.Key, map[string]any{"checkout_page_id": pageID,
		"line_items": []any{map[string]any{"description": "Work", "quantity": 1, "unit_price_usd": 0.25}}})
	f.invoiceURL = f.pageURL + "?" + strings.SplitN(inv["payment_url"].(string), "?", 2)[1]
	payer, _ := x402.GenerateKey()
	l.node.Mint(t, payer.Address(), 1_000_000)
	f.payments[f.pageURL] = sign(l, payer, f.seller.Address, 500_000)
	f.payments[f.invoiceURL] = sign(l, payer, f.seller.Address, 250_000)
	return f
}

// chainRoutes are the routes that read the chain, each with what it must
// answer while the node fails.
var chainRoutes = []struct {
	name  string
	check func(t *testing.T, what, base string, f faultFixture)
}{
	{"sign", func(t *testing.T, what, base string, f faultFixture) {
		wantChainUnavailable(t, what, base, "POST", "/api/v1/processor-wallet/bot/sign", f.fresh.Key,
			map[string]any{"resource_url": "https://vendor.example/x", "amount_usdc": 1000, "recipient_address": f.seller.Address.Hex()})
	}},
	{"sale refund", func(t *testing.T, what, base string, f faultFixture) {
		wantChainUnavailable(t, what, base, "POST", "/api/v1/bot/sales/"+f.saleID+"/refund", f.seller.Key, map[string]any{"reason": "fault"})
	}},
	{"checkout page payment", func(t *testing.T, what, base string, f faultFixture) {
		wantChainUnavailable(t, what, base, "GET", f.pageURL, "", nil, "X-PAYMENT", f.payments[f.pageURL])
	}},
	{"invoice payment", func(t *testing.T, what, base string, f faultFixture) {
		wantChainUnavailable(t, what, base, "GET", f.invoiceURL, "", nil, "X-PAYMENT", f.payments[f.invoiceURL])
	}},
	{"status", func(t *testing.T, what, base string, f faultFixture) {
		status := must(t, base, 200, "GET", "/api/v1/bot/status", f.fresh.Key, nil)
		pw := status["rails"].(map[string]any)["processor_wallet"].(map[string]any)
		if v, ok := pw["balance_usd"]; !ok || v != nil {
			t.Fatalf("%s shows the processor balance as %v, want null", what, v)
		}
	}},
	{"dashboard wallet", func(t *testing.T, what, base string, f faultFixture) {
		code, page := call(t, base, "GET", "/dashboard/bots/"+f.fresh.ID, "", nil, "Cookie", "botpay_session="+f.fresh.Owner)
		html, _ := page["_raw"].(string)
		if code != http.StatusOK || !strings.Contains(html, `data-testid="usdc-balance">unknown`) {
			t.Fatalf("%s: %d, want the processor balance shown as unknown:\n%s", what, code, html)
		}
	}},
}

func wantChainUnavailable(t *testing.T, what, base, method, path, key string, body any, headers ...string) {
	t.Helper()
	code, m, retryAfter := callWithRetryAfter(t, base, method, path, key, body, headers...)
	if code != http.StatusServiceUnavailable || m["error"] != botpay.CodeChainUnavailable ||
		m["retry_after_seconds"] != float64(botpay.ChainRetrySeconds) || retryAfter != strconv.Itoa(botpay.ChainRetrySeconds) {
		t.Fatalf("%s answered %d %v (Retry-After %q), want 503 chain_unavailable with a retry time", what, code, m, retryAfter)
	}
}

// startBehindProxy is start with the service's chain reached through a
// fault-injecting proxy, with a client timeout below chaintest.SlowFor.
func startBehindProxy(t *testing.T, d store.Dialect) (*live, *chaintest.FaultProxy) {
	node := chaintest.Start(t)
	relayer, _ := x402.GenerateKey()
	node.FundGas(t, relayer.Address())
	l := &live{t: t, node: node, relayer: relayer}
	proxy := node.Proxy(t)
	chain := l.chain()
	chain.RPC = &evm.Client{URL: proxy.URL, HTTP: &http.Client{Timeout: chaintest.SlowFor - 2*time.Second}}
	opts := l.options()
	opts.Chain = chain
	l.srv = testserver.Start(t, d, opts)
	return l, proxy
}
