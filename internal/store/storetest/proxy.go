package storetest

import (
	"context"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/store"
)

// Proxy is a TCP relay on loopback between a Store and PostgreSQL, so a
// test can make the database unreachable (Down), bring it back (Up), or
// break every open connection as a server restart does (Cut).
type Proxy struct {
	t      testing.TB
	target string
	mu     sync.Mutex
	ln     net.Listener
	addr   string
	conns  map[net.Conn]struct{}
}

// OpenThroughProxy opens a second Store on db's PostgreSQL schema whose
// connections go through a Proxy; the DB's Options name the proxy too, so
// replicas opened from it (OpenAnother, testserver) use it as well.
func (db *DB) OpenThroughProxy(t testing.TB) (*DB, *Proxy) {
	t.Helper()
	u, err := url.Parse(db.Options.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, target: u.Host, conns: map[net.Conn]struct{}{}}
	p.Up()
	u.Host = p.addr
	opts := db.Options
	opts.DatabaseURL = u.String()
	st, err := store.Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("open through proxy: %v", err)
	}
	t.Cleanup(func() { st.Close(); p.Down() })
	return &DB{Store: st, Options: opts}, p
}

// Up listens (again, on the same address) and relays new connections.
func (p *Proxy) Up() {
	p.mu.Lock()
	defer p.mu.Unlock()
	addr := p.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatalf("proxy listen: %v", err)
	}
	p.ln, p.addr = ln, ln.Addr().String()
	go p.accept(ln)
}

// Down stops listening and breaks every open connection: the database is
// unreachable until Up.
func (p *Proxy) Down() {
	p.mu.Lock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	p.mu.Unlock()
	p.Cut()
}

// Cut breaks every open connection but keeps accepting new ones.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *Proxy) accept(ln net.Listener) {
	for {
		client, err := ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		p.mu.Lock()
		p.conns[client], p.conns[server] = struct{}{}, struct{}{}
		p.mu.Unlock()
		go relay(client, server)
		go relay(server, client)
	}
}

func relay(dst, src net.Conn) {
	io.Copy(dst, src)
	dst.Close()
	src.Close()
}
