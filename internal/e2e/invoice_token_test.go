package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

// Anyone holding a checkout page's link could walk its invoices by
// reference number (INV-…-000062, …063) and read each recipient's name,
// e-mail, lines and PDF, flipping them to viewed. The payment URL carries
// an unguessable token; without it, or with a wrong one (another invoice's
// included), nothing is shown, downloaded, paid or marked viewed, and the
// answer is the unknown invoice's (a miss that counts against the client's
// limit, lifted here: TestGuessingInvoiceReferencesIsRateLimited tests it).
func TestInvoicePagesNeedTheirPaymentToken(t *testing.T) {
	forEachEngine(t, testserver.Options{Limits: app.Limits{RefMissesPerHour: 1000}}, func(t *testing.T, h *harness) {
		c := h.claimedBot("tokened")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Public page",
			AllowedMethods: []string{client.MethodUSDCDirect, client.MethodX402}})
		var invs []*client.Invoice
		for _, who := range []string{"Victim One", "Victim Two"} {
			inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, RecipientName: wire.Ptr(who),
				RecipientEmail: wire.Ptr(strings.ReplaceAll(strings.ToLower(who), " ", ".") + "@example.com"),
				LineItems:      []client.LineItemRequest{{Description: "Confidential retainer", Quantity: "1", UnitPriceUSD: 90000}}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.bot.SendInvoice(h.ctx, inv.InvoiceID); err != nil {
				t.Fatal(err)
			}
			invs = append(invs, inv)
		}
		victim, other := invs[0], invs[1]
		ref := url.QueryEscape(victim.ReferenceNumber)
		for name, query := range map[string]string{
			"no token":               "?ref=" + ref,
			"empty token":            "?ref=" + ref + "&t=",
			"wrong token":            "?ref=" + ref + "&t=" + strings.Repeat("A", 22),
			"another invoice's":      "?ref=" + ref + "&t=" + payToken(t, other),
			"the token's prefix":     "?ref=" + ref + "&t=" + payToken(t, victim)[:21],
			"the token and a tail":   "?ref=" + ref + "&t=" + payToken(t, victim) + "A",
			"the token in lowercase": "?ref=" + ref + "&t=" + strings.ToLower(payToken(t, victim)),
		} {
			t.Run(name, func(t *testing.T) { wantNoInvoiceWithout(t, h, page.CheckoutPageID, victim.ReferenceNumber, query) })
		}
		list, _ := c.bot.Invoices(h.ctx, client.InvoiceFilter{})
		for _, inv := range list {
			if inv.Status != client.InvoiceSent || inv.ViewedAt != nil || inv.SaleID != nil {
				t.Errorf("invoice %s changed without its token: %+v", inv.ReferenceNumber, inv)
			}
		}
		// The URL the API handed out (and e-mailed) shows and marks it.
		if status, body := h.page(t, victim.PaymentURL); status != http.StatusOK || !strings.Contains(body, "Victim One") {
			t.Fatalf("own payment URL: HTTP %d\n%s", status, body)
		}
		if viewed, _ := c.bot.Invoices(h.ctx, client.InvoiceFilter{Status: client.InvoiceViewed}); len(viewed) != 1 ||
			viewed[0].InvoiceID != victim.InvoiceID || viewed[0].PaymentURL != victim.PaymentURL {
			t.Errorf("viewed = %+v, want the victim's invoice with the same payment_url", viewed)
		}
		mails := h.mailTo("victim.one@example.com")
		if len(mails) != 1 || !strings.Contains(mails[0].Text, h.srv.URL+victim.PaymentURL) {
			t.Errorf("the e-mail does not carry the tokened URL %s: %+v", victim.PaymentURL, mails)
		}
	})
}

// wantNoInvoiceWithout checks that a buyer URL with query (a wrong or
// missing token) shows, downloads and pays nothing on page, HEAD, PDF,
// sandbox pay, the form and the x402 endpoint.
func wantNoInvoiceWithout(t *testing.T, h *harness, pageID, ref, query string) {
	t.Helper()
	status, body := h.page(t, "/pay/"+pageID+query)
	if status != http.StatusNotFound || strings.Contains(body, "Victim") || strings.Contains(body, "victim.one") ||
		strings.Contains(body, "Confidential") {
		t.Errorf("page: HTTP %d, want 404 without the invoice\n%s", status, body)
	}
	if status := h.head(t, "/pay/"+pageID+query); status != http.StatusNotFound {
		t.Errorf("HEAD: HTTP %d, want 404", status)
	}
	if status, body := h.page(t, "/pay/"+pageID+"/invoice.pdf"+query); status != http.StatusNotFound ||
		strings.HasPrefix(body, "%PDF") {
		t.Errorf("PDF: HTTP %d, want 404", status)
	}
	values, _ := url.ParseQuery(strings.TrimPrefix(query, "?"))
	_, err := h.bots.PayCheckoutSandbox(h.ctx, pageID, client.BuyerPayment{BuyerEmail: "b@example.com",
		Ref: wire.Ptr(ref), Token: optText(values.Get("t"))})
	wantError(t, err, http.StatusNotFound, client.CodeNotFound)
	status, body = h.postForm(t, "/pay/"+pageID, url.Values{"ref": {ref},
		"t": {values.Get("t")}, "buyer_email": {"b@example.com"}, "method": {client.MethodUSDCDirect}})
	if status != http.StatusNotFound || strings.Contains(body, "Victim") {
		t.Errorf("form payment: HTTP %d, want 404", status)
	}
	resp, err := h.srv.HTTP.Client().Get(h.srv.URL + "/api/v1/checkout/" + pageID + "/x402" + query)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("x402 requirements: HTTP %d, want 404", resp.StatusCode)
	}
}
