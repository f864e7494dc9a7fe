package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/web"
)

func pagesAt(t *testing.T, baseURL string) http.Handler {
	t.Helper()
	db := storetest.Open(t, store.SQLite, nil)
	sealer, err := seal.New(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(app.Config{Store: db.Store, Sealer: sealer, Mail: &mail.Memory{}, BaseURL: baseURL})
	mux := http.NewServeMux()
	web.New(svc, nil, func(*http.Request) string { return "192.0.2.1" }).Mount(mux)
	return mux
}

func signupCookie(t *testing.T, h http.Handler) *http.Cookie {
	t.Helper()
	form := url.Values{"email": {"owner@example.com"}, "password": {"correct horse battery staple"}}
	req := httptest.NewRequest("POST", "/signup", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("signup: %d %s", rec.Code, rec.Body)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == web.SessionCookie {
			return c
		}
	}
	t.Fatal("no session cookie")
	return nil
}

func TestSessionCookieIsSecureExactlyWhenTheBaseURLIsHTTPS(t *testing.T) {
	t.Parallel()
	for base, secure := range map[string]bool{"https://pay.example.com": true, "http://127.0.0.1:8080": false} {
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			c := signupCookie(t, pagesAt(t, base))
			if c.Secure != secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("Secure=%v (want %v) HttpOnly=%v SameSite=%v", c.Secure, secure, c.HttpOnly, c.SameSite)
			}
		})
	}
}

func TestLoginFormIsRateLimitedPerAccount(t *testing.T) {
	t.Parallel()
	h := pagesAt(t, "http://127.0.0.1:8080")
	signupCookie(t, h)
	status := 0
	for i := 0; i < 21; i++ {
		form := url.Values{"email": {"owner@example.com"}, "password": {"wrong password, try again"}}
		req := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		status = rec.Code
		if i < 20 && status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d, want 401", i+1, status)
		}
	}
	if status != http.StatusTooManyRequests {
		t.Errorf("21st attempt: %d, want 429", status)
	}
}

func TestDashboardSendsVisitorsWithoutSessionToLogin(t *testing.T) {
	t.Parallel()
	h := pagesAt(t, "http://127.0.0.1:8080")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/dashboard/approvals", nil))
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/login?next=%2Fdashboard%2Fapprovals" {
		t.Errorf("%d %s", rec.Code, rec.Header().Get("Location"))
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/dashboard/claim", nil))
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("POST without session: %d", rec.Code)
	}
}
