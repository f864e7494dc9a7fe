package api_test

import (
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// behindProxy lets a test name its client address in X-Forwarded-For.
func behindProxy(opts testserver.Options) testserver.Options {
	opts.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	return opts
}

func from(addr string) []string { return []string{"X-Forwarded-For", addr} }

const claimPath = "/api/v1/owner/bots/claim"

// TestClaimTokenExpiresAfterSevenDays: a token works for seven days after
// registration; past that it answers like an unknown one, and a used one
// does too.
func TestClaimTokenExpiresAfterSevenDays(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Now())
		opts := lenient()
		opts.Clock = clock
		srv := testserver.Start(t, d, opts)
		o := signup(t, srv)
		late := register(t, srv, botBody(o.email))
		inTime := register(t, srv, botBody(o.email))
		clock.Advance(botpay.ClaimTokenLifetime - time.Minute)
		ok := do(t, srv, http.MethodPost, claimPath, map[string]any{"claim_token": inTime.str("claim_token")}, auth(o.token)...)
		wantStatus(t, ok, http.StatusOK)
		again := do(t, srv, http.MethodPost, claimPath, map[string]any{"claim_token": inTime.str("claim_token")}, auth(o.token)...)
		wantError(t, again, http.StatusNotFound, "invalid_claim_token")
		clock.Advance(2 * time.Minute)
		r := do(t, srv, http.MethodPost, claimPath, map[string]any{"claim_token": late.str("claim_token")}, auth(o.token)...)
		wantError(t, r, http.StatusNotFound, "invalid_claim_token")
	})
}

// TestFailedClaimBudgetIsNotMultipliedByAddresses: guessers spread over
// many accounts and addresses share one budget of failed claims; once it
// is spent, claims answer 429 whoever asks from wherever.
func TestFailedClaimBudgetIsNotMultipliedByAddresses(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		opts := lenient()
		opts.Limits.ClaimFailuresPerHour = 6
		srv := testserver.Start(t, d, behindProxy(opts))
		for i := range 6 {
			guesser := signup(t, srv)
			addr := netip.AddrFrom4([4]byte{198, 51, 100, byte(i + 1)}).String()
			r := do(t, srv, http.MethodPost, claimPath, map[string]any{"claim_token": botpay.NewClaimToken()}, append(auth(guesser.token), from(addr)...)...)
			wantError(t, r, http.StatusNotFound, "invalid_claim_token")
		}
		o := signup(t, srv)
		r := do(t, srv, http.MethodPost, claimPath, map[string]any{"claim_token": botpay.NewClaimToken()}, append(auth(o.token), from("203.0.113.77")...)...)
		wantError(t, r, http.StatusTooManyRequests, "rate_limited")
	})
}

// TestIPv6ClientsAreCountedByTheirSlash64: the registration limit (3 per
// address per hour) counts every address of one /64 as one client, and a
// neighbouring /64 as another.
func TestIPv6ClientsAreCountedByTheirSlash64(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, behindProxy(testserver.Options{}))
		for _, addr := range []string{"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:aaaa::3"} {
			register(t, srv, botBody("v6@example.com"), from(addr)...)
		}
		r := do(t, srv, http.MethodPost, registerPath, botBody("v6@example.com"), from("2001:db8:1:2:ffff:ffff:ffff:ffff")...)
		wantError(t, r, http.StatusTooManyRequests, "rate_limited")
		register(t, srv, botBody("v6@example.com"), from("2001:db8:1:3::1")...)
	})
}
