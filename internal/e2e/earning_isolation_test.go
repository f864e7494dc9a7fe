package e2e

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

// TestForeignCallersSeeNothing walks every earning endpoint as another bot
// (of another owner, and of the same owner) and as another owner, and
// expects the interface's 404 codes or empty lists.
func TestForeignCallersSeeNothing(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		alice := h.claimedBot("alice-seller")
		page, err := alice.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Alice's page", AmountUSD: usd(700)})
		if err != nil {
			t.Fatal(err)
		}
		inv, err := alice.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, RecipientEmail: wire.Ptr("r@example.com"),
			LineItems: []client.LineItemRequest{{Description: "Secret work", Quantity: "1", UnitPriceUSD: 900}}})
		if err != nil {
			t.Fatal(err)
		}
		link, _ := alice.bot.CreatePaymentLink(h.ctx, 300, "Alice's link", "")
		if _, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{BuyerEmail: "b@example.com"}); err != nil {
			t.Fatal(err)
		}

		bob := h.claimedBot("bob-seller")
		// A second bot of Alice's owner is still another bot.
		sibling, sibReg := h.register(client.RegisterRequest{BotName: "alice-sibling", OwnerEmail: uniqueEmail("sib")})
		if _, err := alice.owner.Claim(h.ctx, *sibReg.ClaimToken); err != nil {
			t.Fatal(err)
		}
		bobPage, _ := bob.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Bob's page"})

		for name, other := range map[string]*client.Client{"other owner's bot": bob.bot, "same owner's other bot": sibling} {
			t.Run(name, func(t *testing.T) {
				checkForeignBotSeesNothing(t, h.fork(t), other, page, inv, link)
			})
		}

		_, err = bob.owner.CancelInvoice(h.ctx, inv.InvoiceID)
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)
		_, err = bob.owner.CancelInvoice(h.ctx, "inv_doesnotexist0000")
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)

		// Alice's invoice cannot be paid, viewed or downloaded through Bob's page.
		_, err = h.bots.PayCheckoutSandbox(h.ctx, bobPage.CheckoutPageID, client.BuyerPayment{BuyerEmail: "b@example.com", Ref: wire.Ptr(inv.ReferenceNumber)})
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)
		if status, body := h.page(t, "/pay/"+bobPage.CheckoutPageID+"?ref="+url.QueryEscape(inv.ReferenceNumber)); status != http.StatusNotFound || strings.Contains(body, "Secret work") {
			t.Errorf("invoice through a foreign page: HTTP %d", status)
		}
		if status, _ := h.page(t, "/pay/"+bobPage.CheckoutPageID+"/invoice.pdf?ref="+url.QueryEscape(inv.ReferenceNumber)); status != http.StatusNotFound {
			t.Errorf("PDF through a foreign page: HTTP %d", status)
		}
		invoices, _ := alice.bot.Invoices(h.ctx, client.InvoiceFilter{})
		if len(invoices) != 1 || invoices[0].Status != client.InvoiceDraft {
			t.Errorf("Alice's invoice changed: %+v", invoices)
		}

		_, err = h.bots.PayCheckoutSandbox(h.ctx, "cp_doesnotexist0000", client.BuyerPayment{BuyerEmail: "b@example.com"})
		wantError(t, err, http.StatusNotFound, client.CodeCheckoutPageNotFound)
		_, err = h.bots.PayLinkSandbox(h.ctx, "pl_doesnotexist0000", client.BuyerPayment{BuyerEmail: "b@example.com"})
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)
		for _, path := range []string{"/pay/cp_doesnotexist0000", "/pay/pl_doesnotexist0000", "/pay/nothing", "/pay/" + page.CheckoutPageID + "?ref=INV-1999-000001"} {
			if status, _ := h.page(t, path); status != http.StatusNotFound {
				t.Errorf("GET %s: HTTP %d, want 404", path, status)
			}
		}
	})
}

// checkForeignBotSeesNothing: another bot can neither invoice on, send,
// list nor see the sales of a page, invoice or link that is not its own.
func checkForeignBotSeesNothing(t *testing.T, h *harness, other *client.Client, page *client.CheckoutPage, inv *client.Invoice, link *client.PaymentLink) {
	_, err := other.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID,
		LineItems: []client.LineItemRequest{{Description: "x", Quantity: "1", UnitPriceUSD: 1}}})
	wantError(t, err, http.StatusNotFound, client.CodeCheckoutPageNotFound)
	_, err = other.SendInvoice(h.ctx, inv.InvoiceID)
	wantError(t, err, http.StatusNotFound, client.CodeNotFound)
	if list, _ := other.Invoices(h.ctx, client.InvoiceFilter{CheckoutPageID: page.CheckoutPageID}); len(list) != 0 {
		t.Errorf("invoices of a foreign page = %+v", list)
	}
	if list, _ := other.Invoices(h.ctx, client.InvoiceFilter{}); len(list) != 0 {
		t.Errorf("invoices = %+v", list)
	}
	if list, _ := other.Sales(h.ctx, client.SaleFilter{CheckoutPageID: page.CheckoutPageID}); len(list) != 0 {
		t.Errorf("sales of a foreign page = %+v", list)
	}
	for _, p := range must(other.CheckoutPages(h.ctx)) {
		if p.CheckoutPageID == page.CheckoutPageID {
			t.Error("foreign page listed")
		}
	}
	for _, l := range must(other.PaymentLinks(h.ctx, "", 0)) {
		if l.PaymentLinkID == link.PaymentLinkID {
			t.Error("foreign link listed")
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestGuessingInvoiceReferencesIsRateLimited(t *testing.T) {
	forEachEngine(t, testserver.Options{Limits: app.Limits{RefMissesPerHour: 2}}, func(t *testing.T, h *harness) {
		c := h.claimedBot("guessed")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Public page"})
		inv, _ := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID,
			LineItems: []client.LineItemRequest{{Description: "x", Quantity: "1", UnitPriceUSD: 100}}})
		for i, want := range []int{http.StatusNotFound, http.StatusNotFound, http.StatusTooManyRequests} {
			if status, _ := h.page(t, "/pay/"+page.CheckoutPageID+"?ref=INV-2026-90000"+strconv.Itoa(i)); status != want {
				t.Errorf("guess %d: HTTP %d, want %d", i+1, status, want)
			}
		}
		_, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{BuyerEmail: "b@example.com", Ref: wire.Ptr("INV-2026-999999")})
		wantError(t, err, http.StatusTooManyRequests, client.CodeRateLimited)
		// The real reference still works: only misses count.
		if status, _ := h.page(t, inv.PaymentURL); status != http.StatusOK {
			t.Errorf("known reference after the limit: HTTP %d", status)
		}
	})
}
