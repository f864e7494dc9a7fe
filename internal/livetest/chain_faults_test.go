package livetest

import (
	"net/http"
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
// slow, answers an HTML 502, a JSON-RPC error or a malformed result,
// signing and on-chain refunds answer 503 chain_unavailable with
// Retry-After (never 500, never insufficient_token_balance), nothing is
// sent, and the status shows the processor balance as null, never 0.
func TestChainFaultsAnswerChainUnavailable(t *testing.T) {
	chaintest.Require(t)
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		l, proxy := startBehindProxy(t, d)
		base := l.srv.URL
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
			seller, buyer := walletBot(t, base, "seller"), walletBot(t, base, "buyer")
			l.node.Mint(t, buyer.Address, 2_000_000)
			saleID := liveSale(t, l, seller, buyer, 1_000_000)
			fresh := walletBot(t, base, "fresh") // no balance of it cached
			nonce := l.node.Nonce(t, l.relayer.Address())
			proxy.Set(fault.fault)
			wantChainUnavailable(t, fault.name+": sign", base, "POST", "/api/v1/processor-wallet/bot/sign", fresh.Key,
				map[string]any{"resource_url": "https://vendor.example/x", "amount_usdc": 1000, "recipient_address": seller.Address.Hex()})
			wantChainUnavailable(t, fault.name+": refund", base, "POST", "/api/v1/bot/sales/"+saleID+"/refund", seller.Key,
				map[string]any{"reason": "fault"})
			status := must(t, base, 200, "GET", "/api/v1/bot/status", fresh.Key, nil)
			pw := status["rails"].(map[string]any)["processor_wallet"].(map[string]any)
			if v, ok := pw["balance_usd"]; !ok || v != nil {
				t.Fatalf("%s: status shows the processor balance as %v, want null", fault.name, v)
			}
			proxy.Set(chaintest.Healthy)
			if n := l.node.Nonce(t, l.relayer.Address()); n != nonce {
				t.Fatalf("%s: the relayer sent a transaction during the fault", fault.name)
			}
		}
	})
}

func wantChainUnavailable(t *testing.T, what, base, method, path, key string, body any) {
	t.Helper()
	code, m := call(t, base, method, path, key, body) // respond.go sets Retry-After with retry_after_seconds
	if code != http.StatusServiceUnavailable || m["error"] != botpay.CodeChainUnavailable || m["retry_after_seconds"] != float64(botpay.ChainRetrySeconds) {
		t.Fatalf("%s answered %d %v, want 503 chain_unavailable with a retry time", what, code, m)
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
