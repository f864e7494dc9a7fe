package e2e

import (
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// from calls the service from a loopback address of its own (Linux routes
// all of 127.0.0.0/8 to lo), as a client at that address would.
// Elsewhere (macOS has only 127.0.0.1) the test skips.
func from(t *testing.T, srv *testserver.Server, ip string) raw {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	probe, err := dialer.Dial("tcp", srv.HTTP.Listener.Addr().String())
	if err != nil {
		t.Skipf("cannot call from %s on this machine (%v); Linux routes all of 127.0.0.0/8 to lo", ip, err)
	}
	probe.Close()
	hc := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	t.Cleanup(hc.CloseIdleConnections)
	return raw{t: t, srv: srv, hc: hc}
}

func form(r raw, path string, values url.Values) answer {
	r.t.Helper()
	return r.do("POST", path, "", values.Encode(), "Content-Type", "application/x-www-form-urlencoded")
}

// TestCommonPasswordsAreRefused: 12 characters are not enough when they
// are a known password padded, or one character repeated (both used to be
// accepted), at signup through the API and the dashboard form.
func TestCommonPasswordsAreRefused(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		r := raw{t: t, srv: h.srv}
		for _, p := range []string{"password1234", "aaaaaaaaaaaa", "qwertyuiop12", "P@ssw0rd2024!"} {
			a := r.do("POST", "/api/v1/owner/signup", "", map[string]any{"email": uniqueEmail("weak"), "password": p})
			if a.Status != 400 || a.json(t)["error"] != "validation_error" || !strings.Contains(string(a.Body), "password") {
				t.Errorf("signup with %q = %d %s, want 400 validation_error naming password", p, a.Status, a.Body)
			}
			if f := form(r, "/signup", url.Values{"email": {uniqueEmail("weak")}, "password": {p}}); f.Status != 400 {
				t.Errorf("dashboard signup with %q = %d, want 400", p, f.Status)
			}
		}
		r.must(201, "POST", "/api/v1/owner/signup", "", map[string]any{"email": uniqueEmail("ok"), "password": "velvet tractor piano 42"})
	})
}

// TestSignupIsLimitedPerClientAddress: ten sign-ups an hour from one
// address (taken e-mails count: they answer 409 email_taken, which is what
// makes enumeration worth limiting), then 429 with Retry-After; another
// address is unaffected.
func TestSignupIsLimitedPerClientAddress(t *testing.T) {
	forEachEngine(t, testserver.Options{Limits: app.Limits{SignupPerHour: 10}}, func(t *testing.T, h *harness) {
		a, b := from(t, h.srv, "127.0.0.7"), from(t, h.srv, "127.0.0.8")
		taken := uniqueEmail("taken")
		a.must(201, "POST", "/api/v1/owner/signup", "", map[string]any{"email": taken, "password": dashPassword})
		for i := 1; i < 10; i++ {
			if got := a.do("POST", "/api/v1/owner/signup", "", map[string]any{"email": taken, "password": dashPassword}); got.Status != 409 {
				t.Fatalf("signup %d = %d %s, want 409 email_taken", i+1, got.Status, got.Body)
			}
		}
		limited := a.do("POST", "/api/v1/owner/signup", "", map[string]any{"email": uniqueEmail("eleventh"), "password": dashPassword})
		if limited.Status != 429 || limited.json(t)["error"] != "rate_limited" || limited.Header.Get("Retry-After") == "" ||
			limited.json(t)["retry_after_seconds"] == nil {
			t.Fatalf("eleventh signup = %d %v %s, want 429 rate_limited with Retry-After", limited.Status, limited.Header, limited.Body)
		}
		if f := form(a, "/signup", url.Values{"email": {uniqueEmail("form")}, "password": {dashPassword}}); f.Status != 429 {
			t.Errorf("dashboard signup past the limit = %d, want 429", f.Status)
		}
		b.must(201, "POST", "/api/v1/owner/signup", "", map[string]any{"email": uniqueEmail("elsewhere"), "password": dashPassword})
	})
}

// TestLoginThrottlingNeverLocksTheOwnerOut: 22 wrong passwords from one
// address slow that address down for that e-mail (429 with Retry-After,
// even with the right password), while the owner logs in from another
// address through the API and the dashboard form (both used to answer 429).
// The clock stands still: on a slow machine the seconds of backoff ran out
// between the requests.
func TestLoginThrottlingNeverLocksTheOwnerOut(t *testing.T) {
	forEachEngineWithClock(t, func(t *testing.T, h *harness, _ *botpay.ManualClock) {
		email := uniqueEmail("target")
		h.signup(email)
		attacker, owner := from(t, h.srv, "127.0.0.7"), from(t, h.srv, "127.0.0.8")
		wrong := map[string]any{"email": email, "password": "not the password at all"}
		statuses := map[int]int{}
		for range 22 {
			statuses[attacker.do("POST", "/api/v1/owner/login", "", wrong).Status]++
		}
		if statuses[401] < 5 || statuses[429] == 0 || statuses[401]+statuses[429] != 22 {
			t.Errorf("22 wrong passwords answered %v, want 401s then 429s", statuses)
		}
		right := map[string]any{"email": email, "password": dashPassword}
		if a := attacker.do("POST", "/api/v1/owner/login", "", right); a.Status != 429 || a.Header.Get("Retry-After") == "" {
			t.Errorf("the throttled address with the right password = %d %s, want 429 with Retry-After", a.Status, a.Body)
		}
		owner.must(200, "POST", "/api/v1/owner/login", "", right)
		if f := form(owner, "/login", url.Values{"email": {email}, "password": {dashPassword}}); f.Status != 303 {
			t.Errorf("dashboard login from the owner's address = %d %s, want 303", f.Status, f.Body)
		}
		if f := form(attacker, "/login", url.Values{"email": {email}, "password": {"still not the password"}}); f.Status != 429 {
			t.Errorf("dashboard login from the throttled address = %d, want 429", f.Status)
		}
	})
}

var resetLink = regexp.MustCompile(`/reset\?token=(bpl_[0-9a-f]+)`)

// TestPasswordResetByEmailedLink: a reset request answers 202 whether or
// not the account exists and mails a single-use link only to an owner;
// the new password must pass the rules; setting it ends every session and
// token of the owner.
func TestPasswordResetByEmailedLink(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		r := raw{t: t, srv: h.srv}
		email := uniqueEmail("forgetful")
		_, sess := h.signup(email)
		known := r.do("POST", "/api/v1/owner/password-reset", "", map[string]any{"email": email})
		unknown := r.do("POST", "/api/v1/owner/password-reset", "", map[string]any{"email": uniqueEmail("nobody")})
		if known.Status != 202 || unknown.Status != 202 || string(known.Body) != string(unknown.Body) {
			t.Fatalf("reset requests %d %s / %d %s, want the same 202", known.Status, known.Body, unknown.Status, unknown.Body)
		}
		h.waitForMail(email, "Reset your botpay password", 1)
		var token string
		for _, m := range h.mailTo(email) {
			if match := resetLink.FindStringSubmatch(m.Text); match != nil {
				token = match[1]
			}
		}
		if token == "" {
			t.Fatalf("no reset link mailed to %s", email)
		}
		if page := r.do("GET", "/reset?token="+token, "", nil); page.Status != 200 || !strings.Contains(string(page.Body), token) {
			t.Errorf("reset page = %d", page.Status)
		}
		if a := r.do("POST", "/api/v1/owner/password-reset/confirm", "", map[string]any{"token": token, "password": "password1234"}); a.Status != 400 {
			t.Errorf("weak new password = %d %s, want 400", a.Status, a.Body)
		}
		const fresh = "velvet tractor piano 42"
		r.must(200, "POST", "/api/v1/owner/password-reset/confirm", "", map[string]any{"token": token, "password": fresh})
		if a := r.do("GET", "/api/v1/bots/mine", sess.Token, nil); a.Status != 401 {
			t.Errorf("the token from before the reset = %d, want 401", a.Status)
		}
		if a := r.do("POST", "/api/v1/owner/password-reset/confirm", "", map[string]any{"token": token, "password": "another fine passphrase"}); a.Status != 404 || a.json(t)["error"] != "invalid_link" {
			t.Errorf("the link again = %d %s, want 404 invalid_link", a.Status, a.Body)
		}
		r.must(200, "POST", "/api/v1/owner/login", "", map[string]any{"email": email, "password": fresh})
		if a := r.do("POST", "/api/v1/owner/login", "", map[string]any{"email": email, "password": dashPassword}); a.Status != 401 {
			t.Errorf("the old password = %d, want 401", a.Status)
		}
		if page := r.do("GET", "/login", "", nil); !strings.Contains(string(page.Body), `href="/forgot"`) {
			t.Error("the login page has no forgot-password link")
		}
	})
}

// TestPasswordResetRequestsAreLimited: reset requests per address answer
// 429 past the limit; one e-mail gets at most three links an hour.
func TestPasswordResetRequestsAreLimited(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		email := uniqueEmail("spammed")
		h.signup(email)
		r := from(t, h.srv, "127.0.0.9")
		statuses := map[int]int{}
		for range 12 {
			statuses[r.do("POST", "/api/v1/owner/password-reset", "", map[string]any{"email": email}).Status]++
		}
		if statuses[202] != 10 || statuses[429] != 2 {
			t.Errorf("12 reset requests answered %v, want 10 × 202 then 429", statuses)
		}
		h.waitForMail(email, "Reset your botpay password", 3)
		time.Sleep(200 * time.Millisecond) // a fourth would have been sent by now
		if n := countSubject(h.mailTo(email), "Reset your botpay password"); n != 3 {
			t.Errorf("%d reset mails, want 3", n)
		}
	})
}

// TestOwnerSessionsAreListedAndRevocable: every live session and API token
// is listed with its kind and expiry, the caller's marked current; one can
// be revoked by id, and no one else's.
func TestOwnerSessionsAreListedAndRevocable(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		r := raw{t: t, srv: h.srv}
		email := uniqueEmail("sessions")
		_, first := h.signup(email)
		second := r.must(200, "POST", "/api/v1/owner/login", "", map[string]any{"email": email, "password": dashPassword})["token"].(string)
		b := newBrowser(t, h)
		b.do("POST", "/login", url.Values{"email": {email}, "password": {dashPassword}})
		list := r.must(200, "GET", "/api/v1/owner/sessions", first.Token, nil)["sessions"].([]any)
		if len(list) != 3 {
			t.Fatalf("sessions %v, want 3", list)
		}
		kinds, current := map[string]int{}, 0
		var secondID string
		for _, item := range list {
			s := item.(map[string]any)
			kinds[s["kind"].(string)]++
			if s["current"] == true {
				current++
			} else if s["kind"] == botpay.OwnerTokenAPIToken {
				secondID = s["id"].(string)
			}
			if exp, err := time.Parse(time.RFC3339, s["expires_at"].(string)); err != nil || exp.Before(time.Now().Add(29*24*time.Hour)) {
				t.Errorf("session %v expires %v", s, exp)
			}
		}
		if kinds["api_token"] != 2 || kinds["session"] != 1 || current != 1 {
			t.Errorf("kinds %v, current %d", kinds, current)
		}
		stranger := h.signupToken(uniqueEmail("stranger"))
		if a := r.do("DELETE", "/api/v1/owner/sessions/"+secondID, stranger, nil); a.Status != 404 {
			t.Errorf("a stranger revoking = %d, want 404", a.Status)
		}
		r.must(200, "DELETE", "/api/v1/owner/sessions/"+secondID, first.Token, nil)
		if a := r.do("GET", "/api/v1/bots/mine", second, nil); a.Status != 401 {
			t.Errorf("the revoked token = %d, want 401", a.Status)
		}
		if a := r.do("DELETE", "/api/v1/owner/sessions/"+secondID, first.Token, nil); a.Status != 404 {
			t.Errorf("revoking twice = %d, want 404", a.Status)
		}
		if got := r.must(200, "GET", "/api/v1/owner/sessions", first.Token, nil)["sessions"].([]any); len(got) != 2 {
			t.Errorf("after revoking: %v", got)
		}
	})
}

func (h *harness) signupToken(email string) string {
	_, s := h.signup(email)
	return s.Token
}

// TestOwnerAPITokensExpireUnlessUsed: an owner API token lives 90 days
// after its last use (it used to live forever).
func TestOwnerAPITokensExpireUnlessUsed(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		clock := botpay.NewManualClock(time.Now().UTC())
		tokensExpireUnlessUsed(t, start(t, dialect, testserver.Options{Clock: clock}), clock)
	})
}

func tokensExpireUnlessUsed(t *testing.T, h *harness, clock *botpay.ManualClock) {
	r := raw{t: t, srv: h.srv}
	_, used := h.signup(uniqueEmail("used"))
	_, idle := h.signup(uniqueEmail("idle"))
	for range 2 {
		clock.Advance(60 * 24 * time.Hour)
		if a := r.do("GET", "/api/v1/bots/mine", used.Token, nil); a.Status != 200 {
			t.Fatalf("a token used every 60 days = %d, want 200", a.Status)
		}
	}
	if a := r.do("GET", "/api/v1/bots/mine", idle.Token, nil); a.Status != 401 {
		t.Errorf("a token unused for 120 days = %d, want 401", a.Status)
	}
}

var verifyLink = regexp.MustCompile(`/verify-email\?token=(bpl_[0-9a-f]+)`)

// TestLiveInvoicesWaitForAVerifiedOwner: in live mode a bot's invoice is
// not e-mailed until its owner opened the verification link mailed at
// signup (403 email_not_verified); the link works once.
func TestLiveInvoicesWaitForAVerifiedOwner(t *testing.T) {
	forEachEngine(t, testserver.Options{Live: true}, func(t *testing.T, h *harness) {
		r := raw{t: t, srv: h.srv}
		b := r.claimedBot("invoicer")
		pg := r.page(b, map[string]any{"page_type": "product"})
		inv := r.must(201, "POST", "/api/v1/bot/invoices/create", b.APIKey, map[string]any{"checkout_page_id": pg["checkout_page_id"],
			"recipient_email": "buyer@example.com", "line_items": []any{map[string]any{"description": "Work", "quantity": 1, "unit_price_usd": 10}}})
		send := "/api/v1/bot/invoices/" + inv["invoice_id"].(string) + "/send"
		if a := r.do("POST", send, b.APIKey, nil); a.Status != 403 || a.json(t)["error"] != "email_not_verified" {
			t.Fatalf("send before verification = %d %s, want 403 email_not_verified", a.Status, a.Body)
		}
		if len(h.mailTo("buyer@example.com")) != 0 {
			t.Fatal("the invoice was mailed")
		}
		owner, err := h.srv.App.Accounts().AuthenticateOwner(h.ctx, b.OwnerToken)
		if err != nil {
			t.Fatal(err)
		}
		var token string
		for _, m := range h.allMailTo(owner.Email) {
			if match := verifyLink.FindStringSubmatch(m.Text); match != nil {
				token = match[1]
			}
		}
		if token == "" {
			t.Fatal("no verification link mailed at signup")
		}
		if a := r.do("GET", "/verify-email?token="+token, "", nil); a.Status != 200 {
			t.Fatalf("verify = %d %s", a.Status, a.Body)
		}
		if a := r.do("GET", "/verify-email?token="+token, "", nil); a.Status != 404 {
			t.Errorf("verify again = %d, want 404", a.Status)
		}
		r.must(200, "POST", send, b.APIKey, nil)
		if len(h.mailTo("buyer@example.com")) != 1 {
			t.Error("the invoice was not mailed after verification")
		}
	})
}

var shownKey = regexp.MustCompile(`data-testid="api-key"[^>]*>(bp_live_[0-9a-f]+)<`)

// TestDashboardRotatesKeysAndRevokesSessions: the owner rotates a bot's
// key from its page (shown once; the old key refused) and revokes another
// session from the sessions page.
func TestDashboardRotatesKeysAndRevokesSessions(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("dash-rotate")
		r := raw{t: t, srv: h.srv}
		b := newBrowser(t, h)
		b.do("POST", "/login", url.Values{"email": {c.sess.Email}, "password": {dashPassword}})
		resp, page := b.do("POST", "/dashboard/bots/"+c.reg.BotID+"/api-key/rotate", url.Values{"grace_seconds": {"0"}})
		match := shownKey.FindStringSubmatch(page)
		if resp.StatusCode != 200 || match == nil {
			t.Fatalf("rotate page %d:\n%s", resp.StatusCode, page)
		}
		if a := r.do("GET", "/api/v1/bot/status", c.reg.APIKey, nil); a.Status != 401 {
			t.Errorf("old key after the dashboard rotation = %d, want 401", a.Status)
		}
		r.must(200, "GET", "/api/v1/bot/status", match[1], nil)
		_, list := b.do("GET", "/dashboard/sessions", nil)
		if !strings.Contains(list, "API token") || !strings.Contains(list, "(this one)") {
			t.Fatalf("sessions page:\n%s", list)
		}
		sessions := r.must(200, "GET", "/api/v1/owner/sessions", c.sess.Token, nil)["sessions"].([]any)
		var apiID string
		for _, s := range sessions {
			if m := s.(map[string]any); m["kind"] == "api_token" {
				apiID = m["id"].(string)
			}
		}
		if resp, _ := b.do("POST", "/dashboard/sessions/"+apiID+"/revoke", url.Values{}); resp.StatusCode != 303 {
			t.Fatalf("revoke = %d", resp.StatusCode)
		}
		if a := r.do("GET", "/api/v1/owner/sessions", c.sess.Token, nil); a.Status != 401 {
			t.Errorf("the revoked API token = %d, want 401", a.Status)
		}
	})
}

// waitForMail waits up to 5 s for n messages to addr whose subject starts
// with subject (some mail is sent in the background).
func (h *harness) waitForMail(addr, subject string, n int) {
	h.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if countSubject(h.mailTo(addr), subject) >= n {
			return
		}
	}
	h.t.Fatalf("fewer than %d %q mails to %s", n, subject, addr)
}
