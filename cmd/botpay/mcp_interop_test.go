package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/mcp"
	"github.com/botpay/botpay/internal/suite"
)

// mcpInteropDir is interop/mcp with the TypeScript SDK installed, or skips
// (fails with MCP_INTEROP_REQUIRED=1, as in CI).
func mcpInteropDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "interop", "mcp")
	if _, err := exec.LookPath("node"); err != nil {
		suite.MCPInterop.Need(t, "node is not installed")
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		suite.MCPInterop.Need(t, "@modelcontextprotocol/sdk is not installed in interop/mcp/node_modules")
	}
	suite.MCPInterop.Need(t)
	return dir
}

// interopAnswer is what list-and-check.mjs prints.
type interopAnswer struct {
	Tools []struct {
		Name            string `json:"name"`
		ReadOnly        bool   `json:"readOnly"`
		Destructive     *bool  `json:"destructive"`
		HasOutputSchema bool   `json:"hasOutputSchema"`
	} `json:"tools"`
	CheckWallet struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	} `json:"check_wallet"`
	Validated []string `json:"validated"`
}

// The official TypeScript SDK, a client independent of this code base,
// lists the tools and calls check_wallet against a running `botpay serve`
// over /mcp, and against `botpay mcp` over stdio; it validates the answer
// against the tool's output schema on the way.
func TestMCPInteropTypeScriptSDK(t *testing.T) {
	dir := mcpInteropDir(t)
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	serve := startBinary(t, bin, []string{"BOTPAY_ADDR=127.0.0.1:0", "BOTPAY_DATA_DIR=" + t.TempDir(), "DATABASE_URL="})
	reg, err := client.New(serve.url, "").Register(t.Context(), client.RegisterRequest{BotName: "ts-agent", OwnerEmail: "ts@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	wallet, err := client.New(serve.url, reg.APIKey).WalletCheck(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for mode, target := range map[string]string{"http": serve.url, "stdio": bin} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), "node", "list-and-check.mjs", mode, target)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "BOTPAY_URL="+serve.url, "BOTPAY_API_KEY="+reg.APIKey)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v\n%s\n%s", err, out, stderr.String())
			}
			var got interopAnswer
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("node printed %s: %v", out, err)
			}
			var names []string
			for _, tool := range got.Tools {
				names = append(names, tool.Name)
				if !tool.HasOutputSchema {
					t.Errorf("%s has no output schema", tool.Name)
				}
			}
			if !slices.Equal(sortedCopy(names), sortedCopy(mcp.ToolNames())) {
				t.Errorf("tools = %v", names)
			}
			sc := got.CheckWallet.StructuredContent
			if got.CheckWallet.IsError || sc["wallet_status"] != wallet.WalletStatus || sc["card_status"] != wallet.CardStatus {
				t.Errorf("check_wallet = %+v, the endpoint says %+v", got.CheckWallet, wallet)
			}
			if len(got.Validated) != 3 {
				t.Errorf("read-only tools validated by the SDK: %v", got.Validated)
			}
		})
	}
}
