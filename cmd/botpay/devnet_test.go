package main

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/devnet"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// The commands of docs/live.md's first section, as a newcomer runs them
// from the repository's root: `botpay devnet`, `botpay serve` with the
// settings it printed, `botpay devnet mint` for the buyer's wallet and
// `botpay bot pay`: a live x402 payment settles on the local chain.
func TestDevnetThenServeSettlesALivePaymentOnTheLocalChain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs a chain; skipped with -short")
	}
	t.Parallel() // its own folder and port; mostly waits on the chain
	chaintest.Require(t)
	bin, err := buildBinary()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	dir := t.TempDir()
	port := freeTCPPort(t)
	env, _ := startDevnet(t, bin, "--dir", dir, "--port", port)
	if env["BOTPAY_MODE"] != "live" || env["BOTPAY_X402_RPC_URL"] != "http://127.0.0.1:"+port {
		t.Fatalf("devnet printed %v", env)
	}
	serveEnv := []string{"BOTPAY_ADDR=127.0.0.1:0", "BOTPAY_RATE_REGISTER_PER_HOUR=100", "DATABASE_URL="}
	for k, v := range env {
		serveEnv = append(serveEnv, k+"="+v)
	}
	server := startBinary(t, bin, serveEnv)
	seller, pagePath := liveSeller(t, server.url)
	buyerKey, buyerWallet := liveBuyer(t, server.url)

	mint := exec.Command(bin, "devnet", "mint", buyerWallet, "2.5", "--dir", dir)
	if out, err := mint.CombinedOutput(); err != nil || !strings.Contains(string(out), "balance 2.500000 USDC") {
		t.Fatalf("devnet mint: %v\n%s", err, out)
	}
	pay := exec.Command(bin, "bot", "pay", server.url+pagePath, "--max", "2")
	pay.Env = append(os.Environ(), "BOTPAY_URL="+server.url, "BOTPAY_API_KEY="+buyerKey, "BOTPAY_X402_NETWORK="+env["BOTPAY_X402_NETWORK"])
	out, err := pay.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "HTTP 200") || !strings.Contains(string(out), "transaction:") {
		t.Fatalf("bot pay: %v\n%s", err, out)
	}
	token, _ := x402.ParseAddress(env["BOTPAY_X402_TOKEN"])
	got, err := devnet.Balance(context.Background(), evm.NewClient(env["BOTPAY_X402_RPC_URL"]), token, seller.address)
	if err != nil || got != 1_500_000 {
		t.Fatalf("seller's on-chain balance %d (%v), want 1500000\n%s", got, err, out)
	}
}

// A second `botpay devnet` on the same folder resumes the chain the first
// left at Ctrl-C: the same token, keys and balances, so the service's
// stored relayer nonce stays true.
func TestDevnetRestartResumesTheSameChain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs a chain; skipped with -short")
	}
	t.Parallel() // its own folder and port; mostly waits on the chain
	chaintest.Require(t)
	bin, err := buildBinary()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	dir, port := t.TempDir(), freeTCPPort(t)
	first, stop := startDevnet(t, bin, "--dir", dir, "--port", port)
	wallet := "0x1111111111111111111111111111111111111111"
	if out, err := exec.Command(bin, "devnet", "mint", wallet, "1.25", "--dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("devnet mint: %v\n%s", err, out)
	}
	stop()
	second, _ := startDevnet(t, bin, "--dir", dir, "--port", port)
	for _, k := range []string{"BOTPAY_X402_TOKEN", "BOTPAY_X402_RELAYER_KEY", "BOTPAY_SECRET_KEY", "BOTPAY_DATA_DIR"} {
		if first[k] == "" || first[k] != second[k] {
			t.Errorf("%s = %q after the restart, was %q", k, second[k], first[k])
		}
	}
	token, _ := x402.ParseAddress(second["BOTPAY_X402_TOKEN"])
	holder, _ := x402.ParseAddress(wallet)
	if got, err := devnet.Balance(context.Background(), evm.NewClient(second["BOTPAY_X402_RPC_URL"]), token, holder); err != nil || got != 1_250_000 {
		t.Fatalf("balance after the restart %d (%v), want 1250000", got, err)
	}
}

// startDevnet runs `botpay devnet` from the repository's root and returns
// the settings it printed and a stop (SIGINT, as Ctrl-C) that also runs
// with the test's cleanup.
func startDevnet(t *testing.T, bin string, args ...string) (map[string]string, func()) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"devnet"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := sync.OnceFunc(func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
	})
	t.Cleanup(stop)
	env := map[string]string{}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "="); ok && strings.HasPrefix(sc.Text(), "export ") {
				env[k] = v
			}
			if strings.HasPrefix(sc.Text(), "# Give test USDC") {
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
		return env, stop
	case <-time.After(3 * time.Minute):
		t.Fatal("botpay devnet printed no settings")
		return nil, nil
	}
}

// liveBuyer registers a bot, has an owner claim it and give it a
// processor wallet; it returns the bot's key and the wallet's address.
func liveBuyer(t *testing.T, base string) (key, wallet string) {
	t.Helper()
	ctx := context.Background()
	reg, err := client.New(base, "").Register(ctx, client.RegisterRequest{BotName: "buyer", OwnerEmail: "b@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := client.NewOwner(base, "").Signup(ctx, "buyer-owner@example.com", "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	owner := client.NewOwner(base, sess.Token)
	if _, err := owner.Claim(ctx, *reg.ClaimToken); err != nil {
		t.Fatal(err)
	}
	wallet, err = owner.CreateProcessorWallet(ctx, reg.BotID)
	if err != nil {
		t.Fatal(err)
	}
	return reg.APIKey, wallet
}

func freeTCPPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}
