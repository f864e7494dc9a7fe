package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store/storetest"
)

// TestLiveServeRefusesToStartNamingWhatIsMissing runs the real binary, as
// an operator would, and checks the exit status and the message.
func TestLiveServeRefusesToStartNamingWhatIsMissing(t *testing.T) {
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		env  []string
		want []string
	}{
		{"nothing set", []string{"BOTPAY_MODE=live"},
			[]string{"BOTPAY_SECRET_KEY", "BOTPAY_X402_RPC_URL", "BOTPAY_X402_RELAYER_KEY"}},
		{"chain but no secret key", []string{"BOTPAY_MODE=live", "BOTPAY_X402_RPC_URL=http://127.0.0.1:1",
			"BOTPAY_X402_RELAYER_KEY=4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"},
			[]string{"BOTPAY_SECRET_KEY"}},
		{"malformed relayer key", []string{"BOTPAY_MODE=live", "BOTPAY_X402_RPC_URL=http://127.0.0.1:1",
			"BOTPAY_SECRET_KEY=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", "BOTPAY_X402_RELAYER_KEY=0xabc"},
			[]string{"BOTPAY_X402_RELAYER_KEY must be"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir())
			cmd.Env = append(cleanEnv(), tc.env...)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() == 0 {
				t.Fatalf("serve did not exit non-zero: %v\n%s", err, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output does not name %s:\n%s", w, out)
				}
			}
			if strings.Contains(string(out), "botpay serving") {
				t.Errorf("served anyway:\n%s", out)
			}
		})
	}
}

// cleanEnv is the test's environment without botpay settings, so a
// developer's own BOTPAY_* cannot decide the outcome.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BOTPAY_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			env = append(env, kv)
		}
	}
	return env
}

func TestServeLogsTheSandboxModeAtStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	logs := &storetest.LogBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, io.Discard, logs)
	}()
	waitForAddr(t, logs, done)
	cancel()
	<-done
	if !strings.Contains(logs.String(), `"mode":"sandbox"`) || !strings.Contains(logs.String(), "no real money moves") {
		t.Fatalf("start log does not say sandbox:\n%s", logs.String())
	}
}
