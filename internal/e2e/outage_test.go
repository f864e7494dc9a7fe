package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// While the database cannot be reached every route answers 503
// service_unavailable with Retry-After (never 500) and /readyz says so;
// once it is back the same calls succeed. PostgreSQL only: it is the
// engine that lives across a network.
func TestUnreachableDatabaseAnswers503AndRecovers(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.Postgres, nil)
	proxied, proxy := db.OpenThroughProxy(t)
	h := start(t, store.Postgres, testserver.Options{DB: proxied})
	s := h.shopper("outage", client.Dollars(100, 0), nil)
	page, err := s.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Kept", AmountUSD: usd(500)})
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, h)
	b.cookie = &http.Cookie{Name: "botpay_session", Value: s.sess.Token}

	proxy.Down()
	for _, path := range []string{"/pay/" + page.CheckoutPageID, "/dashboard/bots/" + s.reg.BotID} {
		if resp, body := b.do("GET", path, nil); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("GET %s during the outage: HTTP %d (Retry-After %q)\n%s", path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	calls := map[string]func() error{ // route → call
		"GET /api/v1/bot/wallet/check":       func() error { _, err := s.bot.WalletCheck(h.ctx); return err },
		"POST /api/v1/bot/merchant/checkout": func() error { _, err := s.bot.Checkout(h.ctx, purchase(500)); return err },
		"GET /api/v1/bot/status":             func() error { _, err := s.bot.Status(h.ctx); return err },
		"POST /api/v1/owner/bots/{bot}/fund": func() error { _, err := s.owner.Fund(h.ctx, s.reg.BotID, 500, ""); return err },
	}
	for route, call := range calls {
		wantError(t, call(), http.StatusServiceUnavailable, botpay.CodeServiceUnavailable)
		route = strings.Replace(route, "{bot}", s.reg.BotID, 1)
		if h.wire.answer(route).header.Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", route)
		}
	}
	if resp, err := h.srv.HTTP.Client().Get(h.srv.URL + "/readyz"); err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz during the outage: %v %v", resp.StatusCode, err)
	}

	proxy.Up()
	for name, call := range calls {
		if err := call(); err != nil {
			t.Errorf("%s after the database came back: %v", name, err)
		}
	}
}
