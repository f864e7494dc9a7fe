package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// seller is a claimed bot with a checkout page (default methods, $40).
type seller struct {
	srv  *testserver.Server
	bot  botpay.Bot
	page botpay.CheckoutPage
}

func newSeller(t *testing.T, d store.Dialect) seller {
	t.Helper()
	return newSellerWith(t, d, testserver.Options{})
}

func newSellerWith(t *testing.T, d store.Dialect, opts testserver.Options) seller {
	t.Helper()
	ctx := context.Background()
	srv := testserver.Start(t, d, opts)
	reg, err := srv.App.Bots().Register(ctx, bots.RegisterInput{BotName: `Report <Seller>`, OwnerEmail: "owner@example.com",
		CallbackURL: "https://bot.example.com/hook", ClientIP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := srv.App.Accounts().Signup(ctx, "owner@example.com", "correct horse battery", "")
	if err != nil {
		t.Fatal(err)
	}
	bot, err := srv.App.Bots().Claim(ctx, sess.Owner, reg.ClaimToken, "")
	if err != nil {
		t.Fatal(err)
	}
	price := botpay.Money(4000)
	page, err := srv.App.Earning().CreateCheckoutPage(ctx, bot, earning.CheckoutPageInput{Title: "Studio time", Amount: &price})
	if err != nil {
		t.Fatal(err)
	}
	return seller{srv: srv, bot: bot, page: page}
}

func (s seller) invoice(t *testing.T) botpay.Invoice {
	t.Helper()
	inv, err := s.srv.App.Earning().CreateInvoice(context.Background(), s.bot, earning.InvoiceInput{CheckoutPageID: s.page.ID,
		RecipientName: "Ada Buyer", LineItems: []earning.LineInput{{Description: "Mixing", Quantity: "4", UnitPrice: 250000}}})
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

// get answers status, body and the final URL of a GET (redirects followed).
func get(t *testing.T, srv *testserver.Server, path string) (int, string) {
	t.Helper()
	resp, err := srv.HTTP.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// payForm posts the buyer form without following the redirect.
func payForm(t *testing.T, srv *testserver.Server, path string, form url.Values) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	hc := *srv.HTTP.Client()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

var titleTag = regexp.MustCompile(`<title>([^<]*)</title>`)
var firstH1 = regexp.MustCompile(`<h1>(.*?)</h1>`)
var tag = regexp.MustCompile(`<[^>]*>`)

func TestInvoicePageIsTitledAndHeadedByTheInvoice(t *testing.T) {
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := newSeller(t, d)
			inv := s.invoice(t)
			status, body := get(t, s.srv, inv.PaymentURL())
			if status != http.StatusOK {
				t.Fatalf("HTTP %d\n%s", status, body)
			}
			want := "Invoice " + inv.ReferenceNumber
			if m := titleTag.FindStringSubmatch(body); m == nil || !strings.HasPrefix(m[1], want) {
				t.Errorf("title %q, want %q", m, want)
			}
			if m := firstH1.FindStringSubmatch(body); m == nil || tag.ReplaceAllString(m[1], "") != want {
				t.Errorf("first heading %q, want %q (not the checkout page's title)", m, want)
			}
			for _, part := range []string{"Mixing", "$10,000.00", "Due</dt><dd>" + inv.DueDate.UTC().Format("2 January 2006"),
				"Sold by <strong>Report &lt;Seller&gt;</strong>", s.bot.ID} {
				if !strings.Contains(body, part) {
					t.Errorf("invoice page lacks %q", part)
				}
			}
		})
	}
}

func TestBuyerPagesNameTheSellerAndDefaultToOneMethod(t *testing.T) {
	checked := regexp.MustCompile(`value="([a-z0-9_]+)"\s*checked`)
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := newSeller(t, d)
			link, err := s.srv.App.Earning().CreatePaymentLink(context.Background(), s.bot, 999, "Consulting", "")
			if err != nil {
				t.Fatal(err)
			}
			inv := s.invoice(t)
			for _, path := range []string{"/pay/" + s.page.ID, "/pay/" + link.ID, inv.PaymentURL()} {
				_, body := get(t, s.srv, path)
				m := checked.FindStringSubmatch(body)
				if m == nil || m[1] != botpay.MethodUSDCDirect {
					t.Errorf("%s: checked method %v, want %s", path, m, botpay.MethodUSDCDirect)
				}
				if !strings.Contains(body, "Sold by <strong>Report &lt;Seller&gt;</strong>") || !strings.Contains(body, "Order summary") &&
					!strings.Contains(body, "Line items") {
					t.Errorf("%s names no seller or has no summary:\n%s", path, body)
				}
			}
			// The sandbox API pays a link with no method by the same default.
			res, err := s.srv.App.PayLinkSandbox(context.Background(), link.ID, app.BuyerPayment{BuyerEmail: "b@example.com"})
			if err != nil || res.Sale.Method != botpay.MethodUSDCDirect {
				t.Errorf("link paid with %q (%v), want %s", res.Sale.Method, err, botpay.MethodUSDCDirect)
			}
		})
	}
}

func TestReceiptShowsTheTransactionHashOfAnX402Sale(t *testing.T) {
	const hash = "0x5f0c2b9d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c"
	const payer = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := newSeller(t, d)
			res, err := s.srv.App.Earning().RecordSale(context.Background(), botpay.SaleInput{PageID: s.page.ID, Method: botpay.MethodX402,
				BuyerType: botpay.BuyerWallet, BuyerIdentifier: payer, TxHash: hash})
			if err != nil {
				t.Fatal(err)
			}
			status, body := get(t, s.srv, "/pay/"+s.page.ID+"/receipt/"+res.Sale.ID)
			if status != http.StatusOK {
				t.Fatalf("HTTP %d\n%s", status, body)
			}
			for _, part := range []string{`<code data-testid="tx-hash">` + hash + `</code>`, res.Sale.ID, "$40.00", "USDC from a wallet or an agent", payer,
				"Studio time", "Report &lt;Seller&gt;", "@media print", res.Sale.CreatedAt.UTC().Format("2 January 2006")} {
				if !strings.Contains(body, part) {
					t.Errorf("receipt lacks %q", part)
				}
			}
			other, err := s.srv.App.Earning().CreateCheckoutPage(context.Background(), s.bot, earning.CheckoutPageInput{Title: "Other"})
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{"/pay/" + other.ID + "/receipt/" + res.Sale.ID, "/pay/" + s.page.ID + "/receipt/sale_0000000000000000",
				"/pay/" + s.page.ID + "/receipt/" + s.page.ID} {
				if status, body := get(t, s.srv, path); status != http.StatusNotFound || strings.Contains(body, hash) {
					t.Errorf("%s: HTTP %d, want 404 without the sale", path, status)
				}
			}
		})
	}
}

func TestPayFormRedirectsToAReceiptThatReloadsWithoutPayingAgain(t *testing.T) {
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := newSeller(t, d)
			inv := s.invoice(t)
			// The form posts back what the payment URL carries (ref, and any token).
			u, err := url.Parse(inv.PaymentURL())
			if err != nil {
				t.Fatal(err)
			}
			form := u.Query()
			form.Set("buyer_email", "ada@example.com")
			resp := payForm(t, s.srv, u.Path, form)
			loc := resp.Header.Get("Location")
			if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/pay/"+s.page.ID+"/receipt/sale_") {
				t.Fatalf("form post: HTTP %d, Location %q", resp.StatusCode, loc)
			}
			for range 2 {
				status, body := get(t, s.srv, loc)
				if status != http.StatusOK {
					t.Fatalf("receipt: HTTP %d", status)
				}
				for _, part := range []string{"Payment received: $10,000.00", inv.ReferenceNumber, "USDC transfer", "ada@example.com"} {
					if !strings.Contains(body, part) {
						t.Errorf("receipt lacks %q", part)
					}
				}
			}
			sales, err := s.srv.App.Earning().Sales(context.Background(), s.bot, botpay.SaleFilter{}, botpay.PageRequest{Limit: 10})
			if err != nil || len(sales.Items) != 1 {
				t.Fatalf("sales after paying once and reading the receipt twice: %d (%v)", len(sales.Items), err)
			}
			// The paid invoice links to its receipt.
			if _, body := get(t, s.srv, inv.PaymentURL()); !strings.Contains(body, `href="`+loc+`"`) {
				t.Errorf("the paid invoice does not link to %s", loc)
			}
		})
	}
}

func TestLandingPageLinksTheDashboardAndReferenceWhileAPIPathsStayJSON(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	status, body := get(t, srv, "/")
	if status != http.StatusOK || !strings.Contains(body, `<html lang="en">`) {
		t.Fatalf("GET /: HTTP %d\n%s", status, body)
	}
	for _, href := range []string{"/login", "/signup", "/docs/api", "/openapi.json"} {
		if !strings.Contains(body, `href="`+href+`"`) {
			t.Errorf("landing page does not link %s", href)
		}
	}
	if _, ref := get(t, srv, "/docs/api"); !strings.Contains(ref, "/api/v1/bots/register") || !strings.Contains(ref, "/pay/{id}/receipt/{sale_id}") {
		t.Error("the API reference page lacks routes of the document")
	}
	for _, path := range []string{"/api/v1/nothing-here", "/nothing-here"} {
		resp, err := srv.HTTP.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("GET %s: HTTP %d %s, want a JSON 404", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
}

func TestSignupAndLoginLinkToPasswordReset(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	for _, path := range []string{"/signup", "/login"} {
		if _, body := get(t, srv, path); !strings.Contains(body, `<a href="/forgot">Forgot your password?</a>`) {
			t.Errorf("%s has no link to the reset flow", path)
		}
	}
}

// TestReceiptSaysPlainlyWhatARefundGaveBack: a partly refunded sale's
// receipt says "Partly refunded" with the amounts, a fully refunded one
// "Refunded in full"; neither says the payment was simply received.
func TestReceiptSaysPlainlyWhatARefundGaveBack(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		s := newSeller(t, d)
		ctx := t.Context()
		form := url.Values{"buyer_email": {"ada@example.com"}}
		resp := payForm(t, s.srv, "/pay/"+s.page.ID, form)
		loc := resp.Header.Get("Location")
		saleID := loc[strings.LastIndex(loc, "/")+1:]
		steps := []struct {
			refund botpay.Money
			want   []string
		}{
			{1500, []string{"Partly refunded: $15.00 of $40.00 given back", `data-testid="refunded">$15.00`}},
			{2500, []string{"Refunded in full", `data-testid="refunded">$40.00`}},
		}
		for _, step := range steps {
			amount := step.refund
			if _, err := s.srv.App.Earning().RefundSale(ctx, s.bot, saleID, botpay.RefundRequest{Amount: &amount, Reason: "test"}); err != nil {
				t.Fatal(err)
			}
			_, body := get(t, s.srv, loc)
			for _, part := range step.want {
				if !strings.Contains(body, part) {
					t.Errorf("after refunding %s the receipt lacks %q", formatCents(step.refund), part)
				}
			}
			if strings.Contains(body, "Payment received") || strings.Contains(body, ">confirmed<") {
				t.Errorf("a refunded sale's receipt still reads as simply paid")
			}
		}
	})
}

func formatCents(m botpay.Money) string { return fmt.Sprintf("%d cents", int64(m)) }

// TestSellerLineCarriesContactAndRefundPolicy: what a bot sets on its page
// (an address for questions and a refund policy) appears beside the
// seller's name on the page, its invoice and its receipt, escaped.
func TestSellerLineCarriesContactAndRefundPolicy(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		s := newSeller(t, d)
		price := botpay.Money(1500)
		page, err := s.srv.App.Earning().CreateCheckoutPage(t.Context(), s.bot, earning.CheckoutPageInput{Title: "Lessons", Amount: &price,
			ContactEmail: "help@seller.example", RefundPolicy: "Full refund within 14 days <no questions>"})
		if err != nil {
			t.Fatal(err)
		}
		s.page = page
		inv := s.invoice(t)
		resp := payForm(t, s.srv, "/pay/"+page.ID, url.Values{"buyer_email": {"ada@example.com"}})
		for _, path := range []string{"/pay/" + page.ID, inv.PaymentURL(), resp.Header.Get("Location")} {
			_, body := get(t, s.srv, path)
			for _, want := range []string{`href="mailto:help@seller.example"`, "Full refund within 14 days &lt;no questions&gt;"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s lacks %q", path, want)
				}
			}
		}
		_, err = s.srv.App.Earning().CreateCheckoutPage(t.Context(), s.bot, earning.CheckoutPageInput{Title: "Bad", ContactEmail: "not an address"})
		if e := botpay.AsError(err); e == nil || e.Details["contact_email"] == "" {
			t.Errorf("a contact that is no address: %v, want a validation error naming contact_email", err)
		}
	})
}
