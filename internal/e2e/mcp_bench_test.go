package e2e

import (
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/internal/testserver"
)

// BenchmarkMCPCheckWallet measures check_wallet through POST /mcp (one
// stateless request per call), with the Go SDK client and as a bare POST,
// beside GET /api/v1/bot/wallet/check, the call it makes in-process, on
// SQLite: the differences are what MCP costs on each side.
func BenchmarkMCPCheckWallet(b *testing.B) {
	srv := testserver.Start(b, "sqlite", testserver.Options{})
	r := raw{t: b, srv: srv}
	bot := r.claimedBot("bench")
	b.Run("sdk-client", func(b *testing.B) {
		cl := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "test"}, nil)
		session, err := cl.Connect(b.Context(), &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp",
			HTTPClient: &http.Client{Transport: bearerTransport{key: bot.APIKey, next: srv.HTTP.Client().Transport}}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer session.Close()
		for b.Loop() {
			res, err := session.CallTool(b.Context(), &sdk.CallToolParams{Name: "check_wallet", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				b.Fatalf("check_wallet: %v %v", err, res)
			}
		}
	})
	b.Run("post", func(b *testing.B) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_wallet","arguments":{}}}`
		for b.Loop() {
			if a := r.do("POST", "/mcp", bot.APIKey, body, "Accept", "application/json, text/event-stream"); a.Status != 200 {
				b.Fatalf("%d %s", a.Status, a.Body)
			}
		}
	})
	b.Run("endpoint", func(b *testing.B) {
		for b.Loop() {
			if a := r.do("GET", "/api/v1/bot/wallet/check", bot.APIKey, nil); a.Status != 200 {
				b.Fatalf("wallet/check: %d", a.Status)
			}
		}
	})
}
