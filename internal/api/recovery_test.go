package api_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/testserver"
)

// TestPanicBecomesInternalErrorWithRequestID mounts a panicking page next to
// the API: the client gets the error shape with the request id, the log gets
// the panic, and the server keeps serving.
func TestPanicBecomesInternalErrorWithRequestID(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	var logs bytes.Buffer
	h := api.New(srv.App, api.Config{Sealer: srv.Sealer, Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
		Pages: func(mux api.Mux) {
			mux.HandleFunc("GET /boom", func(http.ResponseWriter, *http.Request) { panic("kaboom") })
		}})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/boom", nil)
	req.Header.Set("X-Request-Id", "req-test-1")
	h.ServeHTTP(rec, req)
	var body map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	if rec.Code != 500 || body["error"] != "internal_error" || body["request_id"] != "req-test-1" || body["message"] == "" {
		t.Fatalf("answer %d %v", rec.Code, body)
	}
	if strings.Contains(rec.Body.String(), "kaboom") {
		t.Fatal("panic value leaked to the client")
	}
	if !strings.Contains(logs.String(), "kaboom") || !strings.Contains(logs.String(), "req-test-1") {
		t.Fatalf("panic not logged with its request id:\n%s", logs.String())
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != 200 {
		t.Fatalf("healthz after panic = %d", rec.Code)
	}
}
