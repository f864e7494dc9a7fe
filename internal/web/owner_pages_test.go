package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestBotPageComesInSectionsWithTabs: overview, spending, earning and
// settings each have their own URL, mark their own tab, and answer 404 for
// another owner's bot.
func TestBotPageComesInSectionsWithTabs(t *testing.T) {
	eachEngine(t, testserver.Options{}, func(t *testing.T, s *ownerSite) {
		base := "/dashboard/bots/" + s.botID
		sections := map[string]string{"": "Overview", "/spending": "Spending", "/earning": "Earning", "/settings": "Settings"}
		contents := map[string][]string{"": {"Fund wallet", "Freeze wallet", `data-testid="balance">$100.00`},
			"/spending": {`data-chart="chart-approved"`, `data-chart="chart-declined"`, `data-chart="chart-categories"`, "Transactions, all rails", "Queue task"},
			"/earning":  {`data-chart="chart-earning"`, "Checkout pages", "Invoices"},
			"/settings": {"Save guardrails", "Save procurement controls", "Save callback URL", "Rotate API key", "Team card", "Rail5 cards"}}
		for suffix, label := range sections {
			status, page := s.page(base+suffix, true)
			if status != http.StatusOK {
				t.Fatalf("%s: %d", suffix, status)
			}
			current := `<a href="` + base + suffix + `" aria-current="page">` + label + `</a>`
			if !strings.Contains(page, current) || strings.Count(page, `aria-current="page"`) != 1 {
				t.Errorf("%s: the %s tab is not the one current", suffix, label)
			}
			for _, want := range contents[suffix] {
				if !strings.Contains(page, want) {
					t.Errorf("%s lacks %q", suffix, want)
				}
			}
			if t.Failed() {
				t.Logf("%s", page[strings.Index(page, "<main"):])
			}
		}
		other := newOwnerSite(t, s.dialect, testserver.Options{})
		for suffix := range sections {
			if status, _ := s.page("/dashboard/bots/"+other.botID+suffix, true); status != http.StatusNotFound {
				t.Errorf("another owner's bot %s: %d, want 404", suffix, status)
			}
		}
	})
}

var approvedBarRE = regexp.MustCompile(`(?s)data-chart="chart-approved".*?</svg>`)
var heightRE = regexp.MustCompile(`<rect class="bar"[^>]* height="([0-9.]+)"[^>]*><title>([^<]*)</title>`)

// THE CHART TEST, end to end: $5 purchases and a declined $9,999 attempt
// on the spending page; the approved chart's bars for the $5 purchases
// are at least a third of the plot high, and the attempt is drawn apart.
func TestSpendingPageKeepsFiveDollarBarsVisibleBesideADeclined9999(t *testing.T) {
	eachEngine(t, testserver.Options{}, func(t *testing.T, s *ownerSite) {
		g, _ := s.owner.Guardrails(s.ctx, s.botID)
		g.ApprovalMode, g.Limits.AskApprovalAboveUSD = client.ApprovalUnderThreshold, nil
		if _, err := s.owner.SetGuardrails(s.ctx, s.botID, *g); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if co, err := s.buy(500, "Coffee", "food"); err != nil || co.Approved == nil || !*co.Approved {
				t.Fatalf("$5 purchase: %+v %v", co, err)
			}
		}
		if _, err := s.buy(999_900, "Yacht", "leisure"); err == nil {
			t.Fatal("the $9,999 attempt was not declined")
		}
		status, page := s.page("/dashboard/bots/"+s.botID+"/spending", true)
		if status != http.StatusOK {
			t.Fatalf("spending page: %d", status)
		}
		chart := approvedBarRE.FindString(page)
		today := time.Now().UTC().Format("Jan 2")
		var found bool
		for _, m := range heightRE.FindAllStringSubmatch(chart, -1) {
			h, _ := strconv.ParseFloat(m[1], 64)
			if m[2] == today+": $15.00" {
				found = true
				if h < 180.0/3 {
					t.Errorf("today's approved bar ($15.00) is %.1f px of a 180 px plot", h)
				}
			}
			if strings.Contains(m[2], "9,999") {
				t.Errorf("the declined attempt is drawn in the approved chart")
			}
		}
		if !found {
			t.Fatalf("no approved bar for today in %s", chart)
		}
		for _, want := range []string{`data-chart="chart-declined"`, today + ": $9,999.00", "food: $15.00"} {
			if !strings.Contains(page, want) {
				t.Errorf("spending page lacks %q", want)
			}
		}
	})
}

// TestTransactionsListEveryRail: the card wallet's movements and the
// processor wallet's USDC movements in one list, amounts with separators.
func TestTransactionsListEveryRail(t *testing.T) {
	eachEngine(t, testserver.Options{}, func(t *testing.T, s *ownerSite) {
		if _, err := s.owner.CreateProcessorWallet(s.ctx, s.botID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.owner.Fund(s.ctx, s.botID, client.Dollars(1234, 50), "processor_wallet"); err != nil {
			t.Fatal(err)
		}
		s.fund(s.botID, client.Dollars(10_000, 0))
		_, page := s.page("/dashboard/bots/"+s.botID+"/spending", true)
		for _, want := range []string{`data-rail="processor_wallet"`, "1,234.50 USDC", `data-rail="card_wallet"`, "$10,000.00", "$10,100.00"} {
			if !strings.Contains(page, want) {
				t.Errorf("transactions lack %q", want)
			}
		}
	})
}

// TestAcknowledgedMessagesNoLongerReadStaged: an event staged for a bot
// without a webhook reads "waiting" until the bot acknowledges it, then
// "fetched by the bot".
func TestAcknowledgedMessagesNoLongerReadStaged(t *testing.T) {
	eachEngine(t, testserver.Options{}, func(t *testing.T, s *ownerSite) {
		settings := "/dashboard/bots/" + s.botID + "/settings"
		if _, page := s.page(settings, true); !strings.Contains(page, "waiting for the bot to fetch it") {
			t.Fatal("a staged event does not read as waiting")
		}
		msgs, err := s.bot.Messages(s.ctx, 100)
		if err != nil || len(msgs) == 0 {
			t.Fatalf("messages: %d %v", len(msgs), err)
		}
		ids := make([]int64, len(msgs))
		for i, m := range msgs {
			ids[i] = m.MessageID
		}
		if _, err := s.bot.Ack(s.ctx, ids); err != nil {
			t.Fatal(err)
		}
		_, page := s.page(settings, true)
		if strings.Contains(page, "waiting for the bot") || strings.Contains(page, ">staged<") || !strings.Contains(page, "fetched by the bot") {
			t.Errorf("acknowledged events: waiting=%v staged=%v", strings.Contains(page, "waiting for the bot"), strings.Contains(page, ">staged<"))
		}
	})
}

// TestPendingRequestsAreAWarningNotASuccess: the count of requests
// awaiting a decision uses the attention style, in words, on the bot page
// and first on the owner's overview.
func TestPendingRequestsAreAWarningNotASuccess(t *testing.T) {
	eachEngine(t, testserver.Options{}, func(t *testing.T, s *ownerSite) {
		s.heldLinks(2500)
		_, page := s.page("/dashboard/bots/"+s.botID, true)
		if !strings.Contains(page, `<p class="attention" role="status" data-testid="bot-pending"><a href="/dashboard/approvals">1 request from this bot awaits your decision</a>`) {
			t.Errorf("bot page: no attention-style pending notice")
		}
		if strings.Contains(page, "request(s)") {
			t.Error("bot page still says request(s)")
		}
		_, home := s.page("/dashboard", true)
		decide, totals := strings.Index(home, "1 request awaits your decision"), strings.Index(home, "Across your bots")
		if decide < 0 || totals < 0 || decide > totals || !strings.Contains(home, `class="attention-box"`) {
			t.Errorf("overview: pending approvals are not first in the attention style (%d, %d)", decide, totals)
		}
		if !strings.Contains(home, `action="/dashboard/approvals/purchase/`) {
			t.Error("overview: no Approve/Deny forms for the pending request")
		}
	})
}

// TestOwnerOverviewTotalsLowBalancesAndFailingWebhooks: two bots' balances
// add up; a bot below its threshold and a bot whose webhook fails are
// listed.
func TestOwnerOverviewTotalsLowBalancesAndFailingWebhooks(t *testing.T) {
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(500) }))
	t.Cleanup(failing.Close)
	eachEngine(t, testserver.Options{Deliver: true}, func(t *testing.T, s *ownerSite) {
		_, lowID := s.claimBot("Thrifty", "")
		s.fund(lowID, client.Dollars(3, 0))
		_, flakyID := s.claimBot("Flaky", failing.URL+"/hook")
		s.fund(flakyID, client.Dollars(20_000, 0))
		deadline := time.Now().Add(10 * time.Second)
		var page string
		for {
			_, page = s.page("/dashboard", true)
			if strings.Contains(page, `data-testid="failing-webhooks"`) || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		for _, want := range []string{`data-testid="total-bots">3<`, `data-testid="total-balance">$20,103.00<`,
			"Thrifty</a>: $3.00 available, below its $5.00 threshold"} {
			if !strings.Contains(page, want) {
				t.Errorf("overview lacks %q", want)
			}
		}
		if !regexp.MustCompile(`Flaky</a>: <span class="badge (degraded|unreachable)">`).MatchString(page) {
			t.Error("overview does not list the failing webhook")
		}
		low := page[strings.Index(page, `data-testid="low-balances"`):]
		if strings.Contains(low[:strings.Index(low, "</ul>")], "Shopper") {
			t.Error("a bot with $100 is listed as low")
		}
	})
}

// TestDecisionPageShowsTheRequestAndWorksOnce: the e-mail link's page shows
// bot, item, merchant, amount, category, the guardrail and the time left
// with both buttons, and needs no login; after the decision, the same or
// the other link is refused with a page that says why.
func TestDecisionPageShowsTheRequestAndWorksOnce(t *testing.T) {
	eachEngine(t, testserver.Options{}, func(t *testing.T, s *ownerSite) {
		s.fund(s.botID, client.Dollars(2_000, 0))
		id, approve, deny := s.heldLinks(123_450)
		status, page := s.page(approve, false)
		if status != http.StatusOK {
			t.Fatalf("GET link: %d %s", status, page)
		}
		for _, want := range []string{`data-testid="decide-amount">$1,234.50<`, `data-testid="decide-bot">Shopper<`,
			`data-testid="decide-item">Ergonomic chair<`, `Acme<br><span class="muted">https://shop.acme.com/widgets`,
			`data-testid="decide-category">furniture<`, `approval mode &#34;ask me for everything&#34;`, ">Approve</button>", ">Deny</button>"} {
			if !strings.Contains(page, want) {
				t.Errorf("decision page lacks %q", want)
			}
		}
		if !regexp.MustCompile(`data-testid="decide-time-left">1[45] min`).MatchString(page) {
			t.Error("decision page does not show the time left")
		}
		token := strings.TrimPrefix(approve, "/dashboard/decide?t=")
		if status, page := s.send("POST", "/dashboard/decide", url.Values{"t": {token}}, false); status != http.StatusOK || !strings.Contains(page, "approved") {
			t.Fatalf("POST approve: %d", status)
		}
		if st, _ := s.bot.CheckoutStatus(s.ctx, id); st.Status != client.PurchaseApproved {
			t.Fatalf("status after approval: %s", st.Status)
		}
		for _, link := range []string{approve, deny} {
			status, page := s.page(link, false)
			if status != http.StatusConflict || !strings.Contains(page, "This request was already decided") || strings.Contains(page, "<button type=\"submit\">Approve") {
				t.Errorf("GET %s after the decision: %d", link[:30], status)
			}
		}
		if status, page := s.send("POST", "/dashboard/decide", url.Values{"t": {token}}, false); status != http.StatusConflict || !strings.Contains(page, "already decided") {
			t.Errorf("second POST: %d", status)
		}
	})
}

func TestDecisionPageRefusesAnExpiredHold(t *testing.T) {
	t.Parallel()
	for _, dialect := range storetest.Dialects {
		t.Run(string(dialect), func(t *testing.T) {
			t.Parallel()
			c := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
			s := newOwnerSite(t, dialect, testserver.Options{Clock: c})
			id, approve, _ := s.heldLinks(2500)
			c.Advance(botpay.HoldWindow + time.Second)
			status, page := s.page(approve, false)
			if status != http.StatusGone || !strings.Contains(page, "This request has expired") || strings.Contains(page, ">Approve</button>") {
				t.Errorf("GET expired link: %d", status)
			}
			token := strings.TrimPrefix(approve, "/dashboard/decide?t=")
			if status, _ := s.send("POST", "/dashboard/decide", url.Values{"t": {token}}, false); status != http.StatusGone {
				t.Errorf("POST expired link: %d", status)
			}
			if st, _ := s.bot.CheckoutStatus(s.ctx, id); st.Status != client.PurchaseExpired {
				t.Errorf("status: %s, want expired", st.Status)
			}
		})
	}
}

// TestProcurementFormEditsBlockedRecipients: the owner blocks x402
// recipients from the settings page as it allows them; the addresses are
// saved in their checksummed form and shown again, and a malformed one is
// refused naming the field.
func TestProcurementFormEditsBlockedRecipients(t *testing.T) {
	eachEngine(t, testserver.Options{}, func(t *testing.T, s *ownerSite) {
		const blocked = "0x209693bc6afc0c5328ba36faf03c514ef312287c"
		const checksummed = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
		form := url.Values{"blocked_recipients": {blocked}, "allowed_recipients": {""}}
		if status, _ := s.send("POST", "/dashboard/bots/"+s.botID+"/procurement", form, true); status != http.StatusSeeOther {
			t.Fatalf("saving the procurement form: %d, want 303", status)
		}
		p, err := s.owner.Procurement(s.ctx, s.botID)
		if err != nil || len(p.BlockedRecipients) != 1 || p.BlockedRecipients[0] != checksummed || len(p.AllowedRecipients) != 0 {
			t.Fatalf("procurement after the form: %+v %v, want %s blocked", p, err, checksummed)
		}
		if _, page := s.page("/dashboard/bots/"+s.botID+"/settings", true); !strings.Contains(page,
			`<textarea id="blocked_recipients" name="blocked_recipients">`+checksummed) {
			t.Errorf("the settings page does not show the blocked recipient")
		}
		form.Set("blocked_recipients", "not-an-address")
		if _, page := s.send("POST", "/dashboard/bots/"+s.botID+"/procurement", form, true); !strings.Contains(page, "blocked_recipients") {
			t.Errorf("a malformed blocked recipient was not refused by name")
		}
	})
}
