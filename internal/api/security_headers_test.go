package api_test

import (
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

func handlerAt(t *testing.T, d store.Dialect, baseURL string) http.Handler {
	db := storetest.Open(t, d, nil)
	key := make([]byte, 32)
	rand.Read(key)
	sealer, err := seal.New(key)
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(app.Config{Store: db.Store, Sealer: sealer, Mail: &mail.Memory{}, BaseURL: baseURL})
	return api.New(svc, api.Config{Sealer: sealer, Version: "test"})
}

// TestSecurityHeadersOnJSONAnswers: nosniff on every JSON answer (success
// and error), and Strict-Transport-Security exactly when the base URL is
// https.
func TestSecurityHeadersOnJSONAnswers(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		for _, c := range []struct {
			baseURL string
			hsts    bool
		}{{"https://pay.example.com", true}, {"http://127.0.0.1:8080", false}} {
			h := handlerAt(t, d, c.baseURL)
			for _, path := range []string{"/healthz", "/api/v1/bot/status", "/api/v1/nope"} {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
					t.Errorf("%s %s: X-Content-Type-Options = %q", c.baseURL, path, got)
				}
				if got := rec.Header().Get("Strict-Transport-Security"); (got != "") != c.hsts {
					t.Errorf("%s %s: Strict-Transport-Security = %q", c.baseURL, path, got)
				}
			}
		}
	})
}
