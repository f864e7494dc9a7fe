package e2e

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/testserver"
)

// browser is a cookie-carrying HTTP client that does not follow redirects,
// so tests see each answer of the dashboard.
type browser struct {
	t      *testing.T
	base   string
	hc     *http.Client
	cookie *http.Cookie // the session cookie, as a browser would keep it
}

func newBrowser(t *testing.T, h *harness) *browser {
	return &browser{t: t, base: h.srv.URL, hc: &http.Client{Transport: h.srv.HTTP.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request; headers are extra header pairs (e.g. Sec-Fetch-Site).
func (b *browser) do(method, path string, form url.Values, headers ...string) (*http.Response, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if b.cookie != nil {
		req.AddCookie(b.cookie)
	}
	resp, err := b.hc.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if c.Name == "botpay_session" {
			if c.MaxAge < 0 {
				b.cookie = nil
			} else {
				b.cookie = c
			}
		}
	}
	return resp, string(raw)
}

func sessionCookieOf(t *testing.T, resp *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name == "botpay_session" {
			return c
		}
	}
	t.Fatalf("no session cookie in %v", resp.Header["Set-Cookie"])
	return nil
}

const dashPassword = "correct horse battery staple"

func TestDashboardSessionCookieIsHttpOnlyLaxAndRotatedOnLogin(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		b := newBrowser(t, h)
		email := uniqueEmail("session")
		resp, _ := b.do("POST", "/signup", url.Values{"email": {email}, "password": {dashPassword}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/dashboard" {
			t.Fatalf("signup: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		first := sessionCookieOf(t, resp)
		if !first.HttpOnly || first.SameSite != http.SameSiteLaxMode || first.Secure || first.Path != "/" {
			t.Errorf("cookie flags: HttpOnly=%v SameSite=%v Secure=%v Path=%q", first.HttpOnly, first.SameSite, first.Secure, first.Path)
		}
		if resp, page := b.do("GET", "/dashboard", nil); resp.StatusCode != 200 || !strings.Contains(page, email) {
			t.Fatalf("dashboard with session: %d", resp.StatusCode)
		}

		resp, _ = b.do("POST", "/login", url.Values{"email": {email}, "password": {dashPassword}})
		second := sessionCookieOf(t, resp)
		if second.Value == first.Value {
			t.Fatal("login kept the old session token")
		}
		old := &browser{t: t, base: b.base, hc: b.hc, cookie: first}
		if resp, _ := old.do("GET", "/dashboard", nil); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Errorf("the replaced session still works: %d", resp.StatusCode)
		}
	})
}

func TestDashboardLogoutRevokesTheSessionEverywhere(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		b := newBrowser(t, h)
		resp, _ := b.do("POST", "/signup", url.Values{"email": {uniqueEmail("logout")}, "password": {dashPassword}})
		token := sessionCookieOf(t, resp).Value
		// The session is an owner token: the owner API takes it as a cookie too.
		if _, err := h.owners.WithToken(token).BotsMine(h.ctx); err != nil {
			t.Fatalf("owner API with the session token: %v", err)
		}
		kept := b.cookie
		resp, _ = b.do("POST", "/logout", url.Values{})
		if c := sessionCookieOf(t, resp); c.MaxAge >= 0 || c.Value != "" {
			t.Errorf("logout did not clear the cookie: %+v", c)
		}
		_, err := h.owners.WithToken(token).BotsMine(h.ctx)
		wantError(t, err, http.StatusUnauthorized, botpay.CodeAuthRequired)
		again := &browser{t: t, base: b.base, hc: b.hc, cookie: kept}
		if resp, _ := again.do("GET", "/dashboard", nil); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("a revoked session cookie still opens the dashboard: %d", resp.StatusCode)
		}
	})
}

func TestDashboardFormsAndCookieAPIRefuseCrossSiteRequests(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		b := newBrowser(t, h)
		b.do("POST", "/signup", url.Values{"email": {uniqueEmail("csrf")}, "password": {dashPassword}})
		form := url.Values{"per_transaction_usd": {"1.00"}}
		if resp, _ := b.do("POST", "/dashboard/master-guardrails", form, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site form post: %d, want 403", resp.StatusCode)
		}
		if resp, _ := b.do("POST", "/dashboard/master-guardrails", form, "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("foreign-origin form post: %d, want 403", resp.StatusCode)
		}
		if resp, _ := b.do("POST", "/logout", url.Values{}, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site logout: %d, want 403", resp.StatusCode)
		}
		if resp, body := b.do("PUT", "/api/v1/owner/master-guardrails", nil, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site owner API call with the cookie: %d %s, want 403", resp.StatusCode, body)
		}
		if resp, body := b.do("GET", "/api/v1/bots/mine", nil, "Sec-Fetch-Site", "same-origin"); resp.StatusCode != http.StatusOK {
			t.Errorf("owner API with the session cookie: %d %s, want 200", resp.StatusCode, body)
		}
		if resp, _ := b.do("POST", "/dashboard/master-guardrails", form, "Sec-Fetch-Site", "same-origin"); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("same-origin form post: %d, want 303", resp.StatusCode)
		}
		m, err := h.srv.App.Spending().MasterGuardrails(h.ctx, mustOwner(t, h, b))
		if err != nil || m == nil || m.PerTransaction == nil || *m.PerTransaction != 100 {
			t.Errorf("master guardrails after the same-origin post: %+v %v", m, err)
		}
	})
}

func mustOwner(t *testing.T, h *harness, b *browser) botpay.Owner {
	t.Helper()
	o, err := h.srv.App.Accounts().AuthenticateOwner(h.ctx, b.cookie.Value)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

var linkRE = regexp.MustCompile(`(?m)^(Approve|Deny): (\S+)$`)

// heldWithLinks makes a held purchase and returns the approve and deny
// links of the owner's e-mail.
func heldWithLinks(t *testing.T, h *harness, s shopper) (id, approve, deny string) {
	t.Helper()
	co, err := s.bot.Checkout(h.ctx, purchase(5000))
	if err != nil || isTrue(co.Approved) {
		t.Fatalf("checkout: %+v %v", co, err)
	}
	msgs := h.mailTo(s.sess.Email)
	for _, m := range msgs {
		if !strings.Contains(m.Text, co.ConfirmationID) && !strings.Contains(m.Subject, "Approval needed") {
			continue
		}
		for _, match := range linkRE.FindAllStringSubmatch(m.Text, -1) {
			if match[1] == "Approve" {
				approve = match[2]
			} else {
				deny = match[2]
			}
		}
	}
	if approve == "" || deny == "" {
		t.Fatalf("no approve/deny links mailed to the owner: %+v", msgs)
	}
	return co.ConfirmationID, strings.TrimPrefix(approve, h.srv.URL), strings.TrimPrefix(deny, h.srv.URL)
}

func askForEverything(g *client.Guardrails) { g.ApprovalMode = client.ApprovalAskForEverything }

func TestEmailDecisionLinksWorkOnceAndNeverOnGET(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("mailed", client.Dollars(200, 0), askForEverything)
		id, approve, deny := heldWithLinks(t, h, s)
		b := newBrowser(t, h) // no session: the link itself is the authority

		for i := 0; i < 2; i++ {
			if resp, page := b.do("GET", approve, nil); resp.StatusCode != 200 || !strings.Contains(page, ">Approve</button>") {
				t.Fatalf("GET approve link: %d", resp.StatusCode)
			}
		}
		if st, _ := s.bot.CheckoutStatus(h.ctx, id); st.Status != client.PurchasePending {
			t.Fatalf("a GET of the link acted: status %s", st.Status)
		}
		token := strings.TrimPrefix(approve, "/dashboard/decide?t=")
		resp, page := b.do("POST", "/dashboard/decide", url.Values{"t": {token}})
		if resp.StatusCode != 200 || !strings.Contains(page, "approved") {
			t.Fatalf("POST approve: %d %s", resp.StatusCode, page)
		}
		if st, _ := s.bot.CheckoutStatus(h.ctx, id); st.Status != client.PurchaseApproved {
			t.Fatalf("after the link: %s", st.Status)
		}
		resp, page = b.do("POST", "/dashboard/decide", url.Values{"t": {token}})
		if resp.StatusCode != http.StatusConflict || !strings.Contains(page, "works only once") {
			t.Errorf("reused link: %d", resp.StatusCode)
		}
		denyToken := strings.TrimPrefix(deny, "/dashboard/decide?t=")
		if resp, _ := b.do("POST", "/dashboard/decide", url.Values{"t": {denyToken}}); resp.StatusCode != http.StatusConflict {
			t.Errorf("deny link after approval: %d", resp.StatusCode)
		}
		// One character of the middle changed (the last ones can carry
		// unused bits of the encoding, and "AA" could equal them).
		tampered := []byte(token)
		if i := len(tampered) / 2; tampered[i] == 'A' {
			tampered[i] = 'B'
		} else {
			tampered[i] = 'A'
		}
		if resp, _ := b.do("POST", "/dashboard/decide", url.Values{"t": {string(tampered)}}); resp.StatusCode != http.StatusNotFound {
			t.Errorf("tampered link: %d", resp.StatusCode)
		}
	})
}

func TestEmailDecisionLinksExpireWithTheHold(t *testing.T) {
	forEachEngineWithClock(t, func(t *testing.T, h *harness, clock *botpay.ManualClock) {
		s := h.shopper("late", client.Dollars(200, 0), askForEverything)
		id, _, deny := heldWithLinks(t, h, s)
		b := newBrowser(t, h)
		clock.Advance(botpay.HoldWindow + time.Second)
		if resp, page := b.do("GET", deny, nil); resp.StatusCode != http.StatusGone || !strings.Contains(page, "expired") {
			t.Errorf("GET expired link: %d", resp.StatusCode)
		}
		token := strings.TrimPrefix(deny, "/dashboard/decide?t=")
		if resp, _ := b.do("POST", "/dashboard/decide", url.Values{"t": {token}}); resp.StatusCode != http.StatusGone {
			t.Errorf("POST expired link: %d", resp.StatusCode)
		}
		if st, _ := s.bot.CheckoutStatus(h.ctx, id); st.Status != client.PurchaseExpired {
			t.Errorf("status: %s, want expired", st.Status)
		}
	})
}

func TestSpendingByDayCountsApprovedAndDeclinedToday(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("charted", client.Dollars(300, 0), nil)
		if co, err := s.bot.Checkout(h.ctx, purchase(1200)); err != nil || !isTrue(co.Approved) {
			t.Fatalf("approved checkout: %+v %v", co, err)
		}
		_, err := s.bot.Checkout(h.ctx, purchase(15000)) // above the $100 per-transaction limit
		wantError(t, err, http.StatusForbidden, "card_guardrail_violation")
		days, err := h.srv.App.Wallets().SpendingByDay(h.ctx, s.reg.BotID, 30)
		if err != nil || len(days) != 30 {
			t.Fatalf("%d days, %v", len(days), err)
		}
		today := days[29]
		if today.Approved != 1200 || today.Declined != 15000 {
			t.Errorf("today: approved %d declined %d, want 1200 and 15000", today.Approved, today.Declined)
		}
		if !today.Day.Equal(botpay.DayStart(time.Now())) {
			t.Errorf("last day is %v", today.Day)
		}
	})
}

// TestBotPageShowsEverythingTheOwnerControls renders the bot page and the
// earning page on each engine with one of everything they list.
func TestBotPageShowsEverythingTheOwnerControls(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("complete", client.Dollars(300, 0), nil)
		if _, err := s.bot.Checkout(h.ctx, purchase(4000)); err != nil { // held: above $25
			t.Fatal(err)
		}
		if _, err := s.bot.TopupRequest(h.ctx, client.Dollars(20, 0), "for paper"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.owner.CreateTask(h.ctx, s.reg.BotID, client.NewTask{MerchantName: "Paper Co", MerchantURL: "https://paper.example.com",
			ItemName: "A4 paper", AmountCents: 950}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.owner.CreateRail5Card(h.ctx, s.reg.BotID, client.NewRail5Card{CardName: "Owner Visa", Number: "4242424242424242",
			CVV: "123", ExpiryMonth: "11", ExpiryYear: "2030", HolderName: "Ada"}); err != nil {
			t.Fatal(err)
		}
		b := newBrowser(t, h)
		b.cookie = &http.Cookie{Name: "botpay_session", Value: s.sess.Token}
		wants := map[string][]string{"": {"$300.00", "$40.00", "Widget"},
			"/spending": {"A4 paper", "for paper", "Widget", "<svg", "Funded by owner"},
			"/settings": {"Team card", "···· 4242", "wallet.funded", "Approval mode"},
			"/earning":  {"Checkout pages"}}
		for section, list := range wants {
			resp, page := b.do("GET", "/dashboard/bots/"+s.reg.BotID+section, nil)
			if resp.StatusCode != 200 {
				t.Fatalf("bot page %q: %d %s", section, resp.StatusCode, page)
			}
			for _, want := range list {
				if !strings.Contains(page, want) {
					t.Errorf("bot page %q lacks %q", section, want)
				}
			}
		}
		if resp, page := b.do("GET", "/dashboard", nil); resp.StatusCode != 200 || !strings.Contains(page, "1 request awaits your decision") {
			t.Errorf("overview: %d", resp.StatusCode)
		}
		other := h.claimedBot("someone-else")
		if resp, _ := b.do("GET", "/dashboard/bots/"+other.reg.BotID, nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("another owner's bot: %d, want 404", resp.StatusCode)
		}
	})
}
