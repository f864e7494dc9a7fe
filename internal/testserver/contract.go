package testserver

import (
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/openapi/contract"
)

// RecordEnv names the file that, when set, receives one line per exchange
// of every test server (contract.Checker.Line, then the test's name), so
// that two builds' exchanges can be compared (bench/contract-exchanges.sh).
const RecordEnv = "BOTPAY_CONTRACT_RECORD"

var (
	recorder     *contract.Recorder
	recorderErr  error
	recorderOnce sync.Once
)

// checkContract puts the OpenAPI check in front of h: every request and
// answer of every test that uses a test server must match the document
// (internal/openapi), or the test fails.
func checkContract(t testing.TB, h http.Handler) http.Handler {
	c, err := contract.Default()
	if err != nil {
		t.Fatalf("openapi: %v", err)
	}
	report := func(problem string) { t.Errorf("openapi contract: %s", problem) }
	path := os.Getenv(RecordEnv)
	if path == "" {
		return c.Middleware(report, h)
	}
	recorderOnce.Do(func() { recorder, recorderErr = contract.OpenRecorder(path) })
	if recorderErr != nil {
		t.Fatalf("%s: %v", RecordEnv, recorderErr)
	}
	name := t.Name()
	record := func(line string) {
		if err := recorder.Record(line + "\ttest=" + name); err != nil {
			t.Errorf("%s: %v", RecordEnv, err)
		}
	}
	return c.RecordingMiddleware(report, record, h)
}
