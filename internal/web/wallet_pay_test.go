package web_test

import (
	"context"
	"crypto/sha512"
	"encoding/base64"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

var (
	walletSection = regexp.MustCompile(`data-wallet-pay[^>]*data-x402="([^"]*)" data-receipt="([^"]*)"`)
	walletScript  = regexp.MustCompile(`<script src="([^"]+)" integrity="([^"]+)" defer></script>`)
)

// getPage answers status, body and Content-Security-Policy of a GET.
func getPage(t *testing.T, srv *testserver.Server, path string) (int, string, string) {
	t.Helper()
	resp, err := srv.HTTP.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp.Header.Get("Content-Security-Policy")
}

// Every buyer page that accepts x402 or usdc_direct offers "Pay with a
// wallet" pointing at its own x402 route, in both modes; it alone may run
// the one script, and only from this origin. Other pages stay script-free.
func TestWalletSectionWhereThePageAcceptsAWallet(t *testing.T) {
	for _, d := range storetest.Dialects {
		for _, live := range []bool{false, true} {
			t.Run(string(d)+map[bool]string{false: "/sandbox", true: "/live"}[live], func(t *testing.T) {
				t.Parallel()
				testWalletSection(t, d, live)
			})
		}
	}
}

func testWalletSection(t *testing.T, d store.Dialect, live bool) {
	ctx := context.Background()
	s := newSellerWith(t, d, testserver.Options{Live: live})
	inv := s.invoice(t)
	page := func(methods ...string) string {
		p, err := s.srv.App.Earning().CreateCheckoutPage(ctx, s.bot, earning.CheckoutPageInput{Title: "Tip", AllowedMethods: &methods})
		if err != nil {
			t.Fatal(err)
		}
		return p.ID
	}
	direct, card := page(botpay.MethodUSDCDirect), page(botpay.MethodL2Pay)
	link, err := s.srv.App.Earning().CreatePaymentLink(ctx, s.bot, 999, "Consulting", "")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path, wantRoute string
	}{
		{"x402 page", "/pay/" + s.page.ID, "/api/v1/checkout/" + s.page.ID + "/x402"},
		{"usdc_direct page", "/pay/" + direct, "/api/v1/checkout/" + direct + "/x402"},
		{"invoice", inv.PaymentURL(), "/api/v1/checkout/" + s.page.ID + "/x402?" + inv.PayQuery()},
		{"payment link", "/pay/" + link.ID, "/api/v1/payment-links/" + link.ID + "/x402"},
		{"card-only page", "/pay/" + card, ""},
	}
	for _, tc := range cases {
		status, body, csp := getPage(t, s.srv, tc.path)
		m := walletSection.FindStringSubmatch(body)
		if tc.wantRoute == "" {
			if m != nil || strings.Contains(body, "<script") || strings.Contains(csp, "script-src") {
				t.Errorf("%s: offers a wallet or allows scripts (CSP %q)", tc.name, csp)
			}
			continue
		}
		if status != http.StatusOK || m == nil || html.UnescapeString(m[1]) != tc.wantRoute ||
			!strings.HasPrefix(m[2], "/pay/") || !strings.HasSuffix(m[2], "/receipt/") {
			t.Errorf("%s: HTTP %d, wallet section %q, want route %q", tc.name, status, m, tc.wantRoute)
		}
		if !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "connect-src 'self';") ||
			!strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "script-src 'unsafe-inline'") {
			t.Errorf("%s: CSP %q, want scripts and fetches from this origin only", tc.name, csp)
		}
		if !strings.Contains(body, "<noscript>") || !strings.Contains(body, "No browser wallet was found") {
			t.Errorf("%s: says nothing without JavaScript or without a wallet", tc.name)
		}
		if live && strings.Contains(body, `name="method"`) {
			t.Errorf("%s: live page shows the sandbox form", tc.name)
		}
	}
	// A paid invoice offers no wallet any more; its receipt runs no script.
	_, _, csp := getPage(t, s.srv, "/pay/"+s.page.ID+"/receipt/sale_0000000000000000")
	if strings.Contains(csp, "script-src") {
		t.Errorf("receipt CSP %q allows scripts", csp)
	}
}

// The script is served from this origin under a versioned address the
// browser may keep for a year, pinned by the page's integrity digest, and
// stays small.
func TestWalletScriptIsServedVersionedAndPinned(t *testing.T) {
	t.Parallel()
	s := newSeller(t, store.SQLite)
	_, body, _ := getPage(t, s.srv, "/pay/"+s.page.ID)
	m := walletScript.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no wallet script on the page:\n%s", body)
	}
	src := html.UnescapeString(m[1])
	resp, err := s.srv.HTTP.Client().Get(s.srv.URL + src)
	if err != nil {
		t.Fatal(err)
	}
	script, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sum := sha512.Sum384(script)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") ||
		resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("GET %s: HTTP %d, headers %v", src, resp.StatusCode, resp.Header)
	}
	if html.UnescapeString(m[2]) != "sha384-"+base64.StdEncoding.EncodeToString(sum[:]) {
		t.Fatalf("integrity %s does not match the script served", m[2])
	}
	if len(script) >= 15000 || !strings.Contains(string(script), "eth_signTypedData_v4") {
		t.Fatalf("script is %d bytes (want under 15000) or not the wallet script", len(script))
	}
	resp, err = s.srv.HTTP.Client().Get(s.srv.URL + "/assets/wallet-pay.js?v=old")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("another version: HTTP %d, Cache-Control %q; want it served but not kept", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
}

// A receipt links its transaction to the block explorer when one is
// configured, and shows the hash alone otherwise.
func TestReceiptLinksTheTransactionToTheConfiguredExplorer(t *testing.T) {
	const hash = "0x5f0c2b9d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c"
	for _, explorer := range []string{"", "https://sepolia.basescan.org"} {
		t.Run("explorer="+explorer, func(t *testing.T) {
			t.Parallel()
			s := newSellerWith(t, store.SQLite, testserver.Options{ExplorerURL: explorer})
			res, err := s.srv.App.Earning().RecordSale(context.Background(), botpay.SaleInput{PageID: s.page.ID, Method: botpay.MethodX402,
				BuyerType: botpay.BuyerWallet, BuyerIdentifier: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", TxHash: hash})
			if err != nil {
				t.Fatal(err)
			}
			_, body, _ := getPage(t, s.srv, "/pay/"+s.page.ID+"/receipt/"+res.Sale.ID)
			link := `href="` + explorer + `/tx/` + hash + `"`
			if !strings.Contains(body, hash) || strings.Contains(body, link) != (explorer != "") || (explorer == "" && strings.Contains(body, "/tx/")) {
				t.Fatalf("receipt with explorer %q: link %v\n%s", explorer, strings.Contains(body, link), body)
			}
		})
	}
}
