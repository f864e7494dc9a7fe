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
		if got := r.header.Get("RateLimit"); got != `"register";r=0;t=3600` {
			t.Errorf("refused: RateLimit = %q, want \"register\";r=0;t=3600", got)
		}
	})
}

// A limit kept per account is never announced: a password-reset request
// for an address with an account answers exactly the headers of one for an
// address without.
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
		if strings.Contains(known.header.Get("RateLimit"), "reset-owner") {
			t.Errorf("the per-account limit was announced: %q", known.header.Get("RateLimit"))
		}
		if got := do(t, srv, http.MethodGet, "/healthz", nil).header.Get("RateLimit"); got != "" {
			t.Errorf("an unlimited route announced %q", got)
		}
	})
}
