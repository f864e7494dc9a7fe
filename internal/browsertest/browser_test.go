package browsertest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/suite"
)

// The browser tests need more than Go: node, the npm packages of browser/
// (npm ci) and /usr/bin/chromium. Without them the tests skip, unless
// BROWSER_TESTS_REQUIRED=1 (CI), where they fail.
func requireBrowser(t *testing.T) (repo string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	repo = filepath.Join(filepath.Dir(file), "..", "..")
	var missing []string
	if _, err := exec.LookPath("node"); err != nil {
		missing = append(missing, "node")
	}
	if _, err := os.Stat(chromium()); err != nil {
		missing = append(missing, chromium()+" (apt-get install chromium)")
	}
	if _, err := os.Stat(filepath.Join(repo, "browser", "node_modules", "playwright-core")); err != nil {
		missing = append(missing, "browser/node_modules (run npm ci in browser/)")
	}
	if len(missing) > 0 {
		suite.Browser.Need(t, "missing "+strings.Join(missing, ", "))
	}
	suite.Browser.Need(t)
	return repo
}

func chromium() string {
	if c := os.Getenv("CHROMIUM"); c != "" {
		return c
	}
	return "/usr/bin/chromium"
}

// botpayBinary is built once per test process: linking it for every
// script cost a few seconds of CPU each.
var botpayBinary = struct {
	once sync.Once
	path string
	err  error
}{}

// buildBotpay builds cmd/botpay into a folder that outlives the tests that
// use it (the process's temporary folder; the next run replaces it).
func buildBotpay(repo string) (string, error) {
	botpayBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "botpay-browsertest")
		if err != nil {
			botpayBinary.err = err
			return
		}
		bin := filepath.Join(dir, "botpay")
		build := exec.Command("go", "build", "-o", bin, "./cmd/botpay")
		build.Dir = repo
		if out, err := build.CombinedOutput(); err != nil {
			botpayBinary.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		botpayBinary.path = bin
	})
	return botpayBinary.path, botpayBinary.err
}

func TestMain(m *testing.M) {
	code := m.Run()
	if botpayBinary.path != "" {
		os.RemoveAll(filepath.Dir(botpayBinary.path))
	}
	os.Exit(code)
}

// serve builds botpay and starts `botpay serve` on a free loopback port
// with an empty data folder; it is stopped when the test ends. It returns
// the base URL and the folder the service writes its mail to.
func serve(t *testing.T, repo string) (base, mailDir string) {
	t.Helper()
	dir := t.TempDir()
	bin, err := buildBotpay(repo)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "BOTPAY_ADDR="+addr, "BOTPAY_DATA_DIR="+filepath.Join(dir, "data"),
		"BOTPAY_WEBHOOK_ALLOW_PRIVATE=true", "BOTPAY_RATE_REGISTER_PER_HOUR=10000", "BOTPAY_RATE_CHECKOUT_PER_HOUR=10000", "BOTPAY_RATE_SIGNUP_PER_HOUR=10000",
		"BOTPAY_BASE_URL=", "DATABASE_URL=", "BOTPAY_SMTP_HOST=", "BOTPAY_LOG_LEVEL=warn")
	log, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			out, _ := os.ReadFile(log.Name())
			t.Logf("serve log:\n%s", out)
		}
	})
	base = "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, filepath.Join(dir, "data", "mail")
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("botpay serve did not become ready at %s: %v", base, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// screenshots is where the scripts save screenshots: a folder per script
// under $BOTPAY_ARTIFACTS_DIR, by default artifacts/screenshots in the
// repository (git-ignored), which CI keeps as artifacts. It is emptied
// first so that what it holds after a run is that run's.
func screenshots(t *testing.T, repo, name string) string {
	dir := os.Getenv("BOTPAY_ARTIFACTS_DIR")
	if dir == "" {
		dir = filepath.Join(repo, "artifacts", "screenshots")
	}
	dir = filepath.Join(dir, name)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func runScript(t *testing.T, script string) {
	repo := requireBrowser(t)
	base, mailDir := serve(t, repo)
	shots := screenshots(t, repo, strings.TrimSuffix(script, ".test.mjs"))
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Dir = filepath.Join(repo, "browser")
	cmd.Env = append(os.Environ(), "BOTPAY_URL="+base, "SCREENSHOT_DIR="+shots, "CHROMIUM="+chromium(), "BOTPAY_MAIL_DIR="+mailDir)
	out, err := cmd.CombinedOutput()
	t.Logf("%s:\n%s", script, out)
	if err != nil {
		t.Fatal(fmt.Errorf("%s failed: %w (screenshots in %s)", script, err, shots))
	}
	t.Logf("screenshots in %s", shots)
}

// TestDashboardScenariosInChromium: sign up, claim, fund, edit guardrails,
// approve and deny held purchases in the queue, freeze, and watch a failing
// webhook degrade then become unreachable; any console error fails.
func TestDashboardScenariosInChromium(t *testing.T) {
	runScript(t, "dashboard.test.mjs")
}

// TestHostileBotStringsNeverRunAsScript renders every page with hostile
// strings in every bot-supplied field; a dialog or console error fails.
func TestHostileBotStringsNeverRunAsScript(t *testing.T) {
	runScript(t, "hostile.test.mjs")
}

// TestBuyerPagesInChromium checks the landing, sign-up and buyer pages at
// desktop and phone widths: screenshots, axe-core, no sideways scroll.
func TestBuyerPagesInChromium(t *testing.T) {
	runScript(t, "buyer.test.mjs")
}

// TestAPIReferenceInChromium checks /docs/api at desktop and phone widths
// (screenshots, axe-core, no sideways scroll): a section, a curl example
// and the schema link of every operation, schema and webhook of the
// served document, which names the service's base URL; the checkout
// operation's section is kept as its own screenshot.
func TestAPIReferenceInChromium(t *testing.T) {
	runScript(t, "apiref.test.mjs")
}

// TestOwnerPagesInChromium checks the owner's overview, the bot's four
// sections, the approvals queue and the e-mail decision page at desktop
// and phone widths (screenshots, axe-core, no sideways scroll), that the
// approved bars stay visible beside a declined $9,999 attempt, and that a
// decision link works once without logging in.
func TestOwnerPagesInChromium(t *testing.T) {
	runScript(t, "owner.test.mjs")
}
