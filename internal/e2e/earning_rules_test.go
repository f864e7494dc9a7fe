package e2e

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

// forEachEngineWithClock is forEachEngine with a manual clock per engine.
func forEachEngineWithClock(t *testing.T, test func(t *testing.T, h *harness, clock *botpay.ManualClock)) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
		test(t, start(t, dialect, testserver.Options{Clock: clock}), clock)
	})
}

func TestPaymentLinkExpiresAfter24HoursUntouched(t *testing.T) {
	forEachEngineWithClock(t, func(t *testing.T, h *harness, clock *botpay.ManualClock) {
		c := h.claimedBot("expiring")
		link, err := c.bot.CreatePaymentLink(h.ctx, 100, "Coffee", "")
		if err != nil {
			t.Fatal(err)
		}
		if !link.ExpiresAt.Equal(clock.Now().Add(24 * time.Hour)) {
			t.Errorf("expires_at %v, want 24 h after %v", link.ExpiresAt, clock.Now())
		}
		clock.Advance(24*time.Hour - time.Millisecond)
		if links, _ := c.bot.PaymentLinks(h.ctx, client.LinkPending, 0); len(links) != 1 {
			t.Errorf("pending links just before expiry = %+v, want the link", links)
		}
		clock.Advance(time.Millisecond)
		for status, want := range map[string]int{"": 1, client.LinkExpired: 1, client.LinkPending: 0, client.LinkCompleted: 0} {
			links, err := c.bot.PaymentLinks(h.ctx, status, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(links) != want {
				t.Errorf("status=%q: %d links, want %d", status, len(links), want)
			}
			for _, l := range links {
				if l.Status != client.LinkExpired || textOf(l.CheckoutURL) != "" {
					t.Errorf("link at expiry = %+v, want expired without checkout_url", l)
				}
			}
		}
		_, err = h.bots.PayLinkSandbox(h.ctx, link.PaymentLinkID, client.BuyerPayment{BuyerEmail: "late@example.com"})
		wantError(t, err, http.StatusConflict, client.CodePaymentLinkNotPending)
		if _, body := h.page(t, "/pay/"+link.PaymentLinkID); !strings.Contains(body, "has expired") || strings.Contains(body, "<form") {
			t.Errorf("expired link page offers payment:\n%s", body)
		}
		if w, _ := c.bot.WalletCheck(h.ctx); w.BalanceUSD != 0 {
			t.Errorf("balance %s after a refused payment", w.BalanceUSD)
		}
	})
}

func TestCheckoutPageExpiresAtItsTime(t *testing.T) {
	forEachEngineWithClock(t, func(t *testing.T, h *harness, clock *botpay.ManualClock) {
		c := h.claimedBot("event-seller")
		at := clock.Now().Add(time.Hour)
		page, err := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Gig ticket", AmountUSD: usd(500),
			PageType: wire.Ptr(client.PageEvent), ExpiresAt: wire.Ptr(at.Format(time.RFC3339Nano))})
		if err != nil {
			t.Fatal(err)
		}
		if page.ExpiresAt == nil || !page.ExpiresAt.Equal(at) {
			t.Errorf("expires_at = %v, want %v", page.ExpiresAt, at)
		}
		inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID,
			LineItems: []client.LineItemRequest{{Description: "Group booking", Quantity: "10", UnitPriceUSD: 500}}})
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Hour - time.Millisecond)
		if pages, _ := c.bot.CheckoutPages(h.ctx); pages[0].Status != "active" {
			t.Errorf("status just before expires_at = %s", pages[0].Status)
		}
		clock.Advance(time.Millisecond)
		_, err = h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{BuyerEmail: "fan@example.com"})
		wantError(t, err, http.StatusGone, client.CodeCheckoutPageExpired)
		// An invoice billed through the page outlives the page's own offer.
		if _, body := h.page(t, inv.PaymentURL); !strings.Contains(body, "<form") {
			t.Errorf("invoice on an expired page offers no payment:\n%s", body)
		}
		if _, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{BuyerEmail: "fan@example.com",
			Ref: wire.Ptr(inv.ReferenceNumber), Token: wire.Ptr(payToken(t, inv))}); err != nil {
			t.Errorf("paying the invoice after the page expired: %v", err)
		}
		pages, _ := c.bot.CheckoutPages(h.ctx)
		if len(pages) != 1 || pages[0].Status != "expired" {
			t.Errorf("pages = %+v, want expired", pages)
		}
		if _, body := h.page(t, "/pay/"+page.CheckoutPageID); !strings.Contains(body, "has expired") || strings.Contains(body, "<form") {
			t.Errorf("expired page offers payment:\n%s", body)
		}
	})
}

func TestInvoiceDefaultDueDateIs30Days(t *testing.T) {
	forEachEngineWithClock(t, func(t *testing.T, h *harness, clock *botpay.ManualClock) {
		c := h.claimedBot("due")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Work"})
		inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID,
			LineItems: []client.LineItemRequest{{Description: "Hour", Quantity: "1", UnitPriceUSD: 100}}})
		if err != nil {
			t.Fatal(err)
		}
		if want := clock.Now().Add(30 * 24 * time.Hour); !inv.DueDate.Equal(want) {
			t.Errorf("due_date %v, want %v", inv.DueDate, want)
		}
		if inv.ReferenceNumber != "INV-2026-000001" {
			t.Errorf("first reference = %s, want INV-2026-000001", inv.ReferenceNumber)
		}
		due := time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)
		inv2, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, DueDate: wire.Ptr(due.Format(time.RFC3339)),
			LineItems: []client.LineItemRequest{{Description: "Hour", Quantity: "1", UnitPriceUSD: 100}}})
		if err != nil {
			t.Fatal(err)
		}
		if !inv2.DueDate.Equal(due) || inv2.ReferenceNumber != "INV-2026-000002" {
			t.Errorf("second invoice due %v ref %s", inv2.DueDate, inv2.ReferenceNumber)
		}
	})
}

func TestReferenceNumbersAreUniqueAcrossBotsUnderConcurrency(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		const bots, each = 3, 5
		refs := make(chan string, bots*each)
		errs := make(chan error, bots*each)
		var sellers []claimed
		var pages []string
		for i := range bots {
			c := h.claimedBot("numberer-" + string(rune('a'+i)))
			p, err := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Invoices"})
			if err != nil {
				t.Fatal(err)
			}
			sellers, pages = append(sellers, c), append(pages, p.CheckoutPageID)
		}
		done := make(chan struct{})
		for i, c := range sellers {
			for range each {
				go func() {
					defer func() { done <- struct{}{} }()
					inv, err := c.bot.CreateInvoice(context.Background(), client.InvoiceRequest{CheckoutPageID: pages[i],
						LineItems: []client.LineItemRequest{{Description: "x", Quantity: "1", UnitPriceUSD: 1}}})
					if err != nil {
						errs <- err
						return
					}
					refs <- inv.ReferenceNumber
				}()
			}
		}
		for range bots * each {
			<-done
		}
		close(refs)
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		seen := map[string]bool{}
		for r := range refs {
			if seen[r] {
				t.Errorf("reference %s handed out twice", r)
			}
			seen[r] = true
		}
		if len(seen) != bots*each {
			t.Errorf("%d distinct references, want %d", len(seen), bots*each)
		}
	})
}

func TestUnclaimedBotCannotEarnYet(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		bot, _ := h.register(client.RegisterRequest{BotName: "early", OwnerEmail: uniqueEmail("early")})
		_, err := bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Too soon"})
		wantError(t, err, http.StatusBadRequest, client.CodeWalletNotFound)
		_, err = bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: "cp_0000000000000000",
			LineItems: []client.LineItemRequest{{Description: "x", Quantity: "1", UnitPriceUSD: 1}}})
		wantError(t, err, http.StatusBadRequest, client.CodeWalletNotFound)
		_, err = bot.SendInvoice(h.ctx, "inv_0000000000000000")
		wantError(t, err, http.StatusBadRequest, client.CodeWalletNotFound)
		_, err = bot.CreatePaymentLink(h.ctx, 100, "Too soon", "")
		wantError(t, err, http.StatusBadRequest, client.CodeWalletNotActive)

		invoices, err := bot.Invoices(h.ctx, client.InvoiceFilter{})
		if err != nil || invoices == nil || len(invoices) != 0 {
			t.Errorf("invoices = %v, %v; want an empty array", invoices, err)
		}
		if got := string(h.wire.fields("GET /api/v1/bot/invoices")["invoices"]); got != "[]" {
			t.Errorf("invoices = %s, want []", got)
		}
		if _, err := bot.Sales(h.ctx, client.SaleFilter{}); err != nil {
			t.Fatal(err)
		}
		if got := string(h.wire.fields("GET /api/v1/bot/sales")["sales"]); got != "[]" {
			t.Errorf("sales = %s, want []", got)
		}
		if _, err := bot.CheckoutPages(h.ctx); err != nil {
			t.Fatal(err)
		}
		if got := string(h.wire.fields("GET /api/v1/bot/checkout-pages")["checkout_pages"]); got != "[]" {
			t.Errorf("checkout_pages = %s, want []", got)
		}
		if _, err := bot.PaymentLinks(h.ctx, "", 0); err != nil {
			t.Fatal(err)
		}
		if got := string(h.wire.fields("GET /api/v1/bot/payments/links")["payment_links"]); got != "[]" {
			t.Errorf("payment_links = %s, want []", got)
		}
	})
}

func TestEarningAuthenticationFailures(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		bad := h.bots.WithAPIKey("bp_live_" + strings.Repeat("0", 48))
		_, err := bad.Sales(h.ctx, client.SaleFilter{})
		wantError(t, err, http.StatusUnauthorized, client.CodeUnauthorized)
		_, err = h.bots.Sales(h.ctx, client.SaleFilter{}) // no key at all
		wantError(t, err, http.StatusUnauthorized, client.CodeUnauthorized)
		_, err = bad.CheckoutPages(h.ctx)
		wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
		_, err = bad.Invoices(h.ctx, client.InvoiceFilter{})
		wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
		_, err = bad.PaymentLinks(h.ctx, "", 0)
		wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
		_, err = bad.SendInvoice(h.ctx, "inv_0000000000000000")
		wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
	})
}

func TestInvoiceSendEdgeCases(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("sender")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Work"})
		line := []client.LineItemRequest{{Description: "Hour", Quantity: "1", UnitPriceUSD: 100}}

		// A blank id, and the path without an id segment, name no invoice.
		// ("/invoices//send" is redirected by the router to the latter.)
		_, err := c.bot.SendInvoice(h.ctx, " ")
		wantError(t, err, http.StatusBadRequest, client.CodeMissingInvoiceID)
		req, _ := http.NewRequestWithContext(h.ctx, http.MethodPost, h.srv.URL+"/api/v1/bot/invoices/send", nil)
		req.Header.Set("Authorization", "Bearer "+c.reg.APIKey)
		resp, err := h.srv.HTTP.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("POST /api/v1/bot/invoices/send: HTTP %d, want 400 missing_invoice_id", resp.StatusCode)
		}
		_, err = c.bot.SendInvoice(h.ctx, "inv_0000000000000000")
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)

		inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, LineItems: line})
		if err != nil {
			t.Fatal(err)
		}
		sent, err := c.bot.SendInvoice(h.ctx, inv.InvoiceID)
		if err != nil {
			t.Fatal(err)
		}
		if sent.EmailSent || sent.EmailReason == nil || *sent.EmailReason != client.EmailNoRecipient || sent.Status != client.InvoiceSent {
			t.Errorf("send without recipient = %+v, want sent, email_sent false, no_recipient_email", sent)
		}

		inv2, _ := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, LineItems: line})
		cancelled, err := c.owner.CancelInvoice(h.ctx, inv2.InvoiceID)
		if err != nil {
			t.Fatal(err)
		}
		if cancelled.Status != client.InvoiceCancelled {
			t.Errorf("cancel = %+v", cancelled)
		}
		_, err = c.bot.SendInvoice(h.ctx, inv2.InvoiceID)
		wantError(t, err, http.StatusBadRequest, client.CodeOnlyDraftInvoicesCanSend)
		_, err = h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{BuyerEmail: "b@example.com", Ref: wire.Ptr(inv2.ReferenceNumber),
			Token: wire.Ptr(payToken(t, inv2))})
		wantError(t, err, http.StatusConflict, client.CodeInvoiceNotPayable)
		if _, body := h.page(t, cancelled.PaymentURL); !strings.Contains(body, "was cancelled") || strings.Contains(body, "<form") {
			t.Errorf("cancelled invoice page offers payment:\n%s", body)
		}
	})
}

func TestInvoiceEmailFailureStillMarksItSent(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("unlucky")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Work"})
		inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, RecipientEmail: wire.Ptr("x@example.com"),
			LineItems: []client.LineItemRequest{{Description: "Hour", Quantity: "1", UnitPriceUSD: 100}}})
		if err != nil {
			t.Fatal(err)
		}
		h.srv.Mail.SetFail(errors.New("smtp: connection refused"))
		sent, err := c.bot.SendInvoice(h.ctx, inv.InvoiceID)
		h.srv.Mail.SetFail(nil)
		if err != nil {
			t.Fatal(err)
		}
		if sent.EmailSent || sent.EmailReason == nil || *sent.EmailReason != client.EmailError || sent.Status != client.InvoiceSent {
			t.Errorf("send with failing mail = %+v, want sent, email_sent false, email_error", sent)
		}
		list, _ := c.bot.Invoices(h.ctx, client.InvoiceFilter{Status: client.InvoiceSent})
		if len(list) != 1 || list[0].SentAt == nil {
			t.Errorf("sent invoices = %+v", list)
		}
	})
}
