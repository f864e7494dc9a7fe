package e2e

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

// One bot sent 25 invoice e-mails to 25 strangers and hit no limit. Each
// bot may send InvoiceMailsPerBotPerDay invoice e-mails a rolling day and
// each owner InvoiceMailsPerOwnerPerDay over all their bots (here 3 and 5);
// the next send is 429 rate_limited, stays a draft and mails nothing, on
// whichever replica it arrives.
// Invoices without a recipient address mail nothing and count nothing.
func TestInvoiceMailsAreLimitedPerBotAndPerOwner(t *testing.T) {
	t.Parallel()
	for _, dialect := range storetest.Dialects {
		t.Run(string(dialect), func(t *testing.T) {
			t.Parallel()
			clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
			opts := testserver.Options{Clock: clock, Limits: app.Limits{InvoiceMailsPerBotPerDay: 3, InvoiceMailsPerOwnerPerDay: 5}}
			h := start(t, dialect, opts)
			a := h.claimedBot("mailer-a")
			_, regB := h.register(client.RegisterRequest{BotName: "mailer-b", OwnerEmail: uniqueEmail("mailer-b")})
			if _, err := a.owner.Claim(h.ctx, *regB.ClaimToken); err != nil {
				t.Fatal(err)
			}
			// The owner's second bot sends through another replica: the
			// counts live in the database they share.
			b := client.New(h.srv.Replica(t, opts).URL, regB.APIKey)
			stranger := h.claimedBot("mailer-c") // another owner
			send := mailSender(t, h)
			for i := range 3 {
				send(a.bot, "a"+strconv.Itoa(i), http.StatusOK, "")
			}
			send(a.bot, "", http.StatusOK, "") // no recipient: no mail, not counted
			refusedA := send(a.bot, "a3", http.StatusTooManyRequests, "this bot")
			send(b, "b0", http.StatusOK, "")
			send(b, "b1", http.StatusOK, "")
			send(b, "b2", http.StatusTooManyRequests, "owner")
			send(stranger.bot, "c0", http.StatusOK, "")

			clock.Advance(24 * time.Hour)
			if sent, err := a.bot.SendInvoice(h.ctx, refusedA); err != nil || !sent.EmailSent {
				t.Fatalf("the refused draft a day later: %+v, %v", sent, err)
			}
			if len(h.mailTo("a3@example.com")) != 1 {
				t.Error("the refused draft was not mailed a day later")
			}
		})
	}
}

// mailSender creates an invoice for recipient (none when empty) and sends
// it, expecting status; a refusal must be rate_limited naming whose limit,
// leave a draft and mail nothing. It returns the invoice id.
func mailSender(t *testing.T, h *harness) func(bot *client.Client, recipient string, status int, who string) string {
	pages := map[*client.Client]string{}
	return func(bot *client.Client, recipient string, status int, who string) string {
		t.Helper()
		if pages[bot] == "" {
			page, err := bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Services"})
			if err != nil {
				t.Fatal(err)
			}
			pages[bot] = page.CheckoutPageID
		}
		req := client.InvoiceRequest{CheckoutPageID: pages[bot], RecipientName: wire.Ptr("Dear customer"),
			LineItems: []client.LineItemRequest{{Description: "Work", Quantity: "1", UnitPriceUSD: 100}}}
		if recipient != "" {
			req.RecipientEmail = wire.Ptr(recipient + "@example.com")
		}
		inv, err := bot.CreateInvoice(h.ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		_, err = bot.SendInvoice(h.ctx, inv.InvoiceID)
		if status == http.StatusOK {
			if err != nil {
				t.Fatalf("send to %q: %v", recipient, err)
			}
			return inv.InvoiceID
		}
		e := wantError(t, err, status, client.CodeRateLimited)
		if e != nil && (e.RetryAfterSeconds <= 0 || !strings.Contains(e.Message, who)) {
			t.Errorf("refusal %+v, want retry_after_seconds and a message naming %q", e, who)
		}
		if drafts, _ := bot.Invoices(h.ctx, client.InvoiceFilter{Status: client.InvoiceDraft}); len(drafts) != 1 || drafts[0].InvoiceID != inv.InvoiceID {
			t.Errorf("drafts after a refusal = %+v, want the refused invoice only", drafts)
		}
		if len(h.mailTo(recipient+"@example.com")) != 0 {
			t.Errorf("a refused invoice was mailed to %s", recipient)
		}
		return inv.InvoiceID
	}
}
