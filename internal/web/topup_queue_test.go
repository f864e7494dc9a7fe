package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
)

var topupRowID = regexp.MustCompile(`data-testid="topup" data-id="(\d+)"`)

// TestOpenTopupRequestsWaitInTheApprovalsQueue: a bot's top-up request
// waits in the approvals queue beside held purchases (the bot page links
// there); funding it from the queue covers it and credits the wallet, and
// dismissing one closes it without moving money. Another owner can do
// neither.
func TestOpenTopupRequestsWaitInTheApprovalsQueue(t *testing.T) {
	eachEngine(t, testserver.Options{}, func(t *testing.T, s *ownerSite) {
		for _, amount := range []client.USD{client.Dollars(20, 0), client.Dollars(7, 50)} {
			if _, err := s.bot.TopupRequest(s.ctx, amount, "printer ink"); err != nil {
				t.Fatal(err)
			}
		}
		_, queue := s.page("/dashboard/approvals", true)
		ids := topupRowID.FindAllStringSubmatch(queue, -1)
		if len(ids) != 2 || strings.Contains(queue, "Nothing awaits your decision") || !strings.Contains(queue, "Fund $20.00") {
			t.Fatalf("the queue does not show both top-up requests:\n%s", queue)
		}
		if _, botPage := s.page("/dashboard/bots/"+s.botID, true); !strings.Contains(botPage, `<a href="/dashboard/approvals#h-topups">2</a>`) {
			t.Errorf("the bot page does not link its open top-up requests to the queue")
		}
		stranger := newOwnerSite(t, s.dialect, testserver.Options{DB: s.srv.DB})
		if status, _ := stranger.send("POST", "/dashboard/approvals/topup/"+ids[0][1]+"/fund", url.Values{}, true); status != http.StatusNotFound {
			t.Errorf("another owner funded the request: HTTP %d", status)
		}
		if status, _ := s.send("POST", "/dashboard/approvals/topup/"+ids[0][1]+"/fund", url.Values{}, true); status != http.StatusSeeOther {
			t.Fatalf("fund from the queue: HTTP %d", status)
		}
		if status, _ := s.send("POST", "/dashboard/approvals/topup/"+ids[1][1]+"/dismiss", url.Values{}, true); status != http.StatusSeeOther {
			t.Fatalf("dismiss from the queue: HTTP %d", status)
		}
		if _, queue = s.page("/dashboard/approvals", true); topupRowID.MatchString(queue) || !strings.Contains(queue, "Nothing awaits your decision") {
			t.Errorf("covered and dismissed requests still wait in the queue")
		}
		w, err := s.bot.WalletCheck(s.ctx)
		if err != nil || w.BalanceUSD != client.Dollars(120, 0) || w.PendingTopups != 0 {
			t.Errorf("after funding $20 and dismissing $7.50: %+v (%v), want $120.00 and no open request", w, err)
		}
	})
}
