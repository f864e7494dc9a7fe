package api_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// inMemoryHandler is the whole API over a fresh SQLite database, served
// without a listener.
func inMemoryHandler(tb testing.TB) http.Handler {
	db := storetest.Open(tb, store.SQLite, nil)
	key := make([]byte, 32)
	rand.Read(key)
	sealer, err := seal.New(key)
	if err != nil {
		tb.Fatal(err)
	}
	svc := app.New(app.Config{Store: db.Store, Sealer: sealer, Mail: &mail.Memory{}, BaseURL: "http://botpay.test",
		Limits: app.Limits{RegisterPerHour: 1 << 30}})
	return api.New(svc, api.Config{Sealer: sealer, Version: "fuzz"})
}

// FuzzRegisterNeverFails500: whatever bytes arrive at the registration
// endpoint, the answer is never a server error, every refusal has the error
// shape, and every success carries a well-formed API key.
func FuzzRegisterNeverFails500(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"bot_name":`, `{"a":1} x`,
		`{"bot_name":"helper","owner_email":"owner@example.com"}`,
		`{"bot_name":"helper","owner_email":"owner@example.com","callback_url":"https://bot.example.com/hook"}`,
		`{"bot_name":"helper","owner_email":"Owner@Example.com","pairing_code":"123456"}`,
		`{"bot_name":"t","owner_email":"o@example.com","bot_type":"custom","local_port":65535,"webhook_path":"/w"}`,
		`{"bot_name":"t","owner_email":"o@example.com","local_port":1e3,"webhook_path":"/` + strings.Repeat("p", 199) + `"}`,
		`{"bot_name":"\u0000","owner_email":"a\u0000@example.com","description":"\ud800"}`,
		`{"bot_name":"x","owner_email":"x@example.com","callback_url":"http://[::1]:80/%zz"}`,
		`{"bot_name":"x","owner_email":"x@example.com","local_port":-0.0,"webhook_path":"/?#"}`,
		`{"bot_name":["x"],"owner_email":{"a":1},"local_port":"1","pairing_code":1}`,
	} {
		f.Add([]byte(s))
	}
	h := inMemoryHandler(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/bots/register", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("HTTP %d for %q: %s", rec.Code, body, rec.Body)
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("answer is not a JSON object: %q", rec.Body)
		}
		switch {
		case rec.Code == http.StatusCreated:
			if key, _ := out["api_key"].(string); !botpay.WellFormedSecret(key, botpay.APIKeyPrefix) {
				t.Fatalf("201 without a well-formed api_key: %s", rec.Body)
			}
		case rec.Code >= 400:
			if code, _ := out["error"].(string); code == "" || out["message"] == "" {
				t.Fatalf("HTTP %d without the error shape: %s", rec.Code, rec.Body)
			}
		default:
			t.Fatalf("unexpected HTTP %d: %s", rec.Code, rec.Body)
		}
	})
}
