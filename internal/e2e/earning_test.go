package e2e

import (
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

// page fetches a buyer page (HTML) and returns status and body.
func (h *harness) page(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := h.srv.HTTP.Client().Get(h.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusNotFound && !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") &&
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/pdf") {
		t.Errorf("GET %s: Content-Type %q", path, resp.Header.Get("Content-Type"))
	}
	return resp.StatusCode, string(body)
}

// head asks for a buyer page with HEAD, as link checkers and previews do.
func (h *harness) head(t *testing.T, path string) int {
	t.Helper()
	resp, err := h.srv.HTTP.Client().Head(h.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// postForm submits a buyer form as a same-origin browser would.
func (h *harness) postForm(t *testing.T, path string, form url.Values) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(h.ctx, http.MethodPost, h.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := h.srv.HTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// eventsOf lists the outbox events of a bot of a type.
func (h *harness) eventsOf(t *testing.T, botID, typ string) []botpay.Event {
	t.Helper()
	all, err := storetest.OutboxOf(h.srv.Store).Events(h.ctx, botID)
	if err != nil {
		t.Fatal(err)
	}
	var out []botpay.Event
	for _, e := range all {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestCheckoutPageViewPaySaleWalkThrough(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("seller")
		page, err := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Sticker pack", Description: wire.Ptr("Ten stickers"),
			AmountUSD: usd(1250), AllowedMethods: []string{client.MethodProcessorOnramp, client.MethodX402}})
		if err != nil {
			t.Fatal(err)
		}
		if got := h.wire.answer("POST /api/v1/bot/checkout-pages/create").status; got != http.StatusCreated {
			t.Errorf("create HTTP %d, want 201", got)
		}
		if page.CheckoutURL != "/pay/"+page.CheckoutPageID || page.Status != "active" || !page.AmountLocked ||
			page.PageType != client.PageProduct || *page.AmountUSD != 1250 {
			t.Errorf("page = %+v", page)
		}
		// The seller had no processor wallet: its first page created it.
		if a := page.WalletAddress; a == nil || len(*a) != 42 || !strings.HasPrefix(*a, "0x") {
			t.Errorf("wallet_address = %v, want the processor wallet the page created", a)
		}
		raw := h.wire.fields("POST /api/v1/bot/checkout-pages/create")
		wantNull(t, raw, "image_url")
		wantNull(t, raw, "digital_product_url")

		// A HEAD answers like the page but is not a view: the one view
		// counted below is the GET's.
		if status := h.head(t, page.CheckoutURL); status != http.StatusOK {
			t.Fatalf("HEAD %s: HTTP %d", page.CheckoutURL, status)
		}
		status, body := h.page(t, page.CheckoutURL)
		if status != http.StatusOK || !strings.Contains(body, "Sticker pack") || !strings.Contains(body, "12.50") {
			t.Fatalf("GET %s: HTTP %d\n%s", page.CheckoutURL, status, body)
		}

		paid, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{BuyerEmail: "buyer@example.com", BuyerName: wire.Ptr("Bea")})
		if err != nil {
			t.Fatal(err)
		}
		if paid.Status != "confirmed" || paid.AmountUSD != 1250 || paid.SaleID == "" || paid.Product != nil {
			t.Errorf("settlement = %+v", paid)
		}
		wantNull(t, h.wire.fields("POST /api/v1/checkout/"+page.CheckoutPageID+"/pay/sandbox"), "product")

		checkSaleListed(t, h, c, page, paid)
		checkSaleCredited(t, h, c, paid)
	})
}

func TestInvoiceCreateSendViewPay(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("biller")
		page, err := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Consulting"})
		if err != nil {
			t.Fatal(err)
		}
		recipient := uniqueEmail("client")
		inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, RecipientName: wire.Ptr("Acme"),
			RecipientEmail: wire.Ptr(recipient), TaxUSD: usd(150), LineItems: []client.LineItemRequest{
				{Description: "Design", Quantity: "2", UnitPriceUSD: 1000},
				{Description: "Review", Quantity: "1.5", UnitPriceUSD: 333},
			}})
		if err != nil {
			t.Fatal(err)
		}
		year := time.Now().UTC().Year()
		if inv.Status != client.InvoiceDraft || !strings.HasPrefix(inv.ReferenceNumber, "INV-"+strconv.Itoa(year)+"-") || len(inv.ReferenceNumber) != 15 ||
			inv.SubtotalUSD != 2500 || inv.TaxUSD != 150 || inv.TotalUSD != 2650 ||
			inv.PaymentURL != "/pay/"+page.CheckoutPageID+"?ref="+inv.ReferenceNumber+"&t="+payToken(t, inv) || len(payToken(t, inv)) != 22 {
			t.Errorf("invoice = %+v", inv)
		}
		if l := inv.LineItems[1]; l.Quantity != "1.5" || l.UnitPriceUSD != 333 || l.AmountUSD != 500 {
			t.Errorf("line 2 = %+v, want 1.5 × 3.33 = 5.00 (rounded half up)", l)
		}
		rawLines := string(h.wire.fields("POST /api/v1/bot/invoices/create")["line_items"])
		if !strings.Contains(rawLines, `"unitPriceUsd":10.00`) || !strings.Contains(rawLines, `"amountUsd":20.00`) {
			t.Errorf("line_items = %s, want camelCase", rawLines)
		}
		if d := time.Until(inv.DueDate.Time); d < 29*24*time.Hour || d > 30*24*time.Hour+time.Minute {
			t.Errorf("due %v, want 30 days from now", inv.DueDate)
		}

		checkInvoiceSentOnce(t, h, c, inv, recipient)
		checkInvoiceViewed(t, h, c, inv, page)
		buyer := client.BuyerPayment{BuyerEmail: recipient, Ref: wire.Ptr(inv.ReferenceNumber), Token: wire.Ptr(payToken(t, inv))}
		paid, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, buyer)
		if err != nil {
			t.Fatal(err)
		}
		if paid.AmountUSD != 2650 || textOf(paid.ReferenceNumber) != inv.ReferenceNumber {
			t.Errorf("settlement = %+v", paid)
		}
		list, err := c.bot.Invoices(h.ctx, client.InvoiceFilter{CheckoutPageID: page.CheckoutPageID})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || list[0].Status != client.InvoicePaid || list[0].SaleID == nil || *list[0].SaleID != paid.SaleID || list[0].PaidAt == nil {
			t.Errorf("invoice after payment = %+v", list)
		}
		_, err = h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, buyer)
		wantError(t, err, http.StatusConflict, client.CodeInvoiceNotPayable)
		if _, body := h.page(t, inv.PaymentURL); !strings.Contains(body, "has been paid") {
			t.Errorf("paid invoice page lacks the paid state:\n%s", body)
		}
		_, err = c.owner.CancelInvoice(h.ctx, inv.InvoiceID)
		wantError(t, err, http.StatusConflict, client.CodeInvoiceAlreadyPaid)
	})
}

// checkSaleListed: the bot's sales list the page's one sale with every
// field of the interface.
func checkSaleListed(t *testing.T, h *harness, c claimed, page *client.CheckoutPage, paid *client.Settlement) {
	sales, err := c.bot.Sales(h.ctx, client.SaleFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sales) != 1 {
		t.Fatalf("sales = %+v, want one", sales)
	}
	s := sales[0]
	if s.SaleID != paid.SaleID || *s.CheckoutPageID != page.CheckoutPageID || s.AmountUSD != 1250 ||
		s.PaymentMethod != client.MethodProcessorOnramp || s.Status != "confirmed" || s.BuyerType != "email" ||
		s.BuyerIdentifier != "buyer@example.com" || *s.BuyerEmail != "buyer@example.com" || s.TXHash != nil ||
		s.CheckoutTitle != "Sticker pack" || s.ConfirmedAt == nil || s.CreatedAt.IsZero() {
		t.Errorf("sale = %+v", s)
	}
	rawSales := string(h.wire.answer("GET /api/v1/bot/sales").body)
	for _, f := range []string{"sale_id", "checkout_page_id", "amount_usd", "payment_method", "status", "buyer_type",
		"buyer_identifier", "buyer_email", "tx_hash", "checkout_title", "confirmed_at", "created_at"} {
		if !strings.Contains(rawSales, `"`+f+`":`) {
			t.Errorf("sale lacks %s: %s", f, rawSales)
		}
	}

}

// checkSaleCredited: the page counts one view and one payment; the sale
// is credited to the wallet with its ledger row and its event.
func checkSaleCredited(t *testing.T, h *harness, c claimed, paid *client.Settlement) {
	pages, err := c.bot.CheckoutPages(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 || pages[0].ViewCount != 1 || pages[0].PaymentCount != 1 || pages[0].TotalReceivedUSD != 1250 {
		t.Errorf("counters = %+v, want 1 view, 1 payment, 12.50", pages)
	}
	w, err := c.bot.WalletCheck(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if w.BalanceUSD != 1250 {
		t.Errorf("balance = %s, want 12.50", w.BalanceUSD)
	}
	txs, err := c.bot.Transactions(h.ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 1 || txs[0].Type != "sale" || usdOf(txs[0].AmountUSD) != 1250 || usdOf(*txs[0].BalanceAfterUSD) != 1250 {
		t.Errorf("ledger = %+v, want one sale of 12.50", txs)
	}
	evs := h.eventsOf(t, c.reg.BotID, botpay.EventWalletSaleCompleted)
	if len(evs) != 1 || evs[0].Data["sale_id"] != paid.SaleID || evs[0].Data["buyer_email"] != "buyer@example.com" ||
		evs[0].Data["method"] != client.MethodProcessorOnramp || evs[0].Data["currency"] != "USD" || evs[0].Data["amount"] != 12.5 {
		t.Errorf("events = %+v", evs)
	}
}

// checkInvoiceSentOnce: sending mails the recipient the invoice with its
// PDF; a second send is refused.
func checkInvoiceSentOnce(t *testing.T, h *harness, c claimed, inv *client.Invoice, recipient string) {
	sent, err := c.bot.SendInvoice(h.ctx, inv.InvoiceID)
	if err != nil {
		t.Fatal(err)
	}
	if sent.Status != client.InvoiceSent || !sent.EmailSent || sent.EmailReason != nil || sent.PaymentURL != inv.PaymentURL {
		t.Errorf("send = %+v", sent)
	}
	wantNull(t, h.wire.fields("POST /api/v1/bot/invoices/"+inv.InvoiceID+"/send"), "email_reason")
	msgs := h.mailTo(recipient)
	if len(msgs) != 1 || len(msgs[0].Attachments) != 1 || !strings.Contains(msgs[0].Text, inv.ReferenceNumber) || msgs[0].HTML == "" {
		t.Fatalf("mail = %+v", msgs)
	}
	_, err = c.bot.SendInvoice(h.ctx, inv.InvoiceID)
	wantError(t, err, http.StatusBadRequest, client.CodeOnlyDraftInvoicesCanSend)

}

// checkInvoiceViewed: a HEAD is not a view, a GET is; the PDF downloads.
func checkInvoiceViewed(t *testing.T, h *harness, c claimed, inv *client.Invoice, page *client.CheckoutPage) {
	if status := h.head(t, inv.PaymentURL); status != http.StatusOK {
		t.Fatalf("HEAD %s: HTTP %d", inv.PaymentURL, status)
	}
	if stillSent, err := c.bot.Invoices(h.ctx, client.InvoiceFilter{Status: client.InvoiceSent}); err != nil || len(stillSent) != 1 {
		t.Fatalf("after a HEAD: sent invoices = %+v, %v; want the invoice still sent, not viewed", stillSent, err)
	}
	status, body := h.page(t, inv.PaymentURL)
	if status != http.StatusOK || !strings.Contains(body, inv.ReferenceNumber) || !strings.Contains(body, "Design") ||
		!strings.Contains(body, "26.50") {
		t.Fatalf("GET %s: HTTP %d\n%s", inv.PaymentURL, status, body)
	}
	viewed, err := c.bot.Invoices(h.ctx, client.InvoiceFilter{Status: client.InvoiceViewed})
	if err != nil {
		t.Fatal(err)
	}
	if len(viewed) != 1 || viewed[0].ViewedAt == nil {
		t.Fatalf("viewed invoices = %+v", viewed)
	}
	status, pdf := h.page(t, "/pay/"+page.CheckoutPageID+"/invoice.pdf?ref="+inv.ReferenceNumber+"&t="+payToken(t, inv))
	if status != http.StatusOK || !strings.HasPrefix(pdf, "%PDF-") {
		t.Errorf("pdf download: HTTP %d %.20q", status, pdf)
	}

}

func TestPaymentLinkPayAndExpiry(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("linker")
		link, err := c.bot.CreatePaymentLink(h.ctx, 4200, "Dinner split", "payer@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if link.Status != client.LinkPending || textOf(link.CheckoutURL) != "/pay/"+link.PaymentLinkID ||
			link.ExpiresAt.Sub(link.CreatedAt.Time) != 24*time.Hour || link.AmountUSD != 4200 {
			t.Errorf("link = %+v", link)
		}
		if _, body := h.page(t, textOf(link.CheckoutURL)); !strings.Contains(body, "Dinner split") || !strings.Contains(body, "payer@example.com") {
			t.Errorf("link page:\n%s", body)
		}
		paid, err := h.bots.PayLinkSandbox(h.ctx, link.PaymentLinkID, client.BuyerPayment{BuyerEmail: "payer@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		if textOf(paid.PaymentLinkID) != link.PaymentLinkID || paid.Status != client.LinkCompleted || paid.AmountUSD != 4200 {
			t.Errorf("settlement = %+v", paid)
		}
		links, err := c.bot.PaymentLinks(h.ctx, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(links) != 1 || links[0].Status != client.LinkCompleted || textOf(links[0].CheckoutURL) != "" || links[0].PaidAt == nil {
			t.Errorf("links = %+v", links)
		}
		wantAbsent(t, h.listFirst(t, "GET /api/v1/bot/payments/links", "payment_links"), "checkout_url")
		if w, _ := c.bot.WalletCheck(h.ctx); w.BalanceUSD != 4200 {
			t.Errorf("balance = %s, want 42.00", w.BalanceUSD)
		}
		evs := h.eventsOf(t, c.reg.BotID, botpay.EventWalletPaymentReceived)
		if len(evs) != 1 || evs[0].Data["reference_id"] != link.PaymentLinkID || evs[0].Data["amount"] != 42.0 {
			t.Errorf("events = %+v", evs)
		}
		if n := len(h.eventsOf(t, c.reg.BotID, botpay.EventWalletSaleCompleted)); n != 0 {
			t.Errorf("%d wallet.sale.completed events for a link payment, want 0", n)
		}
		_, err = h.bots.PayLinkSandbox(h.ctx, link.PaymentLinkID, client.BuyerPayment{BuyerEmail: "payer@example.com"})
		wantError(t, err, http.StatusConflict, client.CodePaymentLinkNotPending)
	})
}

func TestInvoicePaidThroughTheBuyerForm(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("form-biller")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Studio", AllowedMethods: []string{client.MethodUSDCDirect}})
		inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, RecipientEmail: wire.Ptr("ap@example.com"),
			LineItems: []client.LineItemRequest{{Description: "Mixing", Quantity: "4", UnitPriceUSD: 2500}}})
		if err != nil {
			t.Fatal(err)
		}
		_, body := h.page(t, inv.PaymentURL)
		if !strings.Contains(body, `name="ref" value="`+inv.ReferenceNumber+`"`) || !strings.Contains(body, `value="ap@example.com"`) ||
			strings.Contains(body, `name="amount_usd"`) {
			t.Errorf("invoice form lacks the reference or the recipient, or asks for an amount:\n%s", body)
		}
		if !strings.Contains(body, `name="t" value="`+payToken(t, inv)+`"`) {
			t.Errorf("invoice form does not post the payment token back:\n%s", body)
		}
		status, body := h.postForm(t, "/pay/"+page.CheckoutPageID, url.Values{"ref": {inv.ReferenceNumber}, "t": {payToken(t, inv)},
			"buyer_email": {"ap@example.com"}, "method": {client.MethodUSDCDirect}, "amount_usd": {"1"}})
		if status != http.StatusOK || !strings.Contains(body, "Payment received: $100.00") {
			t.Fatalf("form payment: HTTP %d\n%s", status, body)
		}
		list, _ := c.bot.Invoices(h.ctx, client.InvoiceFilter{})
		if len(list) != 1 || list[0].Status != client.InvoicePaid || list[0].SaleID == nil {
			t.Errorf("invoice = %+v", list)
		}
		sales, _ := c.bot.Sales(h.ctx, client.SaleFilter{CheckoutPageID: page.CheckoutPageID})
		if len(sales) != 1 || sales[0].AmountUSD != 10000 || textOf(sales[0].InvoiceID) != inv.InvoiceID || *list[0].SaleID != sales[0].SaleID {
			t.Errorf("sales = %+v", sales)
		}
	})
}

func TestSandboxPaymentRetriedWithItsIdempotencyKeyPaysOnce(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("retried")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Once", AmountUSD: usd(300)})
		pay := client.BuyerPayment{BuyerEmail: "b@example.com"}
		first, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, pay, client.WithIdempotencyKey("pay-1"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, pay, client.WithIdempotencyKey("pay-1"))
		if err != nil {
			t.Fatal(err)
		}
		if again.SaleID != first.SaleID || h.wire.answer("POST /api/v1/checkout/"+page.CheckoutPageID+"/pay/sandbox").header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry = %+v, want the replayed first answer %s", again, first.SaleID)
		}
		if w, _ := c.bot.WalletCheck(h.ctx); w.BalanceUSD != 300 {
			t.Errorf("balance %s after a retried payment, want 3.00", w.BalanceUSD)
		}
	})
}
