package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store/storetest"
)

func TestVersionPrintsTheVersion(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"version"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "botpay dev\n" {
		t.Fatalf("version printed %q", got)
	}
}

func TestUnknownCommandFails(t *testing.T) {
	var errOut bytes.Buffer
	if err := run(context.Background(), []string{"frobnicate"}, io.Discard, &errOut); err == nil || !strings.Contains(errOut.String(), "Usage") {
		t.Fatalf("err = %v, stderr = %q", err, errOut.String())
	}
}

func TestMigrateThenOwnerCreatePrintsAToken(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "--data-dir", dir}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "up to date") {
		t.Fatalf("migrate printed %q", out.String())
	}
	out.Reset()
	args := []string{"owner", "create", "--email", "ops@example.com", "--password", "a long enough password", "--data-dir", dir}
	if err := run(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "token: bpo_live_") || !strings.Contains(out.String(), "email: ops@example.com") {
		t.Fatalf("owner create printed %q", out.String())
	}
	if err := run(context.Background(), args, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "email_taken") {
		t.Fatalf("second owner create: %v", err)
	}
}

// TestServeAnswersAndShutsDownGracefully starts the real server on a free
// port, checks health and readiness, then cancels (as SIGTERM does).
func TestServeAnswersAndShutsDownGracefully(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	logs := &storetest.LogBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, io.Discard, logs)
	}()
	addr := waitForAddr(t, logs, done)
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 200, "/nope": 404} {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want || resp.Header.Get("X-Request-Id") == "" {
			t.Fatalf("GET %s = %d (request id %q), want %d", path, resp.StatusCode, resp.Header.Get("X-Request-Id"), want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v after shutdown", err)
	}
	if !strings.Contains(logs.String(), `"msg":"stopped"`) {
		t.Fatalf("no clean stop in logs:\n%s", logs.String())
	}
}

func waitForAddr(t *testing.T, logs *storetest.LogBuffer, done chan error) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("serve exited early: %v\n%s", err, logs.String())
		default:
		}
		sc := bufio.NewScanner(strings.NewReader(logs.String()))
		for sc.Scan() {
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "botpay serving" {
				return line.Addr
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("server did not start")
	return ""
}
