package e2e

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
	`"capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`

// postMCP sends one JSON-RPC message to /mcp with the given bearer.
func postMCP(t *testing.T, srv *testserver.Server, bearer, body string) answer {
	t.Helper()
	headers := []string{"Accept", "application/json, text/event-stream"}
	if bearer != "" {
		headers = append(headers, "Authorization", "Bearer "+bearer)
	}
	r := raw{t: t, srv: srv}
	return r.do("POST", "/mcp", "", body, headers...)
}

// revokeKey revokes a bot's API key the way its owner does: a rotation
// with no grace period.
func revokeKey(t *testing.T, h *harness, c claimed) {
	t.Helper()
	(raw{t: t, srv: h.srv}).must(200, "POST", "/api/v1/owner/bots/"+c.reg.BotID+"/api-key/rotate", c.sess.Token,
		map[string]any{"grace_seconds": 0})
}

// A missing, malformed, unknown or revoked key gets 401 with the
// service's error body before any MCP exchange: no initialize answer, no
// tool list, and the Go SDK client cannot connect.
func mcpWithoutAValidKeyGetsNoTool(t *testing.T, h *harness) {
	c := h.claimedBot("revoked")
	if got := postMCP(t, h.srv, c.reg.APIKey, mcpInitialize); got.Status != 200 || !strings.Contains(string(got.Body), `"jsonrpc"`) {
		t.Fatalf("a valid key: %d %s", got.Status, got.Body)
	}
	revokeKey(t, h, c)
	for name, key := range map[string]string{"missing": "", "malformed": "not-a-key",
		"unknown": "bp_live_" + strings.Repeat("ab", 24), "revoked": c.reg.APIKey} {
		for _, body := range []string{mcpInitialize, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`} {
			got := postMCP(t, h.srv, key, body)
			var e map[string]any
			json.Unmarshal(got.Body, &e)
			if got.Status != 401 || e["error"] != "Authentication required" || got.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("%s key: %d %s, want 401 Authentication required", name, got.Status, got.Body)
			}
		}
	}
	cl := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "test"}, nil)
	_, err := cl.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: h.srv.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{key: c.reg.APIKey, next: h.srv.HTTP.Client().Transport}}}, nil)
	if err == nil {
		t.Error("the Go SDK client connected with a revoked key")
	}
}

// swappableBearer sends whichever key is current, so one MCP client can
// go on with another bot's key.
type swappableBearer struct {
	mu   sync.Mutex
	key  string
	next http.RoundTripper
}

func (s *swappableBearer) set(key string) { s.mu.Lock(); s.key = key; s.mu.Unlock() }

func (s *swappableBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	return bearerTransport{key: key, next: s.next}.RoundTrip(r)
}

// Nothing of a connection outlives its request: a client that goes on with
// another bot's key acts as that bot, never as the bot it connected as, and
// once its key is revoked it is refused at once.
func mcpActsOnlyAsTheBotOfEachRequestsKey(t *testing.T, h *harness) {
	alice, bob := h.claimedBot("alice"), h.claimedBot("bob")
	h.fund(alice, client.Dollars(40, 0))
	bearer := &swappableBearer{key: alice.reg.APIKey, next: h.srv.HTTP.Client().Transport}
	cl := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "test"}, nil)
	session, err := cl.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: h.srv.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearer}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	a := agent{t: t, session: session, raw: raw{t: t, srv: h.srv}, key: alice.reg.APIKey}
	if got := a.ok("get_status", nil)["bot_id"]; got != alice.reg.BotID {
		t.Fatalf("as alice: bot_id %v", got)
	}
	bearer.set(bob.reg.APIKey)
	if got := a.ok("get_status", nil)["bot_id"]; got != bob.reg.BotID {
		t.Fatalf("with bob's key the session acted as %v", got)
	}
	if got := a.ok("check_wallet", nil)["balance_usd"]; got != 0.0 {
		t.Errorf("bob's key sees balance %v, alice's money", got)
	}
	revokeKey(t, h, bob)
	if _, err := session.CallTool(t.Context(), &sdk.CallToolParams{Name: "get_status", Arguments: map[string]any{}}); err == nil {
		t.Error("a revoked key still called a tool")
	}
}

// /mcp speaks only POST (stateless: no event stream to open or session to
// delete); other methods get the service's JSON 405.
func TestMCPOnlyAcceptsPOST(t *testing.T) {
	h := start(t, "sqlite", manyBots)
	c := h.claimedBot("methods")
	for _, method := range []string{"GET", "DELETE"} {
		got := (raw{t: t, srv: h.srv}).do(method, "/mcp", c.reg.APIKey, nil, "Accept", "text/event-stream")
		if got.Status != 405 || got.Header.Get("Allow") != "POST" || !strings.Contains(string(got.Body), "method_not_allowed") {
			t.Errorf("%s /mcp = %d %v %s", method, got.Status, got.Header, got.Body)
		}
	}
}

// A tool call's requests to the bot API are logged under the id of the
// /mcp request that made them and attributed to its client address; a
// client cannot pass another address off as its own.
func TestMCPToolCallsAreLoggedAsTheirRequest(t *testing.T) {
	logs := &storetest.LogBuffer{}
	h := start(t, "sqlite", testserver.Options{Logger: slog.New(slog.NewJSONHandler(logs, nil))})
	c := h.claimedBot("traced")
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_wallet","arguments":{}}}`
	got := (raw{t: t, srv: h.srv}).do("POST", "/mcp", c.reg.APIKey, body, "Accept", "application/json, text/event-stream",
		"X-Request-Id", "mcp-trace-1", "X-Botpay-Mcp-Peer", "203.0.113.9:443")
	if got.Status != 200 {
		t.Fatalf("/mcp: %d %s", got.Status, got.Body)
	}
	var inner map[string]any
	for _, line := range strings.Split(logs.String(), "\n") {
		var entry map[string]any
		if json.Unmarshal([]byte(line), &entry) == nil && entry["path"] == "/api/v1/bot/wallet/check" {
			inner = entry
		}
	}
	if inner == nil || inner["request_id"] != "mcp-trace-1" || inner["client_ip"] != "127.0.0.1" {
		t.Fatalf("the tool's call was logged as %v, want request mcp-trace-1 from 127.0.0.1", inner)
	}
}

// alternating sends each request to the next of several replicas.
type alternating struct {
	mu    sync.Mutex
	hosts []string
	next  int
	rt    http.RoundTripper
}

func (a *alternating) RoundTrip(r *http.Request) (*http.Response, error) {
	a.mu.Lock()
	host := a.hosts[a.next%len(a.hosts)]
	a.next++
	a.mu.Unlock()
	r = r.Clone(r.Context())
	r.URL.Host, r.Host = host, host
	return a.rt.RoundTrip(r)
}

// /mcp keeps nothing between requests: a client whose requests alternate
// between two replicas behind a load balancer initializes on one, lists
// and calls tools on the other, and acts through both.
func mcpWorksAcrossReplicas(t *testing.T, h *harness) {
	replica := h.srv.Replica(t, mcpService)
	c := h.claimedBot("replicated")
	lb := &alternating{hosts: []string{strings.TrimPrefix(h.srv.URL, "http://"), strings.TrimPrefix(replica.URL, "http://")},
		rt: bearerTransport{key: c.reg.APIKey, next: h.srv.HTTP.Client().Transport}}
	session, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "test"}, nil).Connect(t.Context(),
		&sdk.StreamableClientTransport{Endpoint: h.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: lb}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	a := agent{t: t, session: session, raw: raw{t: t, srv: h.srv}, key: c.reg.APIKey}
	for range 2 {
		tools, err := session.ListTools(t.Context(), nil)
		if err != nil || len(tools.Tools) != 18 {
			t.Fatalf("tools/list through the balancer: %v (%v)", tools, err)
		}
		page := a.ok("create_checkout_page", map[string]any{"title": "Replicated", "amount_usd": 3})
		if got := a.ok("get_status", nil)["bot_id"]; got != c.reg.BotID || page["checkout_page_id"] == nil {
			t.Fatalf("through the balancer: %v, %v", got, page)
		}
	}
	if lb.next < 6 {
		t.Fatalf("only %d requests went through the balancer", lb.next)
	}
}
