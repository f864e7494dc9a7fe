package openapi_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/suite"
	"github.com/botpay/botpay/internal/testserver"
)

// A TypeScript client generated from the document by stock tools
// (openapi-typescript, openapi-fetch, tsc; pinned in
// tsclient/package-lock.json) compiles and registers a bot, then checks its
// wallet, against a running service. It needs Node and `npm ci --prefix
// tsclient`; without them it skips unless OPENAPI_CLIENT_REQUIRED=1.
func TestGeneratedTypeScriptClient(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("../../tsclient")
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", ".bin", "openapi-typescript"))
	if nodeErr != nil || modErr != nil {
		suite.OpenAPIClient.Need(t, "node or tsclient/node_modules is missing")
	}
	suite.OpenAPIClient.Need(t)
	build := exec.Command("node_modules/.bin/openapi-typescript", "../internal/openapi/openapi.json", "-o", "build/schema.d.ts")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("openapi-typescript: %v\n%s", err, out)
	}
	tsc := exec.Command("node_modules/.bin/tsc", "-p", "tsconfig.json")
	tsc.Dir = dir
	if out, err := tsc.CombinedOutput(); err != nil {
		t.Fatalf("tsc: the generated client does not compile: %v\n%s", err, out)
	}
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	run := exec.Command("node", "build/smoke.js")
	run.Dir = dir
	run.Env = append(os.Environ(), "BOTPAY_URL="+srv.URL)
	out, err := run.Output()
	if err != nil {
		t.Fatalf("node build/smoke.js: %v\n%s", err, out)
	}
	var got struct {
		BotID        string  `json:"bot_id"`
		WalletStatus string  `json:"wallet_status"`
		BalanceUSD   float64 `json:"balance_usd"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("smoke output %q: %v", out, err)
	}
	if got.BotID == "" || got.WalletStatus != "pending" || got.BalanceUSD != 0 {
		t.Fatalf("register → wallet check through the generated client = %+v, want a new bot with a pending wallet", got)
	}
}
