package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

func TestOwnerRefundsAPurchaseBackToTheWallet(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("refunded", client.Dollars(100, 0), nil)
		bought, err := s.bot.Checkout(h.ctx, purchase(2000))
		if err != nil || !isTrue(bought.Approved) {
			t.Fatalf("checkout = %+v, %v", bought, err)
		}
		key := client.WithIdempotencyKey("refund-1")
		first, err := s.owner.RefundPurchase(h.ctx, bought.ConfirmationID, client.RefundRequest{AmountUSD: usd(500), Reason: "damaged"}, key)
		if err != nil {
			t.Fatal(err)
		}
		if h.wire.answer("POST /api/v1/owner/purchases/"+bought.ConfirmationID+"/refund").status != http.StatusCreated ||
			textOf(first.ConfirmationID) != bought.ConfirmationID || first.AmountUSD != 500 || first.Status != "succeeded" || first.Reason != "damaged" {
			t.Errorf("refund = %+v", first)
		}
		again, err := s.owner.RefundPurchase(h.ctx, bought.ConfirmationID, client.RefundRequest{AmountUSD: usd(500), Reason: "damaged"}, key)
		if err != nil || again.RefundID != first.RefundID {
			t.Errorf("replayed refund = %+v, %v; want the first answer", again, err)
		}
		if got := s.available(h); got != client.Dollars(85, 0) {
			t.Errorf("available after a $5 refund of $20 = %s, want 85.00", got)
		}
		rest, err := s.owner.RefundPurchase(h.ctx, bought.ConfirmationID, client.RefundRequest{Reason: "returned"})
		if err != nil || rest.AmountUSD != 1500 {
			t.Fatalf("refund of the rest = %+v, %v", rest, err)
		}
		_, err = s.owner.RefundPurchase(h.ctx, bought.ConfirmationID, client.RefundRequest{AmountUSD: usd(1), Reason: "again"})
		wantError(t, err, http.StatusConflict, botpay.CodeRefundExceedsAmount)
		txs, err := s.bot.Transactions(h.ctx, 10)
		if err != nil || len(txs) == 0 || txs[0].Type != "refund" || usdOf(txs[0].AmountUSD) != 1500 {
			t.Errorf("newest transaction = %+v, %v; want the $15 refund", txs, err)
		}
		wantEvents(t, h.events(s.reg.BotID), "wallet.activated", "wallet.funded", "wallet.spend.authorized",
			botpay.EventRefundCompleted, botpay.EventRefundCompleted)
	})
}

func TestOwnerRefundRefusals(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("refusals", client.Dollars(100, 0), nil)
		held, err := s.bot.Checkout(h.ctx, purchase(5000))
		if err != nil || isTrue(held.Approved) {
			t.Fatalf("checkout = %+v, %v; want held", held, err)
		}
		stranger, _ := h.signup(uniqueEmail("stranger"))
		cases := []struct {
			name   string
			owner  *client.OwnerClient
			req    client.RefundRequest
			status int
			code   string
		}{
			{"a held purchase moved no money", s.owner, client.RefundRequest{Reason: "r"}, http.StatusConflict, botpay.CodeNotRefundable},
			{"another owner sees no purchase", stranger, client.RefundRequest{Reason: "r"}, http.StatusNotFound, botpay.CodeNotFound},
			{"a reason is required", s.owner, client.RefundRequest{}, http.StatusBadRequest, botpay.CodeValidation},
			{"a negative amount is invalid", s.owner, client.RefundRequest{AmountUSD: usd(-5), Reason: "r"}, http.StatusBadRequest, botpay.CodeValidation},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := c.owner.RefundPurchase(h.ctx, held.ConfirmationID, c.req)
				wantError(t, err, c.status, c.code)
			})
		}
	})
}

func TestBotRefundsASaleToItsBuyer(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("refunding-seller")
		page, err := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Sticker pack", AmountUSD: usd(1250)})
		if err != nil {
			t.Fatal(err)
		}
		paid, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{BuyerEmail: "buyer@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		rf, err := c.bot.RefundSale(h.ctx, paid.SaleID, client.RefundRequest{AmountUSD: usd(250), Reason: "late delivery"})
		if err != nil || textOf(rf.SaleID) != paid.SaleID || rf.AmountUSD != 250 || rf.Status != "succeeded" {
			t.Fatalf("refund = %+v, %v", rf, err)
		}
		sales, err := c.bot.Sales(h.ctx, client.SaleFilter{})
		if err != nil || len(sales) != 1 || usdOrZero(sales[0].RefundedUSD) != 250 {
			t.Errorf("sales = %+v, %v; want refunded 2.50", sales, err)
		}
		_, err = c.bot.RefundSale(h.ctx, paid.SaleID, client.RefundRequest{AmountUSD: usd(1001), Reason: "too much"})
		wantError(t, err, http.StatusConflict, botpay.CodeRefundExceedsAmount)
		other := h.claimedBot("other-seller")
		_, err = other.bot.RefundSale(h.ctx, paid.SaleID, client.RefundRequest{Reason: "not mine"})
		wantError(t, err, http.StatusNotFound, botpay.CodeNotFound)
		_, err = h.bots.RefundSale(h.ctx, paid.SaleID, client.RefundRequest{Reason: "no key"})
		wantError(t, err, http.StatusUnauthorized, botpay.CodeUnauthorized)
		check, err := c.bot.WalletCheck(h.ctx)
		if err != nil || check.BalanceUSD != 1000 {
			t.Errorf("wallet after refunding $2.50 of $12.50 = %+v, %v", check, err)
		}
	})
}

func TestDashboardRecordsARefundAndShowsIt(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("dashboard-refund", client.Dollars(100, 0), nil)
		bought, err := s.bot.Checkout(h.ctx, purchase(2000))
		if err != nil || !isTrue(bought.Approved) {
			t.Fatalf("checkout = %+v, %v", bought, err)
		}
		b := newBrowser(t, h)
		b.cookie = &http.Cookie{Name: "botpay_session", Value: s.sess.Token}
		action := "/dashboard/bots/" + s.reg.BotID + "/purchases/" + bought.ConfirmationID + "/refund"
		if _, page := b.do("GET", "/dashboard/bots/"+s.reg.BotID+"/spending", nil); !strings.Contains(page, `action="`+action+`"`) {
			t.Fatalf("the bot page offers no refund of the approved purchase")
		}
		resp, body := b.do("POST", action, url.Values{"amount_usd": {"7.50"}, "reason": {"returned"}}, "Sec-Fetch-Site", "same-origin")
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("refund form: HTTP %d %s", resp.StatusCode, body)
		}
		if got := s.available(h); got != client.Dollars(87, 50) {
			t.Errorf("available = %s, want 87.50", got)
		}
		if _, page := b.do("GET", "/dashboard/bots/"+s.reg.BotID+"/spending", nil); !strings.Contains(page, "$7.50") {
			t.Errorf("the bot page does not show the $7.50 refund")
		}
		// Refunds of one purchase never exceed it, from the dashboard too.
		resp, _ = b.do("POST", action, url.Values{"amount_usd": {"13.00"}, "reason": {"again"}}, "Sec-Fetch-Site", "same-origin")
		if resp.StatusCode != http.StatusConflict {
			t.Errorf("refund above the remainder: HTTP %d, want 409", resp.StatusCode)
		}
	})
}

func TestARefundedSaleShowsOnItsInvoice(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("refunding-biller")
		page, _ := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Studio", AllowedMethods: []string{client.MethodUSDCDirect}})
		inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID, RecipientEmail: wire.Ptr("ap@example.com"),
			LineItems: []client.LineItemRequest{{Description: "Mixing", Quantity: "4", UnitPriceUSD: 2500}}})
		if err != nil {
			t.Fatal(err)
		}
		paid, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{Ref: wire.Ptr(inv.ReferenceNumber), Token: wire.Ptr(payToken(t, inv)), BuyerEmail: "ap@example.com",
			Method: wire.Ptr(client.MethodUSDCDirect)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.bot.RefundSale(h.ctx, paid.SaleID, client.RefundRequest{AmountUSD: usd(4000), Reason: "one session cancelled"}); err != nil {
			t.Fatal(err)
		}
		list, err := c.bot.Invoices(h.ctx, client.InvoiceFilter{})
		if err != nil || len(list) != 1 || usdOrZero(list[0].RefundedUSD) != 4000 {
			t.Errorf("invoices = %+v, %v; want refunded 40.00", list, err)
		}
		if _, body := h.page(t, inv.PaymentURL); !strings.Contains(body, "Refunded to the buyer") || !strings.Contains(body, "40.00") {
			t.Errorf("the invoice page does not show the refund")
		}
	})
}
