package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// TestJSONRPCSettlerPaysThroughTheNode runs the service with the production
// settler against a local fake EVM node: the sale carries the node's
// transaction hash, and a node failure releases the authorization so the
// payer can present it again.
func TestJSONRPCSettlerPaysThroughTheNode(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			var failing atomic.Bool
			var sends atomic.Int32
			hash := "0x" + strings.Repeat("cd", 32)
			node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req struct {
					ID     int    `json:"id"`
					Method string `json:"method"`
				}
				json.NewDecoder(r.Body).Decode(&req)
				reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
				switch {
				case req.Method == "eth_sendTransaction" && failing.Load():
					reply["error"] = map[string]any{"code": -32000, "message": "nonce too low"}
				case req.Method == "eth_sendTransaction":
					sends.Add(1)
					reply["result"] = hash
				default:
					reply["result"] = map[string]any{"status": "0x1"}
				}
				json.NewEncoder(w).Encode(reply)
			}))
			defer node.Close()
			opts := x402Opts
			opts.Settler = settle.JSONRPC{URL: node.URL, Poll: time.Millisecond}
			r := raw{t: t, srv: testserver.Start(t, d, opts)}
			seller := r.walletBot("seller", 0)
			path := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
			_, header := outsider(t, seller.Address, 50000, time.Now().Unix()+60)

			failing.Store(true)
			if a := r.do("GET", path, "", nil, "X-PAYMENT", header); a.Status != 402 || a.json(t)["error"] != "settlement_failed" {
				t.Fatalf("node failing: %d %s", a.Status, a.Body)
			}
			failing.Store(false)
			a := r.do("GET", path, "", nil, "X-PAYMENT", header)
			if a.Status != 200 || a.json(t)["tx_hash"] != hash {
				t.Fatalf("pay: %d %s", a.Status, a.Body)
			}
			if again := r.do("GET", path, "", nil, "X-PAYMENT", header); again.Status != 200 || string(again.Body) != string(a.Body) || sends.Load() != 1 {
				t.Fatalf("replay: %d %s (sends %d)", again.Status, again.Body, sends.Load())
			}
			_ = x402.Network
		})
	}
}
