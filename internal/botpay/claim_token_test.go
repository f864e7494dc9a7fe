package botpay_test

import (
	"regexp"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
)

// TestClaimTokensCarryAtLeast64Bits: the entropy of the format, computed
// from its alphabets, is at least 64 bits, and drawn tokens have the format
// and are all different.
func TestClaimTokensCarryAtLeast64Bits(t *testing.T) {
	t.Parallel()
	if bits := botpay.ClaimTokenBits(); bits < 64 {
		t.Fatalf("claim tokens carry %.1f bits, want at least 64", bits)
	}
	format := regexp.MustCompile(`^[a-z]+(-[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{4}){3}$`)
	seen := map[string]bool{}
	for range 1000 {
		tok := botpay.NewClaimToken()
		if !format.MatchString(tok) {
			t.Fatalf("claim token %q does not read word-XXXX-XXXX-XXXX", tok)
		}
		if botpay.NormalizeClaimToken(" "+tok+" ") != tok {
			t.Fatalf("claim token %q does not normalize to itself", tok)
		}
		if seen[tok] {
			t.Fatalf("claim token %q drawn twice in 1000", tok)
		}
		seen[tok] = true
	}
}
