// Package sdktest runs the test suites of the SDKs in other languages
// (sdk/python, ...) against the whole service on each engine. Each suite
// skips with a message when its runtime is missing, and fails instead when
// its SDK_*_REQUIRED variable is 1, as CI sets it.
package sdktest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/suite"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// pythonSDKDir is the repository's sdk/python folder.
func pythonSDKDir(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "sdk", "python")
}

// requirePython returns the python3 to run, or skips (fails with
// SDK_PYTHON_REQUIRED=1) when there is none of version 3.10 or later.
func requirePython(t *testing.T) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		suite.SDKPython.Need(t, "python3 is not installed")
	}
	out, err := exec.Command(python, "-c", "import sys; print(sys.version_info >= (3, 10))").Output()
	if err != nil || strings.TrimSpace(string(out)) != "True" {
		suite.SDKPython.Need(t, "python3 is older than 3.10")
	}
	suite.SDKPython.Need(t)
	return python
}

// fundedBot is a claimed bot whose card wallet and processor wallet hold
// money, built with the Go SDK as e2e's claimBot does.
type fundedBot struct {
	id, apiKey, ownerToken string
}

func newFundedBot(t *testing.T, ctx context.Context, url string) fundedBot {
	t.Helper()
	suffix := time.Now().Format("150405.000000000")
	reg, err := client.New(url, "").Register(ctx, client.RegisterRequest{BotName: "py-sdk", OwnerEmail: "py-sdk-" + suffix + "@example.com"})
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	sess, err := client.NewOwner(url, "").Signup(ctx, "py-owner-"+suffix+"@example.com", "correct horse battery staple")
	if err != nil {
		t.Fatalf("signup: %v", err)
	}
	owner := client.NewOwner(url, sess.Token)
	steps := []struct {
		name string
		run  func() error
	}{
		{"claim", func() error { _, err := owner.Claim(ctx, *reg.ClaimToken); return err }},
		{"fund", func() error { _, err := owner.Fund(ctx, reg.BotID, client.Dollars(100, 0), ""); return err }},
		{"processor wallet", func() error { _, err := owner.CreateProcessorWallet(ctx, reg.BotID); return err }},
		{"fund processor wallet", func() error {
			_, err := owner.Fund(ctx, reg.BotID, client.Dollars(10, 0), "processor_wallet")
			return err
		}},
	}
	for _, step := range steps {
		if err := step.run(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
	}
	return fundedBot{id: reg.BotID, apiKey: reg.APIKey, ownerToken: sess.Token}
}

// TestPythonSDKPassesItsSuiteAgainstTheService runs `python3 -m unittest
// discover sdk/python/tests` against a service on each engine with a
// delivering event dispatcher, so the suite's service tests run too (they
// skip without BOTPAY_URL).
func TestPythonSDKPassesItsSuiteAgainstTheService(t *testing.T) {
	t.Parallel()
	python := requirePython(t)
	dir := pythonSDKDir(t)
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 1000}, Deliver: true})
		bot := newFundedBot(t, t.Context(), srv.URL)
		cmd := exec.CommandContext(t.Context(), python, "-m", "unittest", "discover", "-v", "tests")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PYTHONPATH="+dir, "PYTHONDONTWRITEBYTECODE=1", "BOTPAY_URL="+srv.URL,
			"BOTPAY_API_KEY="+bot.apiKey, "BOTPAY_BOT_ID="+bot.id, "BOTPAY_OWNER_TOKEN="+bot.ownerToken)
		var output bytes.Buffer
		cmd.Stdout, cmd.Stderr = &output, &output
		err := cmd.Run()
		if err != nil {
			t.Fatalf("python3 -m unittest: %v\n%s", err, output.String())
		}
		t.Logf("python3 -m unittest:\n%s", output.String())
		if strings.Contains(output.String(), "skipped 'set BOTPAY_URL") {
			t.Fatalf("the service tests skipped although BOTPAY_URL was set:\n%s", output.String())
		}
	})
}
