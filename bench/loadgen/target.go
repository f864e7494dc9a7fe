package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// loopbackURL parses the base URL and refuses any host that is not a
// loopback address or "localhost".
func loopbackURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil {
		return nil, fmt.Errorf("-url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("-url %q: scheme must be http or https", raw)
	}
	if !loopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("-url %q: only loopback targets are allowed (127.0.0.0/8, ::1, localhost)", raw)
	}
	return u, nil
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// refuseNonLoopback is a dialer control hook: even if "localhost" resolved
// somewhere else, no connection leaves the machine.
func refuseNonLoopback(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !ap.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("refusing to dial non-loopback address %s", address)
	}
	return nil
}

// newClient returns a keep-alive client with an idle connection slot for
// every worker, no proxy (the environment's proxy settings are ignored) and
// no transparent compression, so each worker reuses one connection.
func newClient(conns int, timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second, Control: refuseNonLoopback}
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         dialer.DialContext,
		MaxIdleConns:        conns + 16,
		MaxIdleConnsPerHost: conns + 16,
		MaxConnsPerHost:     0,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// closeIdle releases the client's pooled connections.
func closeIdle(c *http.Client) {
	if tr, ok := c.Transport.(*http.Transport); ok {
		tr.CloseIdleConnections()
	}
}

// printFreePort asks the kernel for a free loopback port and prints it. The
// port is released before the caller binds it, so a race is possible but
// harmless: the server then fails to start and the caller reports it.
func printFreePort(w io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := ln.Close(); err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, port)
	return err
}

// waitReady polls GET /readyz every 100 ms until it answers 200 or limit
// passes.
func waitReady(rawURL string, limit time.Duration) error {
	base, err := loopbackURL(rawURL)
	if err != nil {
		return err
	}
	c := newClient(1, time.Second)
	defer closeIdle(c)
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		status, err := roundTrip(c, mustGET(base.String()+"/readyz"))
		if err == nil && status == http.StatusOK {
			return nil
		}
		last = err
		if err == nil {
			last = fmt.Errorf("HTTP %d", status)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s/readyz not ready after %s: %v", base, limit, last)
}

func mustGET(url string) *http.Request {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		panic(err)
	}
	return req
}
