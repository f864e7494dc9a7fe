// Package egress owns the service's outbound HTTP to addresses that bots
// choose (webhook callback URLs). Its client refuses loopback, private,
// link-local, multicast, cloud-metadata and other special-purpose
// destinations at dial time — after DNS resolution, so a name that resolves
// (or re-resolves) to an internal address cannot get through — ignores proxy
// environment variables and never follows redirects. It knows nothing about
// bots or events.
package egress

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrRefused is wrapped by every refusal of a destination.
var ErrRefused = errors.New("destination address not allowed")

// blocked lists the special-purpose ranges a webhook must never reach.
var blocked = func() []netip.Prefix {
	var out []netip.Prefix
	for _, p := range []string{
		"0.0.0.0/8",       // "this network"; 0.0.0.0 reaches the local host
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, cloud metadata 169.254.169.254
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"192.88.99.0/24",  // 6to4 relay anycast
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, broadcast
		"::/96",           // unspecified, loopback and IPv4-compatible (::a.b.c.d)
		"64:ff9b::/96",    // NAT64: embeds an IPv4 address
		"64:ff9b:1::/48",  // local-use NAT64
		"100::/64",        // discard
		"2001::/32",       // Teredo
		"2001:db8::/32",   // documentation
		"2002::/16",       // 6to4: embeds an IPv4 address
		"fc00::/7",        // unique local (also AWS metadata fd00:ec2::254)
		"fe80::/10",       // link-local
		"fec0::/10",       // old site-local
		"ff00::/8",        // multicast
	} {
		out = append(out, netip.MustParsePrefix(p))
	}
	return out
}()

// Allowed reports whether addr is a public unicast address.
func Allowed(addr netip.Addr) bool {
	addr = addr.Unmap()
	if !addr.IsValid() || addr.Zone() != "" {
		return false
	}
	for _, p := range blocked {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

// metadataNames are host names of cloud metadata services and the local
// host, refused before any lookup.
var metadataNames = []string{"localhost", "metadata", "metadata.google.internal", "instance-data", "metadata.azure.internal"}

// CheckURL refuses, without any DNS lookup, a URL whose host is an IP
// literal outside the public ranges or a well-known local or metadata name.
// Host names that resolve to such addresses are caught at dial time.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if addr, err := netip.ParseAddr(host); err == nil {
		if !Allowed(addr) {
			return fmt.Errorf("%w: %s", ErrRefused, addr)
		}
		return nil
	}
	if legacy := net.ParseIP(host); legacy != nil { // forms netip rejects
		if addr, ok := netip.AddrFromSlice(legacy); !ok || !Allowed(addr) {
			return fmt.Errorf("%w: %s", ErrRefused, host)
		}
	}
	for _, name := range metadataNames {
		if host == name || strings.HasSuffix(host, "."+name) {
			return fmt.Errorf("%w: %s", ErrRefused, host)
		}
	}
	if strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".internal") || numericName(host) {
		return fmt.Errorf("%w: %s", ErrRefused, host)
	}
	return nil
}

// numericName reports a host whose last label is a number (2130706433,
// 0x7f.1): no top-level domain is numeric, and some resolvers read such names
// as IPv4 addresses in decimal, octal or hex.
func numericName(host string) bool {
	last := host[strings.LastIndexByte(host, '.')+1:]
	if strings.HasPrefix(last, "0x") {
		return true
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}

// Options configure Client.
type Options struct {
	// AllowPrivate turns the guard off (tests and local development:
	// BOTPAY_WEBHOOK_ALLOW_PRIVATE).
	AllowPrivate bool
	// Timeout bounds a whole request including reading the answer; 10 s
	// when zero (docs/decisions.md).
	Timeout time.Duration
	// Resolver replaces the system resolver (tests).
	Resolver *net.Resolver
}

// guard is the net.Dialer Control hook: it sees the resolved address of
// every connection about to be made.
func guard(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: unparsable address %q", ErrRefused, address)
	}
	if !Allowed(ap.Addr()) {
		return fmt.Errorf("%w: %s", ErrRefused, ap.Addr())
	}
	return nil
}

// Client returns the HTTP client for bot-chosen destinations.
func Client(o Options) *http.Client {
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second, Resolver: o.Resolver}
	if !o.AllowPrivate {
		dialer.Control = guard
	}
	tr := &http.Transport{
		Proxy:                  nil, // never HTTP(S)_PROXY: a proxy would dial on our behalf, unchecked
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    16,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    5 * time.Second,
		ResponseHeaderTimeout:  timeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		// Redirects are not followed: a 3xx is the receiver's answer, and a
		// failure (only 2xx succeeds); following it could also lead inside.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// IsRefused reports whether err is a refusal of the destination.
func IsRefused(err error) bool { return errors.Is(err, ErrRefused) }
