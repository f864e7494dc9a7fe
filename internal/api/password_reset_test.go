package api_test

import (
	"net/http"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestPasswordResetDoesTheSameWorkForAMissingAccount: a reset asked for an
// address without an account answers as one with, and does the same
// writes (it takes the address's mail budget in the same transaction that
// stores a link only for an account), so its timing tells nothing; only
// the existing account gets a link.
func TestPasswordResetDoesTheSameWorkForAMissingAccount(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		for _, tc := range []struct {
			name, email string
			links       int
		}{
			{"existing account", signup(t, srv).email, 1},
			{"missing account", unique("nobody") + "@example.com", 0},
		} {
			r := do(t, srv, http.MethodPost, "/api/v1/owner/password-reset", map[string]any{"email": tc.email})
			wantStatus(t, r, http.StatusAccepted)
			db := rawDB(t, srv)
			var hits, links int
			if err := db.QueryRow(`SELECT COUNT(*) FROM rate_limit_hits WHERE bucket = 'reset-address:` + botpay.Digest(tc.email) + `'`).Scan(&hits); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow(`SELECT COUNT(*) FROM owner_links l JOIN owners o ON o.id = l.owner_id
				WHERE l.purpose = 'password_reset' AND o.email = '` + tc.email + `'`).Scan(&links); err != nil {
				t.Fatal(err)
			}
			if hits != 1 || links != tc.links {
				t.Errorf("%s: the address's budget counted %d requests and %d links were stored, want 1 and %d",
					tc.name, hits, links, tc.links)
			}
		}
	})
}
