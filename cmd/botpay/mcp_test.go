package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/mcp"
	"github.com/botpay/botpay/internal/testserver"
)

// registerBot registers a bot on srv and returns its key.
func registerBot(t *testing.T, srv *testserver.Server, name string) string {
	t.Helper()
	reg, err := client.New(srv.URL, "").Register(t.Context(), client.RegisterRequest{BotName: name, OwnerEmail: name + "@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return reg.APIKey
}

// The real `botpay mcp` binary, started by an MCP client as a desktop
// agent starts it: tools/list shows the eighteen tools and check_wallet
// answers the bot's wallet through the service.
func TestMCPCommandServesTheToolsOverStdio(t *testing.T) {
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	srv := testserver.Start(t, "sqlite", testserver.Options{})
	key := registerBot(t, srv, "desktop")
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "BOTPAY_URL="+srv.URL, "BOTPAY_API_KEY="+key)
	session, err := sdk.NewClient(&sdk.Implementation{Name: "desktop", Version: "test"}, nil).
		Connect(t.Context(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	tools, err := session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if want := mcp.ToolNames(); len(names) != 18 || !slices.Equal(sortedCopy(names), sortedCopy(want)) {
		t.Fatalf("tools = %v", names)
	}
	res, err := session.CallTool(t.Context(), &sdk.CallToolParams{Name: "check_wallet", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("check_wallet: %v %+v", err, res)
	}
	if got := res.StructuredContent.(map[string]any)["wallet_status"]; got != "pending" {
		t.Errorf("wallet_status = %v, want pending (unclaimed)", got)
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// `botpay mcp` with a key the service refuses offers no tool: it stops at
// once, saying so, instead of serving tools that would all fail.
func TestMCPCommandRefusesAKeyTheServiceRefuses(t *testing.T) {
	srv := testserver.Start(t, "sqlite", testserver.Options{})
	t.Setenv("BOTPAY_URL", srv.URL)
	t.Setenv("BOTPAY_API_KEY", "bp_live_"+"00112233445566778899aabbccddeeff0011223344556677")
	err := run(context.Background(), []string{"mcp"}, io.Discard, io.Discard)
	if !errors.Is(err, mcp.ErrKeyRefused) {
		t.Fatalf("err = %v, want the key refused", err)
	}
	t.Setenv("BOTPAY_API_KEY", "")
	if err := run(context.Background(), []string{"mcp"}, io.Discard, io.Discard); err == nil {
		t.Fatal("botpay mcp ran without a key")
	}
}

// An agent that pipes its requests in and closes its input at once (a
// script, `printf … | botpay mcp`) gets every answer, not only the first.
func TestMCPCommandAnswersEveryRequestPipedInBeforeInputCloses(t *testing.T) {
	answers, out := pipeToMCP(t, "piped", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"check_wallet","arguments":{}}}
`)
	for _, id := range []string{"1", "2", "3"} {
		if answers[id] == nil {
			t.Errorf("request %s got no answer; stdout:\n%s", id, out)
		}
	}
}

// A message naming a member twice over stdio is refused with a JSON-RPC
// error before any tool runs (the SDK would keep the last: a $999 call
// read as $1), and the server goes on answering the next request.
func TestMCPCommandRefusesDuplicateMembersOverStdio(t *testing.T) {
	answers, out := pipeToMCP(t, "twice", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"request_topup","arguments":{"amount_usd":1,"reason":"r","amount_usd":999}}}
{"jsonrpc":"2.0","id":3,"method":"tools/list","method":"tools/call","params":{"name":"check_wallet","arguments":{}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"check_wallet","arguments":{}}}
`)
	for _, tc := range []struct{ id, member string }{{"2", "amount_usd"}, {"3", "method"}} {
		a := answers[tc.id]
		e, _ := a["error"].(map[string]any)
		if a == nil || a["result"] != nil || e == nil || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), tc.member) {
			t.Errorf("request %s naming %s twice: %v, want a JSON-RPC error naming it; stdout:\n%s", tc.id, tc.member, a, out)
		}
	}
	if a := answers["4"]; a == nil || a["result"] == nil {
		t.Errorf("the request after the refused ones: %v; stdout:\n%s", a, out)
	}
}

// pipeToMCP runs `botpay mcp` as a new bot named name, pipes requests in
// and closes its input; it returns the answers by JSON-RPC id, and stdout.
func pipeToMCP(t *testing.T, name, requests string) (map[string]map[string]any, []byte) {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	srv := testserver.Start(t, "sqlite", testserver.Options{})
	cmd := exec.CommandContext(t.Context(), bin, "mcp")
	cmd.Env = append(os.Environ(), "BOTPAY_URL="+srv.URL, "BOTPAY_API_KEY="+registerBot(t, srv, name))
	cmd.Stdin = strings.NewReader(requests)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("botpay mcp: %v\n%s", err, out)
	}
	answers := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var msg map[string]any
		if json.Unmarshal([]byte(line), &msg) == nil && msg["id"] != nil {
			id, _ := json.Marshal(msg["id"])
			answers[string(id)] = msg
		}
	}
	return answers, out
}
