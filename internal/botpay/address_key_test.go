package botpay_test

import (
	"testing"

	"github.com/botpay/botpay/internal/botpay"
)

func TestAddressKeyCountsIPv6ByItsSlash64(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"203.0.113.9", "203.0.113.9"},
		{"::ffff:203.0.113.9", "203.0.113.9"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
	} {
		if got := botpay.AddressKey(tc.in); got != tc.want {
			t.Errorf("AddressKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
