package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// Held x402 signing requests in the owner dashboard and the owner's e-mail.

// ownerBrowser is a dashboard browser signed in with an owner token (the
// session cookie is an owner token); without one it is signed out.
func ownerBrowser(t *testing.T, r raw, token string) *browser {
	b := &browser{t: t, base: r.srv.URL, hc: &http.Client{Transport: r.srv.HTTP.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	if token != "" {
		b.cookie = &http.Cookie{Name: "botpay_session", Value: token}
	}
	return b
}

// heldSigning makes b ask for approval of every signature and holds one of
// amount micro-USDC for resource; it answers the approval_id.
func heldSigning(t *testing.T, r raw, b x402Bot, amount int64, resource string) string {
	t.Helper()
	r.guardrails(b, map[string]any{"approval_mode": "ask_for_everything"})
	body := signBody(amount)
	if resource != "" {
		body["resource_url"] = resource
	}
	a := r.sign(b, body)
	if a.Status != http.StatusAccepted {
		t.Fatalf("sign: %d %s", a.Status, a.Body)
	}
	return fmt.Sprint(int64(a.json(t)["approval_id"].(float64)))
}

func signingStatus(t *testing.T, r raw, b x402Bot, id string) string {
	t.Helper()
	owner, err := r.srv.App.Accounts().AuthenticateOwner(t.Context(), b.OwnerToken)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	fmt.Sscan(id, &n)
	req, err := r.srv.App.Payments().OwnedSigningRequest(t.Context(), owner.ID, n)
	if err != nil {
		t.Fatal(err)
	}
	return req.Status
}

// checkApprovedEvent checks the bot was told of the approval with a header
// signed by its processor wallet for amount.
func checkApprovedEvent(t *testing.T, r raw, b x402Bot, id string, amount uint64) {
	t.Helper()
	ev := lastEvent(t, r, b.ID)
	if ev.Type != botpay.EventPurchaseApproved || fmt.Sprint(ev.Data["approval_id"]) != id || ev.Data["currency"] != "USDC" {
		t.Fatalf("event = %+v", ev)
	}
	p, err := x402.Decode(ev.Data["x_payment_header"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if from, err := x402.Recover(x402.BaseUSDC.Digest(p.Authorization), p.Signature); err != nil || from.Hex() != b.Address || p.Authorization.Value != amount {
		t.Fatalf("approved header recovers to %s for %d (%v)", from, p.Authorization.Value, err)
	}
}

func TestHeldSigningRequestIsListedInTheDashboardAndTheOwnerAPI(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("listed", 5)
		hostile := "https://evil.example/<script>alert(1)</script>?a=1&b=2"
		id := heldSigning(t, r, b, 2_500_000, hostile)

		list := r.must(200, "GET", "/api/v1/owner/approvals", b.OwnerToken, nil)["approvals"].([]any)
		if len(list) != 1 {
			t.Fatalf("approvals = %v", list)
		}
		e := list[0].(map[string]any)
		if e["kind"] != "signing" || fmt.Sprint(e["id"]) != id || e["bot_id"] != b.ID || e["amount_usd"] != 2.5 ||
			e["merchant_name"] != "evil.example" || e["item_name"] != hostile || e["status"] != "pending" || e["expires_at"] == nil {
			t.Fatalf("entry = %v", e)
		}

		br := ownerBrowser(t, r, b.OwnerToken)
		resp, page := br.do("GET", "/dashboard/approvals", nil)
		if resp.StatusCode != 200 {
			t.Fatalf("approvals page: %d", resp.StatusCode)
		}
		for _, want := range []string{`data-kind="signing" data-id="` + id + `"`, "2.50 USDC", "<strong>evil.example</strong>",
			"&lt;script&gt;alert(1)&lt;/script&gt;?a=1&amp;b=2", "listed", " min ",
			`action="/dashboard/approvals/signing/` + id + `/approve"`, `action="/dashboard/approvals/signing/` + id + `/deny"`,
			`aria-label="Approve signing request ` + id + `"`, `aria-label="Deny signing request ` + id + `"`} {
			if !strings.Contains(page, want) {
				t.Errorf("approvals page lacks %q", want)
			}
		}
		if strings.Contains(page, "<script>") {
			t.Error("approvals page shows the resource URL unescaped")
		}

		if resp, page := br.do("GET", "/dashboard", nil); resp.StatusCode != 200 || !strings.Contains(page, "1 request awaits your decision") ||
			!strings.Contains(page, `<a href="/dashboard/approvals">1</a>`) {
			t.Errorf("bots list does not count the signing request: %d", resp.StatusCode)
		}
		resp, page = br.do("GET", "/dashboard/bots/"+b.ID, nil)
		if resp.StatusCode != 200 {
			t.Fatalf("bot page: %d", resp.StatusCode)
		}
		for _, want := range []string{"1 request from this bot awaits", `<code data-testid="processor-wallet" style="overflow-wrap:anywhere">` + b.Address + `</code>`,
			`data-testid="usdc-balance">5.00 USDC<`, "2.50 USDC available"} {
			if !strings.Contains(page, want) {
				t.Errorf("bot page lacks %q", want)
			}
		}
	})
}

func TestDashboardFormsApproveAndDenyHeldSigningRequests(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("decided", 5)
		first := heldSigning(t, r, b, 2_000_000, "")
		second := heldSigning(t, r, b, 1_000_000, "")
		br := ownerBrowser(t, r, b.OwnerToken)
		approve := "/dashboard/approvals/signing/" + first + "/approve"

		if resp, _ := br.do("POST", approve, url.Values{}, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site approve: %d, want 403", resp.StatusCode)
		}
		stranger := r.claimedBot("stranger")
		if resp, _ := ownerBrowser(t, r, stranger.OwnerToken).do("POST", approve, url.Values{}); resp.StatusCode != http.StatusNotFound {
			t.Errorf("another owner's approve: %d, want 404", resp.StatusCode)
		}
		for _, bad := range []string{"0", "-1", "x", "99999999999999999999", "chk_" + first} {
			if resp, _ := br.do("POST", "/dashboard/approvals/signing/"+bad+"/approve", url.Values{}); resp.StatusCode != http.StatusNotFound {
				t.Errorf("approve %q: %d, want 404", bad, resp.StatusCode)
			}
		}
		if st := signingStatus(t, r, b, first); st != botpay.SigningPending {
			t.Fatalf("refused posts changed the request: %s", st)
		}

		resp, _ := br.do("POST", approve, url.Values{})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/dashboard/approvals?done=approved" {
			t.Fatalf("approve: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		if st := signingStatus(t, r, b, first); st != botpay.SigningSigned {
			t.Errorf("after approval: %s, want signed", st)
		}
		checkApprovedEvent(t, r, b, first, 2_000_000)
		if resp, page := br.do("POST", "/dashboard/approvals/signing/"+first+"/deny", url.Values{}); resp.StatusCode != http.StatusConflict ||
			!strings.Contains(page, "already been decided") {
			t.Errorf("deny after approval: %d", resp.StatusCode)
		}

		resp, _ = br.do("POST", "/dashboard/approvals/signing/"+second+"/deny", url.Values{})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/dashboard/approvals?done=denied" {
			t.Fatalf("deny: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		if st := signingStatus(t, r, b, second); st != botpay.SigningDenied {
			t.Errorf("after denial: %s, want denied", st)
		}
		if ev := lastEvent(t, r, b.ID); ev.Type != botpay.EventPurchaseRejected || fmt.Sprint(ev.Data["approval_id"]) != second || ev.Data["reason"] != "denied by owner" {
			t.Errorf("event = %+v", ev)
		}
		if list := r.must(200, "GET", "/api/v1/owner/approvals", b.OwnerToken, nil)["approvals"].([]any); len(list) != 0 {
			t.Errorf("approvals after both decisions = %v", list)
		}
		if _, page := br.do("GET", "/dashboard/approvals", nil); !strings.Contains(page, "Nothing awaits your decision") {
			t.Error("the queue still lists decided requests")
		}
	})
}

// signingLinks finds the approve and deny links of the owner's mail about
// a held signing request for resource.
func signingLinks(t *testing.T, r raw, resource string) (approve, deny string) {
	t.Helper()
	for _, m := range r.srv.Mail.Sent() {
		if !strings.HasPrefix(m.Subject, "Approval needed") || !strings.Contains(m.Text, resource) {
			continue
		}
		if strings.ContainsAny(m.Subject, "\r\n") || !strings.Contains(m.Subject, "x402 payment") {
			t.Errorf("subject %q", m.Subject)
		}
		for _, match := range linkRE.FindAllStringSubmatch(m.Text, -1) {
			if match[1] == "Approve" {
				approve = match[2]
			} else {
				deny = match[2]
			}
		}
		if !strings.Contains(m.HTML, `href="`+approve+`"`) || strings.Contains(m.HTML, "<script>") {
			t.Errorf("mail HTML: %s", m.HTML)
		}
	}
	if approve == "" || deny == "" {
		t.Fatalf("no approve/deny links mailed for %s: %+v", resource, r.srv.Mail.Sent())
	}
	return strings.TrimPrefix(approve, r.srv.URL), strings.TrimPrefix(deny, r.srv.URL)
}

func linkToken(link string) string { return strings.TrimPrefix(link, "/dashboard/decide?t=") }

func TestEmailLinksDecideAHeldSigningRequestOnce(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("mailed", 5)
		resource := "https://api.vendor.example/<script>x</script>"
		id := heldSigning(t, r, b, 1_234, resource)
		approve, deny := signingLinks(t, r, resource)
		br := ownerBrowser(t, r, "") // no session: the link is the authority

		for range 2 {
			resp, page := br.do("GET", approve, nil)
			if resp.StatusCode != 200 || !strings.Contains(page, ">Approve</button>") || !strings.Contains(page, "An x402 payment awaits your decision") ||
				!strings.Contains(page, `data-testid="decide-amount">0.001234 USDC<`) {
				t.Fatalf("GET approve link: %d %s", resp.StatusCode, page)
			}
		}
		if st := signingStatus(t, r, b, id); st != botpay.SigningPending {
			t.Fatalf("a GET of the link acted: %s", st)
		}
		if resp, _ := br.do("POST", "/dashboard/decide", url.Values{"t": {linkToken(approve)}}, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site POST of the link: %d, want 403", resp.StatusCode)
		}
		resp, page := br.do("POST", "/dashboard/decide", url.Values{"t": {linkToken(approve)}})
		if resp.StatusCode != 200 || !strings.Contains(page, "0.001234 USDC") || !strings.Contains(page, "<strong>approved</strong>") ||
			strings.Contains(page, "<script>") {
			t.Fatalf("POST approve: %d %s", resp.StatusCode, page)
		}
		if st := signingStatus(t, r, b, id); st != botpay.SigningSigned {
			t.Errorf("after the link: %s, want signed", st)
		}
		checkApprovedEvent(t, r, b, id, 1_234)
		if resp, page := br.do("POST", "/dashboard/decide", url.Values{"t": {linkToken(approve)}}); resp.StatusCode != http.StatusConflict || !strings.Contains(page, "works only once") {
			t.Errorf("reused link: %d", resp.StatusCode)
		}
		if resp, _ := br.do("POST", "/dashboard/decide", url.Values{"t": {linkToken(deny)}}); resp.StatusCode != http.StatusConflict {
			t.Errorf("deny link after approval: %d", resp.StatusCode)
		}

		other := "https://api.vendor.example/other"
		second := heldSigning(t, r, b, 1_000_000, other)
		_, deny = signingLinks(t, r, other)
		if resp, page := br.do("POST", "/dashboard/decide", url.Values{"t": {linkToken(deny)}}); resp.StatusCode != 200 || !strings.Contains(page, "<strong>denied</strong>") {
			t.Fatalf("POST deny: %d %s", resp.StatusCode, page)
		}
		if st := signingStatus(t, r, b, second); st != botpay.SigningDenied {
			t.Errorf("after the deny link: %s, want denied", st)
		}
		if ev := lastEvent(t, r, b.ID); ev.Type != botpay.EventPurchaseRejected {
			t.Errorf("event = %+v", ev)
		}
	})
}

func TestEmailLinksOfAHeldSigningRequestExpireWithItsWindow(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Now())
		r := raw{t: t, srv: testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, Clock: clock})}
		b := r.walletBot("late", 5)
		resource := "https://api.vendor.example/late"
		id := heldSigning(t, r, b, 1_000_000, resource)
		approve, _ := signingLinks(t, r, resource)
		clock.Advance(botpay.SigningApprovalWindow)
		br := ownerBrowser(t, r, "")
		if resp, page := br.do("GET", approve, nil); resp.StatusCode != http.StatusGone || !strings.Contains(page, "expired") {
			t.Errorf("GET expired link: %d", resp.StatusCode)
		}
		if resp, _ := br.do("POST", "/dashboard/decide", url.Values{"t": {linkToken(approve)}}); resp.StatusCode != http.StatusGone {
			t.Errorf("POST expired link: %d", resp.StatusCode)
		}
		if st := signingStatus(t, r, b, id); st != botpay.SigningPending {
			t.Errorf("status: %s, want still pending (reported as expired)", st)
		}
	})
}
