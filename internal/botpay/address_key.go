package botpay

import "net/netip"

// AddressKey is the client a per-address limit counts: an IPv4 address
// (an IPv4-mapped IPv6 one unmapped) as is, an IPv6 address by its /64
// ("2001:db8:1:2::/64"), anything unparsable verbatim.
func AddressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}
