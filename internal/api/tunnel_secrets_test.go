package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/tunnelclient"
)

// TestTunnelRequestsDoNotStoreTheHooksToken: a delivery through the managed
// tunnel reaches the gateway with Authorization: Bearer <hooks token>, but
// the queued request in tunnel_requests never holds the token (it used to
// store the header in plain text).
func TestTunnelRequestsDoNotStoreTheHooksToken(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		opts := lenient()
		opts.Deliver = true
		srv := testserver.Start(t, d, opts)
		o := signup(t, srv)
		reg := register(t, srv, map[string]any{"bot_name": unique("tunnel"), "owner_email": o.email})
		hooks := reg.str("hooks_token")
		got := make(chan string, 10)
		gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got <- r.Header.Get("Authorization")
			w.WriteHeader(http.StatusNoContent)
		}))
		t.Cleanup(gateway.Close)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- tunnelclient.Run(ctx, tunnelclient.Config{Server: srv.URL, Token: reg.str("tunnel_token"), To: gateway.URL,
				MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond})
		}()
		t.Cleanup(func() { cancel(); <-done })
		time.Sleep(200 * time.Millisecond) // the client's first poll makes the tunnel live
		r := do(t, srv, http.MethodPost, "/api/v1/owner/bots/claim", map[string]any{"claim_token": reg.str("claim_token")}, auth(o.token)...)
		wantStatus(t, r, http.StatusOK)
		select {
		case a := <-got:
			if a != "Bearer "+hooks {
				t.Errorf("the gateway got Authorization %q, want the hooks token", a)
			}
		case <-time.After(15 * time.Second):
			t.Fatal("no delivery reached the gateway through the tunnel")
		}
		rows, err := rawDB(t, srv).Query(`SELECT headers FROM tunnel_requests`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var headers string
			if err := rows.Scan(&headers); err != nil {
				t.Fatal(err)
			}
			n++
			if strings.Contains(headers, hooks[len("whsec_"):]) || strings.Contains(headers, "Authorization") {
				t.Errorf("tunnel_requests.headers holds the hooks token: %s", headers)
			}
		}
		if n == 0 {
			t.Fatal("no tunnel request was stored; the check saw nothing")
		}
	})
}

// TestALongPollWhoseClientLeftIsNotAServerError: a tunnel client that goes
// away while its long poll is still reading (the context is cancelled in a
// database call, not in the wait) ends the poll as the wait does, 204,
// never 500: no error is logged or counted for a client that left.
func TestALongPollWhoseClientLeftIsNotAServerError(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		reg := register(t, srv, map[string]any{"bot_name": unique("tunnel"), "owner_email": o.email})
		gone, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequest(http.MethodGet, "/api/v1/tunnel/next?wait=1s", nil).WithContext(gone)
		req.Header.Set("Authorization", "Bearer "+reg.str("tunnel_token"))
		req.Header.Set("X-Tunnel-Session", "session-one")
		rec := httptest.NewRecorder()
		srv.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			t.Fatalf("long poll of a client that left = %d %s, want 204", rec.Code, rec.Body)
		}
	})
}
