package e2e

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// chainStub stands in for the chain in live-mode route tests, which never
// reach one: it records what it was asked to settle.
type chainStub struct{ settled chan x402.Payment }

func (c chainStub) Settle(_ context.Context, p x402.Payment) (settle.Result, error) {
	c.settled <- p
	return settle.Result{TxHash: "0x" + strings.Repeat("ab", 32)}, nil
}

// forEachMode runs test on both engines in the sandbox and in live mode.
func forEachMode(t *testing.T, test func(t *testing.T, r raw, live bool)) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		for _, live := range []bool{false, true} {
			name := string(d) + "/sandbox"
			if live {
				name = string(d) + "/live"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, Live: live,
					Settler: chainStub{settled: make(chan x402.Payment, 10)}})
				test(t, raw{t: t, srv: srv}, live)
			})
		}
	}
}

// sandboxRequests fills a sandbox-only route's {id} with real records of
// the kinds it pays: a checkout page, a payment link, or either.
func sandboxRequests(route, pageID, linkID string) (method string, paths []string) {
	method, pattern, _ := strings.Cut(route, " ")
	ids := []string{pageID, linkID}
	switch {
	case strings.Contains(pattern, "/checkout/"):
		ids = ids[:1]
	case strings.Contains(pattern, "/payment-links/"):
		ids = ids[1:]
	}
	for _, id := range ids {
		paths = append(paths, strings.Replace(pattern, "{id}", id, 1))
	}
	return method, paths
}

func TestLiveModeRoutesNoSandboxEndpoint(t *testing.T) {
	forEachMode(t, func(t *testing.T, r raw, live bool) {
		seller := r.walletBot("seller", 0)
		pageID := r.page(seller, map[string]any{"allowed_methods": []string{"x402", "l2_pay"}})["checkout_page_id"].(string)
		linkID := r.must(201, "POST", "/api/v1/bot/payments/create-link", seller.APIKey,
			map[string]any{"amount_usd": 100, "description": "consulting"})["payment_link_id"].(string)
		for _, route := range api.SandboxOnlyRoutes {
			method, paths := sandboxRequests(route, pageID, linkID)
			for _, path := range paths {
				a := r.do(method, path, "", map[string]any{"buyer_email": "b@example.com", "amount_usd": 1000000})
				if !live {
					if a.Status == http.StatusNotFound {
						t.Errorf("sandbox: %s %s = 404 %s", method, path, a.Body)
					}
					continue
				}
				if a.Status != http.StatusNotFound || a.json(t)["error"] != "not_found" || a.json(t)["message"] == "" {
					t.Errorf("live: %s %s = %d %s, want 404 not_found", method, path, a.Status, a.Body)
				}
			}
		}
		sales := r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)
		if n := len(sales["sales"].([]any)); live && n != 0 {
			t.Fatalf("live mode recorded %d sales through sandbox routes: %v", n, sales)
		}
	})
}

func TestStatusSaysWhetherMoneyIsReal(t *testing.T) {
	forEachMode(t, func(t *testing.T, r raw, live bool) {
		b := r.claimedBot("status")
		unclaimed := r.must(201, "POST", "/api/v1/bots/register", "", map[string]any{"bot_name": "u", "owner_email": uniqueEmail("u")})
		for _, key := range []string{b.APIKey, unclaimed["api_key"].(string)} {
			status := r.must(200, "GET", "/api/v1/bot/status", key, nil)
			if got, ok := status["livemode"].(bool); !ok || got != live {
				t.Fatalf("livemode = %#v, want %v", status["livemode"], live)
			}
		}
	})
}

func TestLiveModeRefusesOwnerFundingOfAProcessorWallet(t *testing.T) {
	forEachMode(t, func(t *testing.T, r raw, live bool) {
		b := r.walletBot("funded", 0)
		a := r.do("POST", "/api/v1/owner/bots/"+b.ID+"/fund", b.OwnerToken, map[string]any{"amount_usd": 50, "rail": "processor_wallet"})
		switch {
		case live && (a.Status != http.StatusConflict || a.json(t)["error"] != "live_mode"):
			t.Fatalf("live processor funding: %d %s", a.Status, a.Body)
		case !live && a.Status != http.StatusOK:
			t.Fatalf("sandbox processor funding: %d %s", a.Status, a.Body)
		}
		r.must(200, "POST", "/api/v1/owner/bots/"+b.ID+"/fund", b.OwnerToken, map[string]any{"amount_usd": 50, "rail": "card_wallet"})

		// The dashboard's form goes through the same refusal.
		br := &browser{t: t, base: r.srv.URL, hc: &http.Client{Transport: r.srv.HTTP.Client().Transport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
		br.cookie = &http.Cookie{Name: "botpay_session", Value: b.OwnerToken}
		resp, body := br.do("POST", "/dashboard/bots/"+b.ID+"/fund", url.Values{"amount_usd": {"5"}, "rail": {"processor_wallet"}})
		if live && (resp.StatusCode != http.StatusConflict || !strings.Contains(body, "on-chain")) {
			t.Fatalf("live dashboard processor funding: %d %s", resp.StatusCode, body)
		}
		if !live && resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox dashboard processor funding: %d %s", resp.StatusCode, body)
		}
		if resp, body := br.do("POST", "/dashboard/bots/"+b.ID+"/fund", url.Values{"amount_usd": {"5"}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("dashboard card funding: %d %s", resp.StatusCode, body)
		}
		status := r.must(200, "GET", "/api/v1/bot/status", b.APIKey, nil)
		processor := status["rails"].(map[string]any)["processor_wallet"].(map[string]any)
		want := 55.0
		if live {
			want = 0
		}
		if processor["balance_usd"] != want {
			t.Fatalf("processor wallet after funding attempts: %v, want %v", processor, want)
		}
		_, page := br.do("GET", "/dashboard/bots/"+b.ID, nil)
		if offered := strings.Contains(page, `value="processor_wallet"`); offered == live {
			t.Fatalf("dashboard offers processor funding: %v in live=%v", offered, live)
		}
	})
}

func TestEveryPageMarksTheSandboxAndLivePagesOfferOnlyX402(t *testing.T) {
	forEachMode(t, func(t *testing.T, r raw, live bool) {
		seller := r.walletBot("pages", 0)
		pageID := r.page(seller, map[string]any{"allowed_methods": []string{"x402", "l2_pay", "usdc_direct"}})["checkout_page_id"].(string)
		linkID := r.must(201, "POST", "/api/v1/bot/payments/create-link", seller.APIKey,
			map[string]any{"amount_usd": 100, "description": "consulting"})["payment_link_id"].(string)
		br := &browser{t: t, base: r.srv.URL, hc: r.srv.HTTP.Client()}
		br.cookie = &http.Cookie{Name: "botpay_session", Value: seller.OwnerToken}
		for _, path := range []string{"/pay/" + pageID, "/pay/" + linkID, "/pay/cp_0000000000000000", "/claim?token=x", "/login", "/signup",
			"/dashboard", "/dashboard/bots/" + seller.ID, "/dashboard/approvals", "/", "/docs/api", "/forgot",
			"/pay/" + pageID + "/receipt/sale_0000000000000000"} {
			resp, body := br.do("GET", path, nil)
			if resp.StatusCode >= 500 {
				t.Fatalf("GET %s = %d", path, resp.StatusCode)
			}
			if marked := strings.Contains(body, `data-testid="sandbox-mark"`) && strings.Contains(body, "Sandbox"); marked == live {
				t.Errorf("GET %s: sandbox mark shown = %v in live=%v", path, marked, live)
			}
		}
		_, page := br.do("GET", "/pay/"+pageID, nil)
		x402URL := r.srv.URL + "/api/v1/checkout/" + pageID + "/x402"
		hasForm := strings.Contains(page, `<form method="post"`) || strings.Contains(page, `value="l2_pay"`) || strings.Contains(page, `value="usdc_direct"`)
		if hasForm == live || !strings.Contains(page, x402URL) {
			t.Errorf("checkout page (live=%v): sandbox form shown %v, x402 URL shown %v", live, hasForm, strings.Contains(page, x402URL))
		}
		_, link := br.do("GET", "/pay/"+linkID, nil)
		if hasForm := strings.Contains(link, `<form method="post"`); hasForm == live {
			t.Errorf("payment link page (live=%v): form shown %v", live, hasForm)
		}
		// In both modes a link is paid with x402 at its own route.
		linkX402 := r.srv.URL + "/api/v1/payment-links/" + linkID + "/x402"
		if !strings.Contains(link, linkX402) || strings.Contains(link, "cannot be paid here") {
			t.Errorf("payment link page (live=%v) does not offer its x402 route %s: %s", live, linkX402, link)
		}
	})
}

// In live mode the x402 endpoint still takes payments, through the chain
// settler only; without one every payment is refused and nothing recorded.
func TestLiveModeSettlesX402OnlyThroughTheChain(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		for _, withChain := range []bool{true, false} {
			opts := testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, Live: true}
			stub := chainStub{settled: make(chan x402.Payment, 1)}
			if withChain {
				opts.Settler = stub
			}
			r := raw{t: t, srv: testserver.Start(t, d, opts)}
			seller := r.walletBot("chain-seller", 0)
			pageID := r.page(seller, nil)["checkout_page_id"].(string)
			payTo, _ := x402.ParseAddress(seller.Address)
			key, _ := x402.GenerateKey()
			auth := x402.Authorization{From: key.Address(), To: payTo, Value: 50_000, ValidBefore: uint64(r.srv.App.Now().Unix() + 300)}
			p := x402.Payment{Authorization: auth, Signature: key.Sign(x402.BaseUSDC.Digest(auth)), ChainID: 8453, Token: x402.BaseUSDC.Contract}
			a := r.do("GET", "/api/v1/checkout/"+pageID+"/x402", "", nil, "X-PAYMENT", x402.Encode(p, x402.BaseUSDC))
			sales := r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any)
			if withChain && (a.Status != 200 || len(stub.settled) != 1 || len(sales) != 1) {
				t.Fatalf("with the chain: %d %s; settled %d, sales %d", a.Status, a.Body, len(stub.settled), len(sales))
			}
			if !withChain && (a.Status != 402 || len(sales) != 0) {
				t.Fatalf("without a chain: %d %s; sales %d", a.Status, a.Body, len(sales))
			}
		}
	})
}
