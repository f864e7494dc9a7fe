package livetest

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/mcp"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// startStockSeller runs interop/stock-seller.mjs: the stock x402 v2
// express middleware with the stock facilitator settling on l's node,
// selling GET /report for amount micro-units to payTo. It answers the
// report's URL.
func startStockSeller(t *testing.T, l *live, payTo x402.Address, amount uint64) string {
	t.Helper()
	facilitator, _ := x402.GenerateKey()
	l.node.FundGas(t, facilitator.Address())
	d := l.node.Domain()
	var started struct {
		URL string `json:"url"`
	}
	startInteropServer(t, &started, "stock-seller.mjs", l.node.URL, strconv.FormatUint(d.ChainID, 10), d.Contract.Hex(),
		chaintest.TokenName, chaintest.TokenVersion, payTo.Hex(), hexKey(facilitator), strconv.FormatUint(amount, 10))
	return started.URL
}

// payThroughSignEndpoint pays url as a bot would by hand: the 402's
// PAYMENT-REQUIRED handed to the sign endpoint as payment_required, then
// PAYMENT-SIGNATURE; it answers the decoded PAYMENT-RESPONSE.
func payThroughSignEndpoint(t *testing.T, base string, buyer bot, url string, payTo x402.Address, amount uint64) x402.SettleResponse {
	t.Helper()
	asked := testserver.CallJSON(t, "GET", url, "", nil)
	required := asked.Header.Get("PAYMENT-REQUIRED")
	if asked.Status != 402 || required == "" {
		t.Fatalf("the stock seller answered %d without PAYMENT-REQUIRED", asked.Status)
	}
	signed := must(t, base, 200, "POST", "/api/v1/processor-wallet/bot/sign", buyer.Key, map[string]any{
		"resource_url": url, "amount_usdc": amount, "recipient_address": payTo.Hex(), "payment_required": required})
	header, _ := signed["payment_signature_header"].(string)
	paid := testserver.CallJSON(t, "GET", url, "", nil, "PAYMENT-SIGNATURE", header)
	body := paid.Raw
	settled, err := x402.DecodeSettleResponse(paid.Header.Get("PAYMENT-RESPONSE"))
	if paid.Status != 200 || string(body) != `{"report":"paid"}` || err != nil || !settled.Success {
		t.Fatalf("paying with payment_signature_header: %d %s, PAYMENT-RESPONSE %+v (%v)", paid.Status, body, settled, err)
	}
	return settled
}

// payThroughMCP pays url with pay_x402_resource over /mcp (the service's
// own network) or over stdio as `botpay mcp` runs (the network asked of
// the service).
func payThroughMCP(t *testing.T, l *live, buyer bot, url, transport string) map[string]any {
	t.Helper()
	var tr sdk.Transport = &sdk.StreamableClientTransport{Endpoint: l.srv.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{key: buyer.Key, next: http.DefaultTransport}}}
	if transport == "stdio" {
		tr = stdioMCP(t, l.srv.URL, buyer.Key)
	}
	session, err := sdk.NewClient(&sdk.Implementation{Name: "livetest", Version: "test"}, nil).Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(t.Context(), &sdk.CallToolParams{Name: "pay_x402_resource", Arguments: map[string]any{"url": url}})
	if err != nil || res.IsError {
		t.Fatalf("pay_x402_resource over %s: %v %+v", transport, err, res)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	json.Unmarshal(raw, &out)
	return out
}

type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// stdioMCP runs the server of `botpay mcp` on a pair of pipes.
func stdioMCP(t *testing.T, base, key string) sdk.Transport {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	deps := &mcp.Deps{API: mcp.NetworkAPI(base, key, nil), Outbound: mcp.NewOutbound(true)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		mcp.NewServer(mcp.Fixed(deps), mcp.Options{Version: "test"}).Run(t.Context(), &sdk.IOTransport{Reader: toServer, Writer: fromServer})
	}()
	t.Cleanup(func() {
		fromClient.Close()
		toServer.Close()
		<-done
	})
	return &sdk.IOTransport{Reader: toClient, Writer: fromClient}
}

// TestBotPaysAStockV2SellerOnChain: a bot in live mode pays a stock x402
// v2 seller (the stock express middleware and the stock facilitator
// settling on the node) through the sign endpoint with payment_required,
// and through pay_x402_resource over both MCP transports; the seller's
// payTo receives exactly the price each time, on chain.
func TestBotPaysAStockV2SellerOnChain(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		buyer := walletBot(t, base, "buyer")
		l.node.Mint(t, buyer.Address, 5_000_000)
		vendor, _ := x402.GenerateKey()
		const price = 20_000
		url := startStockSeller(t, l, vendor.Address(), price)

		settled := payThroughSignEndpoint(t, base, buyer, url, vendor.Address(), price)
		if settled.Payer != buyer.Address.Hex() || settled.Network != l.node.Domain().CAIP2() {
			t.Fatalf("PAYMENT-RESPONSE = %+v", settled)
		}
		if got := l.node.Balance(t, vendor.Address()); got != price {
			t.Fatalf("the vendor holds %d on chain after the sign endpoint's payment, want %d", got, price)
		}
		for i, transport := range []string{"http", "stdio"} {
			paid := payThroughMCP(t, l, buyer, url, transport)
			settlement, _ := paid["settlement"].(map[string]any)
			if paid["outcome"] != "paid" || paid["x402_version"] != 2.0 || paid["http_status"] != 200.0 || settlement["success"] != true {
				t.Fatalf("pay_x402_resource over %s = %v", transport, paid)
			}
			if got, want := l.node.Balance(t, vendor.Address()), uint64(price*(i+2)); got != want {
				t.Fatalf("the vendor holds %d on chain after paying over %s, want %d", got, transport, want)
			}
		}
		if got := l.node.Balance(t, buyer.Address); got != 5_000_000-3*price {
			t.Fatalf("the buyer's wallet holds %d, want %d", got, 5_000_000-3*price)
		}
	})
}
