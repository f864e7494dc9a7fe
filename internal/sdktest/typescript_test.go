package sdktest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/suite"
	"github.com/botpay/botpay/internal/testserver"
)

// typescriptDir is sdk/typescript, when node and its npm folder are there.
// Without them the tests skip, unless SDK_TYPESCRIPT_REQUIRED=1 makes that
// a failure (as CI does).
func typescriptDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "sdk", "typescript")
	if _, err := exec.LookPath("node"); err != nil {
		suite.SDKTypeScript.Need(t, "node is not installed")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		suite.SDKTypeScript.Need(t, "npm is not installed")
	}
	for _, tool := range []string{"tsc", "openapi-typescript"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", tool)); err != nil {
			suite.SDKTypeScript.Need(t, tool+" is not installed in sdk/typescript/node_modules")
		}
	}
	suite.SDKTypeScript.Need(t)
	return dir
}

var (
	buildOnce sync.Once
	buildOut  []byte
	buildErr  error
)

// buildTypeScript compiles the SDK and its tests once per test binary
// (npm run build: tsc, then the generated types beside the output).
func buildTypeScript(t *testing.T, dir string) {
	t.Helper()
	buildOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "run", "build", "--silent")
		cmd.Dir = dir
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("npm run build in sdk/typescript: %v\n%s", buildErr, buildOut)
	}
}

// The committed types are what the pinned openapi-typescript makes of the
// committed OpenAPI document: `npm run generate` was not forgotten.
func TestTypeScriptSchemaIsCurrent(t *testing.T) {
	t.Parallel()
	dir := typescriptDir(t)
	fresh := filepath.Join(t.TempDir(), "schema.d.ts")
	cmd := exec.CommandContext(t.Context(), filepath.Join("node_modules", ".bin", "openapi-typescript"),
		filepath.Join("..", "..", "internal", "openapi", "openapi.json"), "-o", fresh)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("openapi-typescript: %v\n%s", err, out)
	}
	want, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "src", "schema.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("sdk/typescript/src/schema.d.ts is stale: run `npm run generate --prefix sdk/typescript` after changing the OpenAPI document")
	}
}

// The SDK's own tests (node's test runner) pass against the service on each
// engine, for a bot claimed and funded here.
func TestTypeScriptSDKAgainstTheService(t *testing.T) {
	dir := typescriptDir(t)
	buildTypeScript(t, dir)
	tests, err := filepath.Glob(filepath.Join(dir, "dist", "test", "*.test.js"))
	if err != nil || len(tests) == 0 {
		t.Fatalf("no compiled tests in sdk/typescript/dist/test (%v)", err)
	}
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		// The tests register and claim a bot each from one address.
		limits := app.Limits{RegisterPerHour: 1000, ClaimPerHour: 1000, PairingPerHour: 1000}
		srv := testserver.Start(t, dialect, testserver.Options{Deliver: true, Limits: limits})
		env := append(os.Environ(), "BOTPAY_URL="+srv.URL)
		env = append(env, claimedFundedBot(t, srv.URL)...)
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", append([]string{"--test", "--test-reporter=spec"}, tests...)...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("node --test (sdk/typescript) on %s: %v\n%s", dialect, err, out)
		}
		t.Logf("node --test (sdk/typescript) on %s:\n%s", dialect, lastLines(out, 12))
	})
}

// claimedFundedBot registers a bot, claims it for a new owner and funds
// its card wallet with $100, through the Go client, and returns the
// environment that names them to the SDK's tests.
func claimedFundedBot(t *testing.T, baseURL string) []string {
	t.Helper()
	ctx := t.Context()
	bots, owners := client.New(baseURL, ""), client.NewOwner(baseURL, "")
	reg, err := bots.Register(ctx, client.RegisterRequest{BotName: "ts-sdk", OwnerEmail: uniqueEmail("ts-sdk")})
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	sess, err := owners.Signup(ctx, uniqueEmail("ts-sdk-owner"), "correct horse battery staple")
	if err != nil {
		t.Fatalf("signup: %v", err)
	}
	owner := owners.WithToken(sess.Token)
	if _, err := owner.Claim(ctx, *reg.ClaimToken); err != nil {
		t.Fatalf("claim: %v", err)
	}
	if _, err := owner.Fund(ctx, reg.BotID, client.USD(10000), ""); err != nil {
		t.Fatalf("fund: %v", err)
	}
	return []string{"BOTPAY_API_KEY=" + reg.APIKey, "BOTPAY_BOT_ID=" + reg.BotID,
		"BOTPAY_WEBHOOK_SECRET=" + reg.WebhookSecret, "BOTPAY_OWNER_TOKEN=" + sess.Token}
}

func uniqueEmail(name string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return name + "-" + hex.EncodeToString(b) + "@example.com"
}

// lastLines keeps the runner's summary.
func lastLines(out []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, []byte("\n"))
}
