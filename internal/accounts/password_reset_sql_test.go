package accounts

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
)

// TestIssuePasswordResetTreatsEveryAddressAlike: an existing and a missing
// account spend the address's budget alike and are refused alike past it;
// only the existing one gets links, and a newer link ends the earlier.
func TestIssuePasswordResetTreatsEveryAddressAlike(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		s := newService(db.Store)
		owner := newOwner(t, s)
		expires := s.clock.Now().Add(time.Hour)
		for _, tc := range []struct {
			name, email string
			found       bool
		}{
			{"existing account", owner.Email, true},
			{"missing account", botpay.NewID("nobody") + "@example.com", false},
		} {
			budget := Limit{Bucket: "reset-address:" + botpay.Digest(tc.email), Max: 2, Window: time.Hour, Unannounced: true}
			var tokens []string
			for range 2 {
				token := botpay.NewSecret("bpl_")
				found, err := s.issuePasswordReset(ctx, tc.email, budget, botpay.Digest(token), expires)
				if err != nil || found != tc.found {
					t.Fatalf("%s: found %v, %v; want %v", tc.name, found, err, tc.found)
				}
				tokens = append(tokens, token)
			}
			_, err := s.issuePasswordReset(ctx, tc.email, budget, botpay.Digest(botpay.NewSecret("bpl_")), expires)
			wantCode(t, err, botpay.CodeRateLimited)
			if _, err := s.ownerByLink(ctx, linkPasswordReset, botpay.Digest(tokens[0])); err == nil {
				t.Errorf("%s: the first link still works after a newer one", tc.name)
			}
			if o, err := s.ownerByLink(ctx, linkPasswordReset, botpay.Digest(tokens[1])); (err == nil) != tc.found || (tc.found && o.ID != owner.ID) {
				t.Errorf("%s: the latest link answers %v, %v", tc.name, o.ID, err)
			}
		}
	})
}
