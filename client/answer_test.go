package client_test

import (
	"errors"
	"testing"

	"github.com/botpay/botpay/client"
)

// A caller relaying the service's answers (a tool server) reads each
// answer as it came, refusals included, and relays a body it was handed
// byte for byte.
func TestWithAnswerKeepsTheAnswerAsItCame(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		body     string
		call     func(*client.Client, ...client.CallOption) error
		wantPath string
		wantErr  bool
	}{
		{name: "a 2xx answer with its headers", status: 200, body: `{"wallet_status":"active", "balance_usd":1.5}`,
			call: func(c *client.Client, o ...client.CallOption) error {
				_, err := c.WalletCheck(t.Context(), o...)
				return err
			}, wantPath: "/api/v1/bot/wallet/check"},
		{name: "a refusal beside its *Error", status: 403, body: `{"error":"wallet_frozen","message":"frozen","extra":1}`,
			call: func(c *client.Client, o ...client.CallOption) error {
				_, err := c.Status(t.Context(), o...)
				return err
			}, wantPath: "/api/v1/bot/status", wantErr: true},
		{name: "a skill file", status: 200, body: "# Acme\n",
			call: func(c *client.Client, o ...client.CallOption) error {
				_, err := c.SkillFile(t.Context(), "acme", o...)
				return err
			}, wantPath: "/api/v1/bot/skills/acme"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := fakeService(t, tt.status, tt.body, map[string]string{"X-Extra": "yes"})
			var ans client.Answer
			err := tt.call(client.New(srv.URL, "key"), client.WithAnswer(&ans))
			var apiErr *client.Error
			if tt.wantErr != errors.As(err, &apiErr) || (!tt.wantErr && err != nil) {
				t.Fatalf("err = %v", err)
			}
			if ans.StatusCode != tt.status || string(ans.Body) != tt.body || ans.Header.Get("X-Extra") != "yes" ||
				ans.Method != "GET" || ans.Path != tt.wantPath || ans.OK() != (tt.status == 200) {
				t.Errorf("answer = %+v, body %s", ans, ans.Body)
			}
		})
	}
}

func TestWithAnswerStaysZeroWithoutAnAnswer(t *testing.T) {
	t.Parallel()
	srv, _ := fakeService(t, 200, `{}`, nil)
	srv.Close()
	var ans client.Answer
	if _, err := client.New(srv.URL, "key").Status(t.Context(), client.WithAnswer(&ans)); err == nil || ans.StatusCode != 0 {
		t.Fatalf("err = %v, answer = %+v", err, ans)
	}
}

func TestWithBodySendsTheRelayedBytesInsteadOfTheRequest(t *testing.T) {
	t.Parallel()
	srv, got := fakeService(t, 200, `{"approved":true}`, nil)
	relayed := `{"amount_cents":1250,"merchant_name":"Acme","unknown_later":1.10}`
	_, err := client.New(srv.URL, "key").Checkout(t.Context(), client.CheckoutRequest{AmountCents: 1250, MerchantName: "Acme"},
		client.WithBody([]byte(relayed)), client.WithIdempotencyKey("k-1"))
	if err != nil {
		t.Fatal(err)
	}
	if got.body != relayed || got.header.Get("Content-Type") != "application/json" || got.header.Get("Idempotency-Key") != "k-1" ||
		got.method != "POST" || got.path != "/api/v1/bot/merchant/checkout" {
		t.Errorf("sent %s %s %q with %v", got.method, got.path, got.body, got.header)
	}
}
