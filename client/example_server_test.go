package client_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
)

// exampleURL is the botpay service the examples talk to: BOTPAY_EXAMPLE_URL
// when set (the SDK suite points it at a server on each database engine),
// otherwise a `botpay serve` that TestMain builds and starts on SQLite.
var exampleURL string

func TestMain(m *testing.M) {
	exampleURL = os.Getenv("BOTPAY_EXAMPLE_URL")
	if exampleURL != "" {
		os.Exit(m.Run())
	}
	url, stop, err := startBotpay()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start botpay for the examples:", err)
		os.Exit(1)
	}
	exampleURL = url
	code := m.Run()
	stop()
	os.Exit(code)
}

// startBotpay builds the botpay binary of this module and runs `botpay
// serve` on a fresh data folder, with the per-address limits lifted since
// every example registers from 127.0.0.1.
func startBotpay() (url string, stop func(), err error) {
	dir, err := os.MkdirTemp("", "botpay-examples-")
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "botpay")
	build := exec.Command("go", "build", "-o", bin, "github.com/botpay/botpay/cmd/botpay")
	if out, err := build.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	addr, err := freeAddress()
	if err != nil {
		return "", nil, err
	}
	serve := exec.Command(bin, "serve")
	serve.Env = append(os.Environ(), "BOTPAY_ADDR="+addr, "BOTPAY_DATA_DIR="+filepath.Join(dir, "data"),
		"BOTPAY_RATE_REGISTER_PER_HOUR=10000", "BOTPAY_RATE_SIGNUP_PER_HOUR=10000", "BOTPAY_LOG_LEVEL=error")
	if err := serve.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		_ = serve.Process.Kill()
		_ = serve.Wait()
		_ = os.RemoveAll(dir)
	}
	url = "http://" + addr
	if err := waitHealthy(url); err != nil {
		stop()
		return "", nil, err
	}
	return url, stop, nil
}

func freeAddress() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func waitHealthy(url string) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := http.Get(url + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("botpay at %s did not become healthy in 60 s", url)
}

// exampleOwner signs a new owner up; the examples play the owner's part
// with it, as a person would in the dashboard.
func exampleOwner(ctx context.Context) *client.OwnerClient {
	email := exampleEmail("owner")
	sess, err := client.NewOwner(exampleURL, "").Signup(ctx, email, "correct horse battery staple")
	if err != nil {
		panic(fmt.Sprintf("owner signup: %v", err))
	}
	return client.NewOwner(exampleURL, sess.Token)
}

// exampleBot registers a bot for owner and has the owner claim it.
func exampleBot(ctx context.Context, owner *client.OwnerClient) (bot *client.Client, botID string) {
	reg, err := client.New(exampleURL, "").Register(ctx, client.RegisterRequest{
		BotName: "shopper", OwnerEmail: exampleEmail("owner")})
	if err != nil {
		panic(fmt.Sprintf("register: %v", err))
	}
	if _, err := owner.Claim(ctx, *reg.ClaimToken); err != nil {
		panic(fmt.Sprintf("claim: %v", err))
	}
	return client.New(exampleURL, reg.APIKey), reg.BotID
}

// exampleEmail is an address no other run of the examples uses, so they
// can run again on the same service.
func exampleEmail(name string) string {
	return fmt.Sprintf("%s-%d@example.com", name, time.Now().UnixNano())
}
