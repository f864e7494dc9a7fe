package e2e

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/egress"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

const (
	vendorPayTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
	accomplice  = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
)

// vendorServer is a real x402 resource: /item answers 402 asking 0.05
// USDC to vendorPayTo, /free answers 200. hits counts its requests.
func vendorServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/item" {
			w.Write([]byte("free"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusPaymentRequired)
		json.NewEncoder(w).Encode(map[string]any{"x402Version": 1, "error": "X-PAYMENT header is required",
			"accepts": []map[string]any{{"scheme": "exact", "network": "base", "maxAmountRequired": "50000",
				"resource": "http://vendor-ok.example/item", "payTo": vendorPayTo, "maxTimeoutSeconds": 60,
				"asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// resolvingTo is the service's real outbound client, private destinations
// allowed, with every *.example name dialled at the vendor's listener.
func resolvingTo(vendor *httptest.Server) *http.Client {
	c := egress.Client(egress.Options{AllowPrivate: true, Timeout: 5e9})
	tr := c.Transport.(*http.Transport)
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, _, _ := net.SplitHostPort(addr); strings.HasSuffix(host, ".example") {
			addr = vendor.Listener.Addr().String()
		}
		return dial(ctx, network, addr)
	}
	return c
}

func TestSigningIsBoundToTheRecipientTheResourceAsksFor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		procurement map[string]any
		url         string
		recipient   string
		amount      int64
		wantStatus  int
		wantReason  string
		wantFetch   bool
	}{
		{"the vendor's own recipient is signed", map[string]any{"allowed_domains": []string{"vendor-ok.example"}},
			"http://vendor-ok.example/item", vendorPayTo, 50_000, 200, "", true},
		{"less than the vendor asks is signed", map[string]any{"allowed_domains": []string{"vendor-ok.example"}},
			"http://vendor-ok.example/item", strings.ToLower(vendorPayTo), 10_000, 200, "", true},
		{"an accomplice named beside the vendor's URL is refused", map[string]any{"allowed_domains": []string{"vendor-ok.example"}},
			"http://vendor-ok.example/item", accomplice, 50_000, 403, "payTo", true},
		{"more than the vendor asks is refused", map[string]any{"allowed_domains": []string{"vendor-ok.example"}},
			"http://vendor-ok.example/item", vendorPayTo, 50_001, 403, "asks less", true},
		{"a resource that does not answer 402 is refused", map[string]any{"allowed_domains": []string{"vendor-ok.example"}},
			"http://vendor-ok.example/free", vendorPayTo, 50_000, 403, "402", true},
		{"a merchant allow-list binds too", map[string]any{"allowed_merchants": []string{"vendor-ok.example"}},
			"http://vendor-ok.example/item", accomplice, 50_000, 403, "payTo", true},
		{"a recipient outside allowed_recipients is refused unasked", map[string]any{"allowed_recipients": []string{vendorPayTo}},
			"http://vendor-ok.example/item", accomplice, 50_000, 403, "allowed recipients", false},
		{"an allowed recipient the resource names is signed", map[string]any{"allowed_recipients": []string{strings.ToLower(vendorPayTo)}},
			"http://vendor-ok.example/item", vendorPayTo, 50_000, 200, "", true},
		{"an allowed recipient the resource does not name is refused", map[string]any{"allowed_recipients": []string{accomplice}},
			"http://vendor-ok.example/item", accomplice, 50_000, 403, "payTo", true},
		{"a domain block-list binds too: an accomplice beside an innocent URL is refused", map[string]any{"blocked_domains": []string{"evil.example"}},
			"http://vendor-ok.example/item", accomplice, 50_000, 403, "payTo", true},
		{"a merchant block-list binds too", map[string]any{"blocked_merchants": []string{"Casino"}},
			"http://vendor-ok.example/item", accomplice, 50_000, 403, "payTo", true},
		{"under a block-list the vendor's own recipient is signed", map[string]any{"blocked_domains": []string{"evil.example"}},
			"http://vendor-ok.example/item", vendorPayTo, 50_000, 200, "", true},
		{"a blocked recipient is refused whatever resource names it", map[string]any{"blocked_recipients": []string{strings.ToLower(vendorPayTo)}},
			"http://vendor-ok.example/item", vendorPayTo, 50_000, 403, "blocked", false},
		{"without any list nothing is fetched", map[string]any{},
			"http://vendor-ok.example/item", accomplice, 50_000, 200, "", false},
	}
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		vendor, hits := vendorServer(t)
		r := raw{t: t, srv: testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100},
			ResourceHTTP: resolvingTo(vendor)})}
		for _, tc := range cases {
			b := r.walletBot("binding", 5)
			r.must(200, "PUT", "/api/v1/owner/bots/"+b.ID+"/procurement", b.OwnerToken, tc.procurement)
			before := hits.Load()
			a := r.sign(b, map[string]any{"resource_url": tc.url, "amount_usdc": tc.amount, "recipient_address": tc.recipient})
			if a.Status != tc.wantStatus {
				t.Errorf("%s: %d %s, want %d", tc.name, a.Status, a.Body, tc.wantStatus)
				continue
			}
			if fetched := hits.Load() > before; fetched != tc.wantFetch {
				t.Errorf("%s: resource fetched %v, want %v", tc.name, fetched, tc.wantFetch)
			}
			if tc.wantStatus == 403 {
				body := a.json(t)
				if body["error"] != "guardrail_blocked" || !strings.Contains(body["reason"].(string), tc.wantReason) {
					t.Errorf("%s: %s, want guardrail_blocked naming %q", tc.name, a.Body, tc.wantReason)
				}
			}
		}
	})
}

func TestAllowedRecipientsAreStoredChecksummed(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("recipients", 0)
		path := "/api/v1/owner/bots/" + b.ID + "/procurement"
		if got := r.must(200, "GET", path, b.OwnerToken, nil)["allowed_recipients"]; got == nil || len(got.([]any)) != 0 {
			t.Fatalf("default allowed_recipients = %#v, want []", got)
		}
		blocked := r.must(200, "PUT", path, b.OwnerToken, map[string]any{"blocked_recipients": []string{strings.ToLower(accomplice)}})
		if list, _ := blocked["blocked_recipients"].([]any); len(list) != 1 || list[0] != accomplice {
			t.Fatalf("blocked_recipients = %v", blocked["blocked_recipients"])
		}
		put := r.must(200, "PUT", path, b.OwnerToken, map[string]any{"allowed_recipients": []string{strings.ToLower(vendorPayTo), vendorPayTo, strings.ToLower(accomplice)}})
		got := r.must(200, "GET", path, b.OwnerToken, nil)
		for _, body := range []map[string]any{put, got} {
			list := body["allowed_recipients"].([]any)
			if len(list) != 2 || list[0] != vendorPayTo || list[1] != accomplice {
				t.Fatalf("allowed_recipients = %v", list)
			}
		}
		// The dashboard's procurement form sets them too.
		br := &browser{t: t, base: r.srv.URL, hc: &http.Client{Transport: r.srv.HTTP.Client().Transport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
		br.cookie = &http.Cookie{Name: "botpay_session", Value: b.OwnerToken}
		resp, body := br.do("POST", "/dashboard/bots/"+b.ID+"/procurement", url.Values{"allowed_recipients": {strings.ToLower(accomplice) + "\n"}})
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("dashboard procurement form: %d %s", resp.StatusCode, body)
		}
		if list := r.must(200, "GET", path, b.OwnerToken, nil)["allowed_recipients"].([]any); len(list) != 1 || list[0] != accomplice {
			t.Fatalf("after the dashboard form: %v", list)
		}
		if _, page := br.do("GET", "/dashboard/bots/"+b.ID+"/settings", nil); !strings.Contains(page, accomplice) {
			t.Fatalf("the bot's settings page does not show the allowed recipient")
		}
		for _, bad := range []string{"0x123", "vendor.example", "0x209693bc6afc0c5328ba36faf03c514ef312287C"} {
			a := r.do("PUT", path, b.OwnerToken, map[string]any{"allowed_recipients": []string{bad}})
			if a.Status != 400 || !strings.Contains(string(a.Body), "allowed_recipients") {
				t.Errorf("allowed_recipients [%q]: %d %s", bad, a.Status, a.Body)
			}
		}
	})
}

// The resource is read through the outbound guard: with private
// destinations refused (production), a resource on a loopback address is
// never fetched, and nothing is signed.
func TestRecipientBindingGoesThroughTheOutboundGuard(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		vendor, hits := vendorServer(t)
		r := raw{t: t, srv: testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, WebhookGuard: true})}
		b := r.walletBot("guarded", 5)
		r.must(200, "PUT", "/api/v1/owner/bots/"+b.ID+"/procurement", b.OwnerToken, map[string]any{"allowed_domains": []string{"localhost"}})
		port := vendor.Listener.Addr().(*net.TCPAddr).Port
		a := r.sign(b, map[string]any{"resource_url": "http://localhost:" + strconv.Itoa(port) + "/item", "amount_usdc": 50_000,
			"recipient_address": vendorPayTo})
		if a.Status != 403 || a.json(t)["error"] != "guardrail_blocked" || !strings.Contains(a.json(t)["reason"].(string), "could not be reached") {
			t.Fatalf("loopback resource with the guard on: %d %s", a.Status, a.Body)
		}
		if hits.Load() != 0 {
			t.Fatalf("the guard let %d requests through to a loopback resource", hits.Load())
		}
	})
}
