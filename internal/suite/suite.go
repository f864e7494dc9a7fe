// Package suite names the test suites that need more than Go (a database
// server, node and npm folders, a browser, a chain, system tools) and gives
// them one gate. A test calls Need with what is missing: without it the test
// skips, or fails when the suite's *_REQUIRED variable is 1 (as in CI), and
// either way it prints a line that internal/testrun reads to tell, at the end
// of a run, which suites ran and which were skipped and why.
package suite

import (
	"os"
	"strings"
	"testing"
)

// Suite is one group of tests that needs something beyond Go.
type Suite struct {
	Name     string // short, as the summary line prints it
	Required string // the variable that turns a skip into a failure
	Hint     string // how to get what is missing
}

// The suites of the repository. The names are what the runner prints.
var (
	PostgreSQL = Suite{"postgresql", "TEST_POSTGRES_REQUIRED",
		"start PostgreSQL on 127.0.0.1:5432 (user postgres, trust, database test) or set TEST_DATABASE_URL"}
	Chain = Suite{"chain", "CHAIN_TESTS_REQUIRED",
		"run `npm ci --prefix chain` (needs node ≥ 18; anvil's postinstall must run)"}
	X402Interop = Suite{"x402-interop", "X402_INTEROP_REQUIRED",
		"run `npm ci --prefix interop` (needs node ≥ 18)"}
	WebhooksInterop = Suite{"webhooks-interop", "WEBHOOKS_INTEROP_REQUIRED",
		"run `npm ci --prefix interop/webhooks` (needs node ≥ 18)"}
	MCPInterop = Suite{"mcp-interop", "MCP_INTEROP_REQUIRED",
		"run `npm ci --prefix interop/mcp` (needs node ≥ 18)"}
	OpenAPIClient = Suite{"openapi-typescript", "OPENAPI_CLIENT_REQUIRED",
		"run `npm ci --prefix tsclient` (needs node ≥ 18)"}
	Browser = Suite{"browser", "BROWSER_TESTS_REQUIRED",
		"install Chromium (Debian: apt-get install chromium) and run `npm ci --prefix browser`"}
	PDF = Suite{"pdf", "PDFTOTEXT_REQUIRED",
		"install pdftotext (Debian: apt-get install poppler-utils)"}
	SDKPython = Suite{"sdk-python", "SDK_PYTHON_REQUIRED",
		"install python3 3.10 or later"}
	SDKTypeScript = Suite{"sdk-typescript", "SDK_TYPESCRIPT_REQUIRED",
		"run `npm ci --prefix sdk/typescript` (needs node ≥ 18)"}
	WalletScript = Suite{"wallet-script", "WALLET_SCRIPT_TESTS_REQUIRED",
		"install node ≥ 20 (the buyer pages' wallet script is tested with node's own test runner, no packages)"}
	Readme = Suite{"readme", "README_TESTS_REQUIRED",
		"install bash, curl and jq (Debian: apt-get install curl jq)"}
)

// Marker starts every line Need prints; internal/testrun looks for it.
const Marker = "botpay-suite "

// Need ends t when anything is missing: a failure when the suite is
// required, a skip otherwise. When nothing is missing it notes that the
// suite ran.
func (s Suite) Need(t testing.TB, missing ...string) {
	t.Helper()
	if len(missing) == 0 {
		t.Logf("%s%s ran", Marker, s.Name)
		return
	}
	why := strings.Join(missing, ", ")
	if s.Requested() {
		t.Fatalf("%s%s failed: %s is required (%s=1) but %s; %s", Marker, s.Name, s.Name, s.Required, why, s.Hint)
	}
	t.Skipf("%s%s skipped: %s; %s, or set %s=1 to make this a failure", Marker, s.Name, why, s.Hint, s.Required)
}

// Requested reports whether the suite's variable makes it mandatory.
func (s Suite) Requested() bool { return os.Getenv(s.Required) == "1" }
