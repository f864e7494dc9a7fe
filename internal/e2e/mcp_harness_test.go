package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/internal/mcp"
)

// mcpTransports are the two ways an agent reaches the tools: streamable
// HTTP at /mcp of the running service (tools served in-process), and the
// stdio server of `botpay mcp` (tools calling the service over the network).
var mcpTransports = []string{"http", "stdio"}

// agent is an MCP client session of one bot, beside a plain HTTP caller of
// the same bot for the endpoints its tools must match.
type agent struct {
	t       *testing.T
	session *sdk.ClientSession
	raw     raw
	key     string
}

// mcpAgent connects an MCP client to the tools as the bot whose key is
// apiKey, over transport.
func (h *harness) mcpAgent(t *testing.T, transport, apiKey string) agent {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "botpay-e2e", Version: "test"}, nil)
	var tr sdk.Transport
	switch transport {
	case "http":
		tr = &sdk.StreamableClientTransport{Endpoint: h.srv.URL + "/mcp",
			HTTPClient: &http.Client{Transport: bearerTransport{key: apiKey, next: h.srv.HTTP.Client().Transport}}}
	case "stdio":
		tr = h.stdioServer(t, apiKey)
	default:
		t.Fatalf("unknown transport %q", transport)
	}
	session, err := c.Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatalf("connect over %s: %v", transport, err)
	}
	t.Cleanup(func() { session.Close() })
	return agent{t: t, session: session, raw: raw{t: t, srv: h.srv}, key: apiKey}
}

// stdioServer runs the server of `botpay mcp` on the two ends of a pair of
// pipes (the framing of stdin and stdout) and returns the client's ends.
func (h *harness) stdioServer(t *testing.T, apiKey string) sdk.Transport {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	// The zero Payment, as `botpay mcp` runs without --x402-network: the
	// network is asked of the service.
	deps := &mcp.Deps{API: mcp.NetworkAPI(h.srv.URL, apiKey, h.srv.HTTP.Client()), Outbound: mcp.NewOutbound(true)}
	server := mcp.NewServer(mcp.Fixed(deps), mcp.Options{Version: "test"})
	done := make(chan struct{})
	go func() {
		defer close(done)
		server.Run(t.Context(), &sdk.IOTransport{Reader: toServer, Writer: fromServer})
	}()
	t.Cleanup(func() {
		fromClient.Close()
		toServer.Close()
		<-done
	})
	return &sdk.IOTransport{Reader: toClient, Writer: fromClient}
}

// bearerTransport sends the bot's key with every request to /mcp.
type bearerTransport struct {
	key  string
	next http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// call calls a tool; a protocol error fails the test (refusals are results).
func (a agent) call(name string, args map[string]any) *sdk.CallToolResult {
	a.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res, err := a.session.CallTool(a.t.Context(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: protocol error %v", name, err)
	}
	return res
}

// ok calls a tool that must succeed and returns its structured output.
func (a agent) ok(name string, args map[string]any) map[string]any {
	a.t.Helper()
	res := a.call(name, args)
	if res.IsError {
		a.t.Fatalf("%s(%v) is an error: %s", name, args, texts(res))
	}
	return object(a.t, name, res.StructuredContent)
}

// refused calls a tool that must be refused and returns the error body.
func (a agent) refused(name string, args map[string]any, code string) map[string]any {
	a.t.Helper()
	res := a.call(name, args)
	if !res.IsError {
		a.t.Fatalf("%s(%v) succeeded, want refusal %s: %s", name, args, code, texts(res))
	}
	body := errorBody(a.t, res)
	if body["error"] != code {
		a.t.Fatalf("%s refused with %v, want %s: %s", name, body["error"], code, texts(res))
	}
	return body
}

// errorBody is the JSON error body that leads an error result.
func errorBody(t *testing.T, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("error result without content")
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("error result content is %T", res.Content[0])
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(text.Text), &body); err != nil {
		t.Fatalf("error result text is not JSON: %q", text.Text)
	}
	return body
}

// texts joins the text blocks of a result.
func texts(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func object(t *testing.T, what string, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: structured output is %T, want an object", what, v)
	}
	return m
}

// endpoint calls the bot API as the agent's bot and decodes the JSON body.
func (a agent) endpoint(method, path string, body any, headers ...string) (int, any) {
	a.t.Helper()
	ans := a.raw.do(method, path, a.key, body, headers...)
	var v any
	if err := json.Unmarshal(ans.Body, &v); err != nil {
		a.t.Fatalf("%s %s: %d %s is not JSON", method, path, ans.Status, ans.Body)
	}
	return ans.Status, v
}

// sameAnswer checks that a tool's structured output is the endpoint's body.
func sameAnswer(t *testing.T, tool string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s answered\n  %s\nthe endpoint answered\n  %s", tool, g, w)
	}
}
