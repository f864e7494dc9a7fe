package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// gateway is a bot's local gateway behind the tunnel.
type gateway struct {
	mu       sync.Mutex
	received []http.Header
	bodies   [][]byte
	paths    []string
}

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	g.received = append(g.received, r.Header.Clone())
	g.bodies = append(g.bodies, body)
	g.paths = append(g.paths, r.URL.Path)
	g.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (g *gateway) count() int { g.mu.Lock(); defer g.mu.Unlock(); return len(g.received) }

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// `botpay tunnel` with a local gateway: a managed-tunnel bot's delivery
// travels through it, signed and carrying the hooks token; health is active
// while it is connected; once it disconnects, the next event fails over to a
// pending message and health degrades.
func TestTunnelCommandRelaysDeliveriesToTheLocalGateway(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		srv := testserver.Start(t, dialect, testserver.Options{Deliver: true, Limits: app.Limits{RegisterPerHour: 100}})
		ctx := context.Background()
		gw := &gateway{}
		local := httptest.NewServer(gw)
		defer local.Close()

		reg, err := client.New(srv.URL, "").Register(ctx, client.RegisterRequest{BotName: "tunnelled", OwnerEmail: "t@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		bot := client.New(srv.URL, reg.APIKey)
		health := func() (string, int) {
			st, err := bot.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return st.WebhookStatus, st.WebhookFailCount
		}
		if s, _ := health(); s != "none" {
			t.Fatalf("before the tunnel connects: %s, want none", s)
		}

		tunnelCtx, disconnect := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() {
			done <- run(tunnelCtx, []string{"tunnel", "--server", srv.URL, "--token", *reg.TunnelToken, "--to", local.URL,
				"--log-level", "error"}, io.Discard, io.Discard)
		}()
		eventually(t, "the tunnel to connect (health active)", func() bool { s, n := health(); return s == "active" && n == 0 })

		sess, err := client.NewOwner(srv.URL, "").Signup(ctx, "t-owner@example.com", "correct horse battery staple")
		if err != nil {
			t.Fatal(err)
		}
		owner := client.NewOwner(srv.URL, sess.Token)
		if _, err := owner.Claim(ctx, *reg.ClaimToken); err != nil { // wallet.activated
			t.Fatal(err)
		}
		eventually(t, "the delivery at the gateway", func() bool { return gw.count() == 1 })
		checkFirstDelivery(t, gw, reg)
		if s, n := health(); s != "active" || n != 0 {
			t.Errorf("health %s/%d after a relayed delivery, want active/0", s, n)
		}
		if msgs, _ := bot.Messages(ctx, 0); len(msgs) != 0 {
			t.Errorf("%d messages staged for a delivered event", len(msgs))
		}

		// The dispatcher records the success once it reads the client's
		// answer; wait for it, so the later failure is the last word.
		eventually(t, "the first delivery to be recorded", func() bool {
			n, _ := storetest.OutboxOf(srv.Store).UndeliveredCount(ctx)
			return n == 0
		})
		disconnect()
		if err := <-done; err != nil {
			t.Fatalf("tunnel command: %v", err)
		}
		if _, err := owner.Fund(ctx, reg.BotID, 500, ""); err != nil { // wallet.funded
			t.Fatal(err)
		}
		eventually(t, "the event to be staged", func() bool { m, _ := bot.Messages(ctx, 0); return len(m) == 1 })
		if s, n := health(); s != "degraded" || n != 1 {
			states, _ := storetest.OutboxOf(srv.Store).OutboxStates(ctx, reg.BotID)
			t.Errorf("health %s/%d after the tunnel went away, want degraded/1; outbox %+v", s, n, states)
		}
		if gw.count() != 1 {
			t.Errorf("the gateway got %d deliveries, want 1", gw.count())
		}
	})
}

// checkFirstDelivery: the gateway's first delivery is signed with the
// bot's webhook secret, carries the hooks token and goes to the webhook path.
func checkFirstDelivery(t *testing.T, gw *gateway, reg *client.Registration) {
	gw.mu.Lock()
	h, body, path := gw.received[0], gw.bodies[0], gw.paths[0]
	gw.mu.Unlock()
	mac := hmac.New(sha256.New, []byte(reg.WebhookSecret))
	mac.Write(body)
	if want := "sha256=" + hex.EncodeToString(mac.Sum(nil)); h.Get("X-Service-Signature") != want {
		t.Errorf("signature %q, want %q", h.Get("X-Service-Signature"), want)
	}
	if h.Get("Authorization") != "Bearer "+*reg.HooksToken || h.Get("X-Service-Event") != "wallet.activated" ||
		path != reg.TunnelSetup.WebhookPath || h.Get("webhook-signature") == "" {
		t.Errorf("delivery at %s with headers %v; want the hooks token, event header, webhook path %s", path, h, reg.TunnelSetup.WebhookPath)
	}
}

func TestTunnelCommandRefusesABadToken(t *testing.T) {
	srv := testserver.Start(t, "sqlite", testserver.Options{})
	err := run(context.Background(), []string{"tunnel", "--server", srv.URL, "--token", "bpt_" + "00112233445566778899aabbccddeeff0011223344556677",
		"--to", "http://127.0.0.1:1"}, io.Discard, io.Discard)
	if err == nil {
		t.Fatal("a tunnel with an unknown token kept running")
	}
}
