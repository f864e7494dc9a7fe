package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// buildBinary compiles this command once per test run.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "botpay-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "botpay")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{out: string(out), err: err}
	}
	return bin, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// process is a running botpay binary.
type process struct {
	cmd *exec.Cmd
	url string
}

// startBinary runs `botpay serve` with env and waits for its address.
func startBinary(t *testing.T, bin string, env []string) *process {
	t.Helper()
	return startBinaryIn(t, bin, "", env)
}

// startBinaryIn is startBinary in the working folder dir ("" for the
// test's own), where a relative data folder lands.
func startBinaryIn(t *testing.T, bin, dir string, env []string) *process {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var line struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "botpay serving" {
				addr <- line.Addr
			}
		}
	}()
	select {
	case a := <-addr:
		return &process{cmd: cmd, url: "http://" + a}
	case <-time.After(2 * time.Minute): // a loaded machine migrates slowly
		t.Fatal("botpay serve did not start")
		return nil
	}
}

// A real SIGKILL of the botpay binary while events stream out, then a
// restart: every event written before or after the kill still reaches the
// webhook (the dead process's leases run out and the new one takes them).
func TestSIGKILLMidStreamThenRestartLosesNoEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the binary; skipped with -short")
	}
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		db := storetest.Open(t, dialect, nil)
		env := binaryEnv(t, db, dialect)
		hook := newSlowHook(t)
		ctx := context.Background()
		first := startBinary(t, bin, env)
		botID, ownerToken := claimedBotOf(t, first.url, hook.url+"/hook")
		owner := client.NewOwner(first.url, ownerToken)
		for hook.count() < 20 { // mid-stream: deliveries are flowing
			go owner.Fund(ctx, botID, 100, "")
			time.Sleep(2 * time.Millisecond)
		}
		if err := first.cmd.Process.Kill(); err != nil { // SIGKILL
			t.Fatal(err)
		}
		first.cmd.Wait()
		pending, err := storetest.OutboxOf(db.Store).UndeliveredCount(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("killed after %d deliveries with %d events not yet delivered (some leased by the dead process)", hook.count(), pending)

		second := startBinary(t, bin, env)
		owner = client.NewOwner(second.url, ownerToken)
		for range 20 {
			if _, err := owner.Fund(ctx, botID, 100, ""); err != nil {
				t.Fatal(err)
			}
		}
		waitEveryEventDelivered(t, db, hook, botID, 90*time.Second)
	})
}

// binaryEnv configures a botpay binary for the test database db.
func binaryEnv(t *testing.T, db *storetest.DB, dialect store.Dialect) []string {
	env := []string{"BOTPAY_ADDR=127.0.0.1:0", "BOTPAY_WEBHOOK_ALLOW_PRIVATE=true", "BOTPAY_RATE_REGISTER_PER_HOUR=100",
		"BOTPAY_SECRET_KEY=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", "DATABASE_URL="}
	if dialect == store.Postgres {
		return append(env, "DATABASE_URL="+db.Options.DatabaseURL, "BOTPAY_DATA_DIR="+t.TempDir())
	}
	return append(env, "BOTPAY_DATA_DIR="+db.Options.DataDir)
}

// slowHook is a webhook receiver slow enough that attempts are in flight
// when the binary is killed; it records the deliveries it received.
type slowHook struct {
	url      string
	mu       sync.Mutex
	received map[string]bool
}

func newSlowHook(t *testing.T) *slowHook {
	h := &slowHook{received: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(30 * time.Millisecond)
		h.mu.Lock()
		h.received[r.Header.Get("X-Service-Delivery")] = true
		h.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

func (h *slowHook) count() int { h.mu.Lock(); defer h.mu.Unlock(); return len(h.received) }

func (h *slowHook) got(id string) bool { h.mu.Lock(); defer h.mu.Unlock(); return h.received[id] }

// claimedBotOf registers a bot with callbackURL on the binary at url and
// has a new owner claim it.
func claimedBotOf(t *testing.T, url, callbackURL string) (botID, ownerToken string) {
	ctx := context.Background()
	reg, err := client.New(url, "").Register(ctx, client.RegisterRequest{BotName: "crash", OwnerEmail: "crash@example.com",
		CallbackURL: &callbackURL})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := client.NewOwner(url, "").Signup(ctx, "crash-owner@example.com", "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.NewOwner(url, sess.Token).Claim(ctx, *reg.ClaimToken); err != nil {
		t.Fatal(err)
	}
	return reg.BotID, sess.Token
}

// waitEveryEventDelivered returns once every event of the bot arrived and
// every outbox row is finished — including those the dead process had
// leased, which the new one takes over when their lease runs out.
func waitEveryEventDelivered(t *testing.T, db *storetest.DB, hook *slowHook, botID string, within time.Duration) {
	ctx := context.Background()
	deadline := time.Now().Add(within)
	for {
		evs, err := storetest.OutboxOf(db.Store).Events(ctx, botID)
		if err != nil {
			t.Fatal(err)
		}
		missing := 0
		for _, e := range evs {
			if !hook.got(e.ID) {
				missing++
			}
		}
		left, err := storetest.OutboxOf(db.Store).UndeliveredCount(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if missing == 0 && left == 0 {
			t.Logf("all %d events delivered and recorded", len(evs))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events never delivered, %d outbox rows unfinished after the restart", missing, len(evs), left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
