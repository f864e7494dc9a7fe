package interop

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/suite"
	"github.com/botpay/botpay/internal/testserver"
)

// webhooksDir is interop/webhooks with the stock Standard Webhooks library
// (pinned in its package-lock.json). It skips without node or the package,
// and fails instead when WEBHOOKS_INTEROP_REQUIRED=1 (.ci/run sets it).
func webhooksDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "interop", "webhooks")
	why := ""
	if _, err := exec.LookPath("node"); err != nil {
		why = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "standardwebhooks", "package.json")); err != nil {
		why = "npm package standardwebhooks is not installed in interop/webhooks/node_modules"
	}
	if why != "" {
		suite.WebhooksInterop.Need(t, why)
	}
	suite.WebhooksInterop.Need(t)
	return dir
}

type delivery struct {
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// receiver records every delivery it gets, headers as sent and the raw body.
type receiver struct {
	mu   sync.Mutex
	got  []delivery
	http *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		d := delivery{Headers: map[string]string{}, Body: string(body)}
		for k := range req.Header {
			d.Headers[strings.ToLower(k)] = req.Header.Get(k)
		}
		r.mu.Lock()
		r.got = append(r.got, d)
		r.mu.Unlock()
	}))
	t.Cleanup(r.http.Close)
	return r
}

func (r *receiver) wait(t *testing.T, n int) []delivery {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		r.mu.Lock()
		got := append([]delivery(nil), r.got...)
		r.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries received, want %d", len(got), n)
		}
	}
}

// TestStockStandardWebhooksLibraryVerifiesDeliveries: the npm package
// standardwebhooks, given the webhook_secret exactly as registration handed
// it out, verifies real deliveries of a running server (claim and funding
// events), and refuses them once the body or the secret is wrong.
func TestStockStandardWebhooksLibraryVerifiesDeliveries(t *testing.T) {
	dir := webhooksDir(t)
	for _, dialect := range storetest.Dialects {
		t.Run(string(dialect), func(t *testing.T) {
			srv := testserver.Start(t, dialect, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, Deliver: true})
			c := caller{t: t, url: srv.URL}
			rcv := newReceiver(t)
			reg := c.call("POST", "/api/v1/bots/register", "", map[string]any{"bot_name": "receiver",
				"owner_email": "receiver@example.com", "callback_url": rcv.http.URL + "/hooks"})
			owner := c.call("POST", "/api/v1/owner/signup", "", map[string]any{"email": "receiver-owner@example.com",
				"password": "correct horse battery staple"})["token"].(string)
			c.call("POST", "/api/v1/owner/bots/claim", owner, map[string]any{"claim_token": reg["claim_token"]})
			c.call("POST", "/api/v1/owner/bots/"+reg["bot_id"].(string)+"/fund", owner, map[string]any{"amount_usd": 25})
			got := rcv.wait(t, 2)
			secret := reg["webhook_secret"].(string)
			checkWithStockLibrary(t, dir, secret, got, true)
			tampered := make([]delivery, len(got))
			for i, d := range got {
				tampered[i] = delivery{Headers: d.Headers, Body: strings.Replace(d.Body, `"bot_id"`, `"bot_id" `, 1)}
			}
			checkWithStockLibrary(t, dir, secret, tampered, false)
			checkWithStockLibrary(t, dir, "whsec_"+strings.Repeat("ab", 24), got, false)
		})
	}
}

func checkWithStockLibrary(t *testing.T, dir, secret string, deliveries []delivery, want bool) {
	t.Helper()
	in, _ := json.Marshal(map[string]any{"secret": secret, "deliveries": deliveries})
	out := node(t, dir, in, "verify.mjs")
	var results []struct {
		Valid bool   `json:"valid"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(deliveries) {
		t.Fatalf("standardwebhooks answered %s", out)
	}
	for i, r := range results {
		if r.Valid != want {
			t.Errorf("standardwebhooks: delivery %d (%s) valid=%v (%s), want %v", i, deliveries[i].Headers["webhook-signature"],
				r.Valid, r.Error, want)
		}
	}
}
