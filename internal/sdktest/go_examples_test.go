package sdktest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestGoClientExamplesRunAgainstTheServiceOnEachEngine runs the Go SDK's
// runnable examples (client/example_test.go) against the whole service on
// each engine: the output each example promises is what a real server
// answers. (On their own, `go test ./client` runs them against a
// `botpay serve` on SQLite.)
func TestGoClientExamplesRunAgainstTheServiceOnEachEngine(t *testing.T) {
	t.Parallel()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 10000}})
		cmd := exec.CommandContext(t.Context(), "go", "test", "-count=1", "-run", "^Example", "-v", "./client")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "BOTPAY_EXAMPLE_URL="+srv.URL)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go test -run Example ./client: %v\n%s", err, out)
		}
		if ran := strings.Count(string(out), "--- PASS: Example"); ran < 6 {
			t.Fatalf("only %d examples ran:\n%s", ran, out)
		}
	})
}
