package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
)

// raw is a plain HTTP caller for exact-body assertions of the x402 tests.
type raw struct {
	t   testing.TB
	srv *testserver.Server
	hc  *http.Client // nil: the server's own client
}

type answer struct {
	Status int
	Header http.Header
	Body   []byte
}

func (a answer) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.Body, &m); err != nil {
		t.Fatalf("body %s: %v", a.Body, err)
	}
	return m
}

func (r raw) do(method, path, token string, body any, headers ...string) answer {
	r.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, r.srv.URL+path, rd)
	if err != nil {
		r.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	hc := r.hc
	if hc == nil {
		hc = r.srv.HTTP.Client()
	}
	resp, err := hc.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return answer{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// must calls and fails the test unless the status is want.
func (r raw) must(want int, method, path, token string, body any, headers ...string) map[string]any {
	r.t.Helper()
	a := r.do(method, path, token, body, headers...)
	if a.Status != want {
		r.t.Fatalf("%s %s = %d %s, want %d", method, path, a.Status, a.Body, want)
	}
	return a.json(r.t)
}

// x402Bot is a claimed bot with its owner, optionally a processor wallet.
type x402Bot struct {
	ID, APIKey, OwnerToken, Address string
}

func (r raw) claimedBot(name string) x402Bot {
	r.t.Helper()
	hc := r.hc
	if hc == nil {
		hc = r.srv.HTTP.Client()
	}
	c := claimBot(r.t, context.Background(), client.New(r.srv.URL, "", client.WithHTTPClient(hc)),
		client.NewOwner(r.srv.URL, "", client.WithHTTPClient(hc)), name)
	return x402Bot{ID: c.reg.BotID, APIKey: c.reg.APIKey, OwnerToken: c.sess.Token}
}

// walletBot is a claimed bot with a processor wallet funded with usd and
// guardrails loose enough not to interfere unless a test sets its own.
func (r raw) walletBot(name string, usd float64) x402Bot {
	r.t.Helper()
	b := r.claimedBot(name)
	b.Address = r.must(201, "POST", "/api/v1/owner/bots/"+b.ID+"/processor-wallet", b.OwnerToken, nil)["address"].(string)
	if usd > 0 {
		r.must(200, "POST", "/api/v1/owner/bots/"+b.ID+"/fund", b.OwnerToken, map[string]any{"amount_usd": usd, "rail": "processor_wallet"})
	}
	r.guardrails(b, map[string]any{"approval_mode": "auto_approve_under_threshold",
		"limits": map[string]any{"per_transaction_usd": 10000, "daily_usd": 100000, "monthly_usd": 1000000, "ask_approval_above_usd": nil}})
	return b
}

func (r raw) guardrails(b x402Bot, g map[string]any) {
	r.t.Helper()
	r.must(200, "PUT", "/api/v1/owner/bots/"+b.ID+"/guardrails", b.OwnerToken, g)
}

func (r raw) sign(b x402Bot, body map[string]any) answer {
	r.t.Helper()
	return r.do("POST", "/api/v1/processor-wallet/bot/sign", b.APIKey, body)
}

// page creates a checkout page of b; extra fields override the defaults.
func (r raw) page(b x402Bot, extra map[string]any) map[string]any {
	r.t.Helper()
	body := map[string]any{"title": "Dataset", "amount_usd": 0.05, "page_type": "digital_product",
		"digital_product_url": "https://files.example/secret-dataset.csv"}
	for k, v := range extra {
		body[k] = v
	}
	return r.must(201, "POST", "/api/v1/bot/checkout-pages/create", b.APIKey, body)
}
