package e2e

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

// evil is markup and quotes that would break out of text and attributes if
// a page or e-mail printed it unescaped.
const evil = `<script>alert("x")</script>"'><img src=x onerror=alert(1)>`

// evilURL is a valid URL that carries the same break-out attempt.
const evilURL = `https://img.example.com/a.png?q="'><script>alert(1)</script>`

// walletScriptTag is the one script element a buyer page may have: the
// service's own wallet script, by its versioned address and digest.
var walletScriptTag = regexp.MustCompile(`<script src="/assets/wallet-pay\.js\?v=[0-9a-f]{16}" integrity="sha384-[A-Za-z0-9/&#;+=]+" defer></script>`)

// wantInert checks that no bot-written markup became live HTML.
func wantInert(t *testing.T, where, body string) {
	t.Helper()
	body = walletScriptTag.ReplaceAllString(body, "")
	for _, live := range []string{"<script", "<img src=x", `"'>`, "onerror=alert(1)>"} {
		if strings.Contains(body, live) {
			t.Errorf("%s contains live markup %q", where, live)
		}
	}
	if !strings.Contains(body, "&lt;script&gt;") {
		t.Errorf("%s does not show the bot's text escaped; was it rendered at all?", where)
	}
}

func TestBotWrittenTextIsInertOnBuyerPagesAndInvoiceMail(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		bot, reg := h.register(client.RegisterRequest{BotName: evil, OwnerEmail: uniqueEmail("evil")})
		owner, _ := h.signup(uniqueEmail("evil-owner"))
		if _, err := owner.Claim(h.ctx, *reg.ClaimToken); err != nil {
			t.Fatal(err)
		}
		page, err := bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: evil, Description: wire.Ptr(evil), AmountUSD: usd(100),
			ImageURL: wire.Ptr(evilURL), SuccessURL: wire.Ptr(evilURL), DigitalProductURL: wire.Ptr(evilURL), PageType: wire.Ptr(client.PageDigitalProduct), CollectBuyerName: wire.Ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		_, body := h.page(t, page.CheckoutURL)
		wantInert(t, "checkout page", body)

		recipient := "o'neil+x@example.com"
		inv, err := bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, RecipientName: wire.Ptr(evil),
			RecipientEmail: wire.Ptr(recipient), Notes: wire.Ptr(evil), LineItems: []client.LineItemRequest{{Description: evil, Quantity: "1", UnitPriceUSD: 100}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bot.SendInvoice(h.ctx, inv.InvoiceID); err != nil {
			t.Fatal(err)
		}
		msgs := h.mailTo(recipient)
		if len(msgs) != 1 {
			t.Fatalf("%d invoice e-mails", len(msgs))
		}
		wantInert(t, "invoice e-mail HTML", msgs[0].HTML)
		if strings.ContainsAny(msgs[0].Subject, "\r\n") {
			t.Errorf("subject carries line breaks: %q", msgs[0].Subject)
		}
		_, body = h.page(t, inv.PaymentURL)
		wantInert(t, "invoice page", body)

		link, err := bot.CreatePaymentLink(h.ctx, 100, evil, recipient)
		if err != nil {
			t.Fatal(err)
		}
		_, body = h.page(t, textOf(link.CheckoutURL))
		wantInert(t, "payment link page", body)

		// A refused form re-renders what the buyer typed, escaped too.
		status, body := h.postForm(t, page.CheckoutURL, url.Values{"buyer_email": {"not-an-email"}, "buyer_name": {evil},
			"method": {client.MethodProcessorOnramp}})
		if status != http.StatusBadRequest {
			t.Errorf("bad form: HTTP %d", status)
		}
		wantInert(t, "refused form", body)
		status, body = h.postForm(t, page.CheckoutURL, url.Values{"buyer_email": {"buyer@example.com"}, "buyer_name": {evil},
			"method": {client.MethodProcessorOnramp}})
		if status != http.StatusOK || !strings.Contains(body, "Payment received") {
			t.Fatalf("form payment: HTTP %d\n%s", status, body)
		}
		wantInert(t, "payment confirmation", body)
	})
}

func TestBuyerPagesWorkWithoutJavaScriptAndRefuseCrossSiteForms(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("forms")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Tip jar", AllowedMethods: []string{client.MethodL2Pay}})
		resp, err := h.srv.HTTP.Client().Get(h.srv.URL + page.CheckoutURL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
			t.Errorf("CSP %q, want no scripts at all", csp)
		}
		_, body := h.page(t, page.CheckoutURL)
		if !strings.Contains(body, `name="amount_usd"`) || strings.Contains(body, `name="buyer_name"`) || !strings.Contains(body, `value="l2_pay"`) {
			t.Errorf("pay-what-you-want page lacks the amount field or shows a name field:\n%s", body)
		}

		req, _ := http.NewRequestWithContext(h.ctx, http.MethodPost, h.srv.URL+page.CheckoutURL,
			strings.NewReader(url.Values{"buyer_email": {"x@example.com"}, "amount_usd": {"5"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		resp, err = h.srv.HTTP.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site form post: HTTP %d, want 403", resp.StatusCode)
		}

		status, body := h.postForm(t, page.CheckoutURL, url.Values{"buyer_email": {"x@example.com"}, "amount_usd": {"abc"}})
		if status != http.StatusBadRequest || !strings.Contains(body, "amount must be a number") {
			t.Errorf("bad amount: HTTP %d\n%s", status, body)
		}
		status, body = h.postForm(t, page.CheckoutURL, url.Values{"buyer_email": {"x@example.com"}, "amount_usd": {"7.25"}})
		if status != http.StatusOK || !strings.Contains(body, "Payment received: $7.25") {
			t.Fatalf("form payment: HTTP %d\n%s", status, body)
		}
		sales, _ := c.bot.Sales(h.ctx, client.SaleFilter{PaymentMethod: client.MethodL2Pay})
		if len(sales) != 1 || sales[0].AmountUSD != 725 {
			t.Errorf("sales after the form = %+v", sales)
		}
		if other, _ := c.bot.Sales(h.ctx, client.SaleFilter{PaymentMethod: client.MethodUSDCDirect}); len(other) != 0 {
			t.Errorf("payment_method filter let through %+v", other)
		}
		if pages, _ := c.bot.CheckoutPages(h.ctx); pages[0].PaymentCount != 1 || pages[0].TotalReceivedUSD != 725 {
			t.Errorf("counters = %+v", pages[0])
		}
	})
}
