package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestConnSenderKeepsOneConnectionAndRedialsAfterClose: a worker's
// requests share its connection until the server closes it, then the next
// request dials again; bodies arrive whole and statuses are the server's.
func TestConnSenderKeepsOneConnectionAndRedialsAfterClose(t *testing.T) {
	t.Parallel()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/close" {
			w.Header().Set("Connection", "close")
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(bytes.Repeat(body, 2))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	s := newConnSender(strings.TrimPrefix(srv.URL, "http://"), time.Second)
	t.Cleanup(s.close)
	for i, path := range []string{"/a", "/b", "/close", "/c"} {
		req, err := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(`{"n":1}`))
		if err != nil {
			t.Fatal(err)
		}
		status, err := s.send(req)
		if err != nil || status != http.StatusCreated {
			t.Fatalf("request %d (%s): status %d, err %v", i, path, status, err)
		}
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("connections = %d, want 2 (one until the server closed it, one after)", n)
	}
}

// TestConnSenderReportsARefusedConnection: nothing listens, so the send
// fails with connection_refused and the next one dials again.
func TestConnSenderReportsARefusedConnection(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := newConnSender(addr, time.Second)
	for range 2 {
		_, err := s.send(mustGET("http://" + addr + "/"))
		if got := errorKind(err); got != "connection_refused" {
			t.Fatalf("error kind = %q (%v), want connection_refused", got, err)
		}
	}
}
