package livetest

import (
	"math/big"
	"net/http"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// TestReadyzChecksTheChainInLiveMode: a live replica is ready only when
// its node answers for the configured chain, the token has code there and
// the relayer holds the minimum gas; otherwise 503 chain_unavailable names
// the check that failed.
func TestReadyzChecksTheChainInLiveMode(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		stranger, _ := x402.GenerateKey()
		proxy := l.node.Proxy(t)
		for _, tc := range []struct {
			name  string
			tweak func(c *settle.Chain)
			check string // "" means ready
		}{
			{"healthy", func(c *settle.Chain) {}, ""},
			{"another chain id", func(c *settle.Chain) { c.Domain.ChainID = 8453 }, settle.CheckChainID},
			{"no code at the token", func(c *settle.Chain) { c.Domain.Contract = stranger.Address() }, settle.CheckTokenCode},
			{"relayer below the minimum gas", func(c *settle.Chain) {
				c.MinRelayerGas = new(big.Int).Lsh(big.NewInt(1), 200) // more ether than exists
			}, settle.CheckRelayerGas},
			{"relayer without gas", func(c *settle.Chain) { c.Key = stranger }, settle.CheckRelayerGas},
			{"node down", func(c *settle.Chain) { c.RPC = evm.NewClient(proxy.URL) }, settle.CheckNode},
		} {
			chain := l.chain()
			tc.tweak(chain)
			opts := l.options()
			opts.Chain = chain
			replica := l.srv.Replica(t, opts)
			if tc.check == settle.CheckNode {
				proxy.Set(chaintest.Down)
			}
			code, body := call(t, replica.URL, "GET", "/readyz", "", nil)
			proxy.Set(chaintest.Healthy)
			if tc.check == "" {
				if code != http.StatusOK || body["status"] != "ready" {
					t.Errorf("%s: %d %v, want 200 ready", tc.name, code, body)
				}
				continue
			}
			if code != http.StatusServiceUnavailable || body["error"] != botpay.CodeChainUnavailable || body["check"] != tc.check {
				t.Errorf("%s: %d %v, want 503 chain_unavailable naming %s", tc.name, code, body, tc.check)
			}
		}
	})
}
