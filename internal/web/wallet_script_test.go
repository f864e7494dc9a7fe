package web_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/botpay/botpay/internal/suite"
)

// TestWalletScriptUnitTests runs the wallet script's own unit tests
// (assets/wallet-pay.test.js) with node's test runner; they need no
// packages, only node.
func TestWalletScriptUnitTests(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		suite.WalletScript.Need(t, "node is not installed")
	}
	suite.WalletScript.Need(t)
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.CommandContext(t.Context(), "node", "--test", "wallet-pay.test.js")
	cmd.Dir = filepath.Join(filepath.Dir(file), "assets")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test wallet-pay.test.js: %v\n%s", err, out)
	}
	t.Logf("node --test wallet-pay.test.js:\n%s", out)
}
