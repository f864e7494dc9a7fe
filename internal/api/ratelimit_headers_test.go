package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// Every answer of a rate-limited route that counted the request says, in
// the IETF draft's headers, how much of the limit is left, not only the
// 429 that refuses.
func TestRateLimitedRoutesAnnounceWhatIsLeft(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{})
		for _, left := range []string{"2", "1", "0"} {
			r := register(t, srv, botBody("counted@example.com"))
			if got := r.header.Get("RateLimit-Policy"); got != `"register";q=3;w=3600` {
				t.Errorf("RateLimit-Policy = %q, want \"register\";q=3;w=3600", got)
			}
			got := r.header.Get("RateLimit")
			if !strings.HasPrefix(got, `"register";r=`+left+`;t=`) || !strings.HasSuffix(got, "=3600") && !strings.HasSuffix(got, "=3599") {
				t.Errorf("RateLimit = %q, want \"register\";r=%s;t=3600 (or 3599)", got, left)
			}
		}
		r := do(t, srv, http.MethodPost, registerPath, botBody("counted@example.com"))
		wantError(t, r, http.StatusTooManyRequests, "rate_limited")
		// A second may pass between the window's start and the refusal on
		// a busy machine, as it may for the counted requests above.
		if got := r.header.Get("RateLimit"); got != `"register";r=0;t=3600` && got != `"register";r=0;t=3599` {
			t.Errorf("refused: RateLimit = %q, want \"register\";r=0;t=3600 (or 3599)", got)
		}
	})
}

// A limit kept per account, or one whose count would tell a prober what it
// hit, is never announced: a password-reset request for an address with an
// account answers exactly the headers of one for an address without, and
// no answer names the per-owner or invoice-miss buckets.
func TestPerAccountLimitsStayUnannounced(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{})
		o := signup(t, srv)
		known := do(t, srv, http.MethodPost, "/api/v1/owner/password-reset", map[string]any{"email": o.email})
		unknown := do(t, srv, http.MethodPost, "/api/v1/owner/password-reset", map[string]any{"email": unique("nobody") + "@example.com"})
		wantStatus(t, known, http.StatusAccepted)
		wantStatus(t, unknown, http.StatusAccepted)
		if k, u := known.header.Get("RateLimit-Policy"), unknown.header.Get("RateLimit-Policy"); !strings.HasPrefix(k, `"reset-ip";`) || k != u {
			t.Errorf("RateLimit-Policy known %q, unknown %q: want the same, the address's limit only", k, u)
		}
		for _, c := range unannouncedLimits(t, srv, o) {
			r := do(t, srv, http.MethodPost, c.path, c.body, c.headers...)
			wantStatus(t, r, c.status)
			for _, h := range []string{"RateLimit-Policy", "RateLimit"} {
				if strings.Contains(r.header.Get(h), c.bucket) {
					t.Errorf("%s: %s = %q announces %s", c.name, h, r.header.Get(h), c.bucket)
				}
			}
		}
		if got := do(t, srv, http.MethodGet, "/healthz", nil).header.Get("RateLimit"); got != "" {
			t.Errorf("an unlimited route announced %q", got)
		}
	})
}

// unannouncedLimit is a request that counts a limit no answer may name.
type unannouncedLimit struct {
	name, bucket, path string
	body               map[string]any
	headers            []string
	status             int
}

func unannouncedLimits(t *testing.T, srv *testserver.Server, o owner) []unannouncedLimit {
	key, _ := claimedBot(t, srv, o)
	page := do(t, srv, http.MethodPost, "/api/v1/bot/checkout-pages/create", map[string]any{"title": "Widget", "amount_usd": 5}, auth(key)...)
	wantStatus(t, page, http.StatusCreated)
	return []unannouncedLimit{
		{name: "password reset per address", bucket: "reset-address", path: "/api/v1/owner/password-reset",
			body: map[string]any{"email": o.email}, status: http.StatusAccepted},
		{name: "verification per owner", bucket: "verify-owner", path: "/api/v1/owner/email-verification",
			headers: auth(o.token), status: http.StatusAccepted},
		{name: "invoice reference misses", bucket: "invoice-ref-miss",
			path: "/api/v1/checkout/" + page.str("checkout_page_id") + "/pay/sandbox?ref=INV-NONE&t=guess",
			body: map[string]any{"buyer_email": "buyer@example.com"}, status: http.StatusNotFound},
	}
}
