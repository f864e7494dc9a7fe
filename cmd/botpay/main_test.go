package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store/storetest"
)

func TestVersionDescribesTheBuild(t *testing.T) {
	t.Parallel()
	setting := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"a tagged build from a clean checkout",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"},
				Settings: setting("vcs.revision", "abc123", "vcs.time", "2026-11-27T11:00:00Z", "vcs.modified", "false")},
			true, "botpay v1.2.0\nrevision abc123 (2026-11-27T11:00:00Z)\ngo go1.26.8\n"},
		{"a build with uncommitted changes",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261127110000-abc123abc123+dirty"},
				Settings: setting("vcs.revision", "abc123", "vcs.modified", "true")},
			true, "botpay v0.0.0-20261127110000-abc123abc123+dirty\nrevision abc123 modified\ngo go1.26.8\n"},
		{"a build outside a checkout",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			true, "botpay (devel)\nrevision unknown (not built from a git checkout)\ngo go1.26.8\n"},
		{"a binary without build information", nil, false, "botpay (devel)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildDescription(tt.info, tt.ok); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// The real binary, built from this checkout with VCS stamping on (some
// environments turn it off in GOFLAGS), names the commit it was built from
// without any -ldflags.
func TestVersionOfTheBuiltBinaryNamesItsCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	t.Parallel()
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	if info, err := os.Stat(filepath.Join("..", "..", ".git")); err != nil || !info.IsDir() {
		t.Skip("a git worktree: the go command stamps the revision only where .git is a folder")
	}
	bin := filepath.Join(t.TempDir(), "botpay")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	if !strings.HasPrefix(lines[0], "botpay v") || len(lines) < 3 ||
		!strings.HasPrefix(lines[1], "revision "+strings.TrimSpace(string(head))) || lines[2] != "go "+runtime.Version() {
		t.Fatalf("botpay version printed %q; HEAD is %s", out, head)
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
