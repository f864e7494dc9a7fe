package tunnelclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/tunnelclient"
)

const token = "bpt_00112233445566778899aabbccddeeff0011223344556677"

// The client reconnects after failures with growing waits, and keeps its
// session id across polls.
func TestRunReconnectsWithBackoff(t *testing.T) {
	var polls atomic.Int32
	var sessions = make(chan string, 100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := polls.Add(1)
		sessions <- r.Header.Get("X-Tunnel-Session")
		if n <= 3 {
			w.WriteHeader(http.StatusBadGateway) // the service is restarting
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		done <- tunnelclient.Run(ctx, tunnelclient.Config{Server: srv.URL, Token: token, To: "http://127.0.0.1:1",
			MinBackoff: 20 * time.Millisecond, MaxBackoff: 100 * time.Millisecond})
	}()
	for polls.Load() < 6 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run = %v, want nil after cancel", err)
	}
	// Three failures wait at least 10 + 20 + 40 ms (half of 20, 40, 80).
	if elapsed := time.Since(start); elapsed < 70*time.Millisecond {
		t.Errorf("reconnected after %s, want backoff", elapsed)
	}
	first := <-sessions
	for range 5 {
		if s := <-sessions; s != first || len(s) < 8 {
			t.Fatalf("session %q then %q, want one stable id", first, s)
		}
	}
}

func TestRunStopsOnARefusedToken(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	err := tunnelclient.Run(context.Background(), tunnelclient.Config{Server: srv.URL, Token: token, To: "http://127.0.0.1:1"})
	if !errors.Is(err, tunnelclient.ErrUnauthorized) {
		t.Fatalf("Run = %v, want ErrUnauthorized", err)
	}
}

func TestRunRefusesBadSettings(t *testing.T) {
	for _, c := range []tunnelclient.Config{
		{Server: "ftp://x", Token: token, To: "http://127.0.0.1:1"},
		{Server: "http://x", Token: "bp_live_nope", To: "http://127.0.0.1:1"},
		{Server: "http://x", Token: token, To: ""},
	} {
		if err := tunnelclient.Run(context.Background(), c); err == nil {
			t.Errorf("Run(%+v) accepted", c)
		}
	}
}
