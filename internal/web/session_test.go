package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/accounts"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/web"
)

func pagesAt(t *testing.T, baseURL string) http.Handler {
	t.Helper()
	h, _ := pagesWithClock(t, baseURL, nil)
	return h
}

// pagesWithClock serves the pages over a service whose time is clock (nil:
// the system's), and returns that service too.
func pagesWithClock(t *testing.T, baseURL string, clock botpay.Clock) (http.Handler, *app.Service) {
	t.Helper()
	db := storetest.Open(t, store.SQLite, clock)
	sealer, err := seal.New(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(app.Config{Store: db.Store, Sealer: sealer, Mail: &mail.Memory{}, BaseURL: baseURL})
	mux := http.NewServeMux()
	web.New(svc, nil, func(*http.Request) string { return "192.0.2.1" }).Mount(mux)
	return mux, svc
}

func signupCookie(t *testing.T, h http.Handler) *http.Cookie {
	t.Helper()
	return sessionCookie(t, h, "/signup")
}

// sessionCookie posts the owner's credentials to path (/signup or /login)
// and returns the session cookie it sets.
func sessionCookie(t *testing.T, h http.Handler, path string) *http.Cookie {
	t.Helper()
	form := url.Values{"email": {"owner@example.com"}, "password": {"correct horse battery staple"}}
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
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

// TestLoginFormBacksOffPerAccountAndAddress: the form shares the API's
// throttling: five failures are free, the sixth makes that e-mail and
// address wait, and the next attempt is 429 with Retry-After.
func TestLoginFormBacksOffPerAccountAndAddress(t *testing.T) {
	t.Parallel()
	h := pagesAt(t, "http://127.0.0.1:8080")
	signupCookie(t, h)
	for i := 0; i < 7; i++ {
		form := url.Values{"email": {"owner@example.com"}, "password": {"wrong password, try again"}}
		req := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		want := http.StatusUnauthorized
		if i == 6 {
			want = http.StatusTooManyRequests
		}
		if rec.Code != want {
			t.Fatalf("attempt %d: %d, want %d", i+1, rec.Code, want)
		}
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

// A dashboard session ends on the server after 30 days, whatever the
// browser keeps; an owner API token issued by the API's signup lives on
// (90 days after its last use).
func TestDashboardSessionEndsOnTheServerAfterThirtyDays(t *testing.T) {
	t.Parallel()
	clock := botpay.NewManualClock(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	h, svc := pagesWithClock(t, "http://127.0.0.1:8080", clock)
	signedUp := signupCookie(t, h)
	clock.Advance(time.Hour)
	loggedIn := sessionCookie(t, h, "/login")
	api, err := svc.Accounts().Signup(t.Context(), "api-owner@example.com", "correct horse battery staple", "")
	if err != nil {
		t.Fatal(err)
	}
	approvals := func(c *http.Cookie) int {
		req := httptest.NewRequest("GET", "/dashboard/approvals", nil)
		req.AddCookie(c)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	if c := signedUp.MaxAge; c != int(accounts.DashboardSessionFor/time.Second) {
		t.Errorf("cookie Max-Age = %d s, want the server's %s", c, accounts.DashboardSessionFor)
	}
	// The sign-up session began an hour before the login session.
	steps := []struct {
		advance            time.Duration
		signedUp, loggedIn int
	}{
		{accounts.DashboardSessionFor - time.Hour - time.Second, http.StatusOK, http.StatusOK},
		{time.Second, http.StatusSeeOther, http.StatusOK},
		{time.Hour, http.StatusSeeOther, http.StatusSeeOther},
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		if a, b := approvals(signedUp), approvals(loggedIn); a != st.signedUp || b != st.loggedIn {
			t.Fatalf("step %d: sign-up session %d, login session %d; want %d and %d (303 is the way to the login page)",
				i, a, b, st.signedUp, st.loggedIn)
		}
	}
	if _, err := svc.Accounts().AuthenticateOwner(t.Context(), api.Token); err != nil {
		t.Errorf("the API token after 30 days: %v, want it to authenticate", err)
	}
}
