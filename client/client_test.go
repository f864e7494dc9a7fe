package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
)

// seen is what a fake server received.
type seen struct {
	method, path, rawQuery, body string
	header                       http.Header
}

// fakeService answers every request with status and body and records it.
func fakeService(t *testing.T, status int, body string, header map[string]string) (*httptest.Server, *seen) {
	t.Helper()
	got := &seen{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		*got = seen{method: r.Method, path: r.URL.EscapedPath(), rawQuery: r.URL.RawQuery, body: string(data), header: r.Header.Clone()}
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func TestErrorDecodesTheServiceErrorShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
		header map[string]string
		want   client.Error
	}{
		{
			name:   "validation error with details",
			status: 400,
			body:   `{"error":"validation_error","message":"bad fields","details":{"amount_usd":"must be greater than 0","n":3}}`,
			header: map[string]string{"X-Request-Id": "req_1"},
			want: client.Error{StatusCode: 400, Code: "validation_error", Message: "bad fields",
				Details: map[string]string{"amount_usd": "must be greater than 0", "n": "3"}, RequestID: "req_1"},
		},
		{
			name:   "rate limit carries retry_after_seconds",
			status: 429,
			body:   `{"error":"rate_limited","message":"slow down","retry_after_seconds":3600}`,
			want:   client.Error{StatusCode: 429, Code: "rate_limited", Message: "slow down", RetryAfterSeconds: 3600},
		},
		{
			name:   "Retry-After header when the body has none",
			status: 429,
			body:   `{"error":"rate_limited"}`,
			header: map[string]string{"Retry-After": "17"},
			want:   client.Error{StatusCode: 429, Code: "rate_limited", RetryAfterSeconds: 17},
		},
		{
			name:   "internal error request id in the body wins",
			status: 500,
			body:   `{"error":"internal_error","message":"oops","request_id":"req_body"}`,
			header: map[string]string{"X-Request-Id": "req_header"},
			want:   client.Error{StatusCode: 500, Code: "internal_error", Message: "oops", RequestID: "req_body"},
		},
		{
			name:   "guardrail_blocked carries its reason",
			status: 403,
			body:   `{"error":"guardrail_blocked","reason":"recipient is blocked","message":"no"}`,
			want:   client.Error{StatusCode: 403, Code: "guardrail_blocked", Message: "no", Reason: "recipient is blocked"},
		},
		{
			name:   "a proxy's HTML page keeps status and text",
			status: 502,
			body:   "<html>Bad Gateway</html>",
			want:   client.Error{StatusCode: 502, Message: "<html>Bad Gateway</html>"},
		},
		{
			name:   "empty body falls back to the status text",
			status: 503,
			want:   client.Error{StatusCode: 503, Message: "Service Unavailable"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := fakeService(t, tt.status, tt.body, tt.header)
			_, err := client.New(srv.URL, "k").Status(context.Background())
			var e *client.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *client.Error", err, err)
			}
			if fmt.Sprint(*e) != fmt.Sprint(tt.want) {
				t.Errorf("got  %+v\nwant %+v", *e, tt.want)
			}
			if tt.want.Code != "" && !client.IsCode(err, tt.want.Code) {
				t.Errorf("IsCode(err, %q) = false", tt.want.Code)
			}
			if client.IsCode(err, "something_else") {
				t.Error("IsCode matched an unrelated code")
			}
			if !strings.Contains(err.Error(), fmt.Sprint(tt.status)) {
				t.Errorf("Error() = %q, want the status in it", err.Error())
			}
		})
	}
}

func TestSignDecodesTheSignatureAndTheHeldAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, answer string
		held         bool
		approvalID   int64
		header       string
	}{
		{"signed at once", `{"x_payment_header":"eyJ4","signature":"0x1","from":"0xa","nonce":"0x2","valid_before":1,"amount_usdc":250000}`,
			false, 0, "eyJ4"},
		{"held for the owner", `{"status":"awaiting_approval","approval_id":9007199254740993,"expires_at":"2026-12-01T00:00:00.000Z","message":"m"}`,
			true, 9007199254740993, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := fakeService(t, 200, tt.answer, nil)
			got, err := client.New(srv.URL, "k").Sign(context.Background(), client.SignRequest{ResourceURL: "https://r.example", AmountUSDC: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got.AwaitingApproval() != tt.held || got.ApprovalID != tt.approvalID || got.XPaymentHeader != tt.header {
				t.Errorf("got %+v", got)
			}
		})
	}
}

func TestSigningApprovalIDReadsTheIntegerIDExactly(t *testing.T) {
	t.Parallel()
	srv, _ := fakeService(t, 200, `{"approvals":[{"kind":"signing","id":9007199254740993,"bot_id":"b","amount_usd":0.5,`+
		`"merchant_name":"m","item_name":"i","status":"pending","expires_at":null,"created_at":"2026-12-01T00:00:00.000Z"},`+
		`{"kind":"purchase","id":"chk_1","bot_id":"b","amount_usd":1,"merchant_name":"m","item_name":"i","status":"pending",`+
		`"expires_at":null,"created_at":"2026-12-01T00:00:00.000Z"}]}`, nil)
	list, err := client.NewOwner(srv.URL, "t").Approvals(context.Background())
	if err != nil || len(list) != 2 {
		t.Fatalf("%v %v", list, err)
	}
	if id, ok := client.SigningApprovalID(list[0]); !ok || id != 9007199254740993 {
		t.Errorf("signing id = %d %v", id, ok)
	}
	if _, ok := client.SigningApprovalID(list[1]); ok {
		t.Error("a purchase's confirmation id read as a signing id")
	}
}

func TestIsCodeSeesThroughWrapping(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("paying: %w", &client.Error{StatusCode: 403, Code: "wallet_frozen"})
	if !client.IsCode(err, "wallet_frozen") {
		t.Fatal("IsCode did not unwrap")
	}
	if client.IsCode(errors.New("wallet_frozen"), "wallet_frozen") {
		t.Fatal("IsCode matched a plain error")
	}
	if client.IsCode(nil, "") {
		t.Fatal("IsCode matched nil")
	}
}

func TestRegisterSendsNoAuthorizationAndTheIdempotencyKey(t *testing.T) {
	t.Parallel()
	srv, got := fakeService(t, 201, `{"bot_id":"bot_1","api_key":"k","claim_token":null,"paired":true}`, nil)
	c := client.New(srv.URL+"/", "bp_live_ignored", client.WithUserAgent("shopper/1.2"))
	reg, err := c.Register(context.Background(), client.RegisterRequest{BotName: "b", OwnerEmail: "o@example.com"},
		client.WithIdempotencyKey("reg-1"), client.WithRequestID("trace-9"))
	if err != nil {
		t.Fatal(err)
	}
	if reg.BotID != "bot_1" || reg.ClaimToken != nil || !reg.Paired {
		t.Errorf("registration = %+v", reg)
	}
	if got.method != "POST" || got.path != "/api/v1/bots/register" {
		t.Errorf("request = %s %s", got.method, got.path)
	}
	if a := got.header.Get("Authorization"); a != "" {
		t.Errorf("Authorization = %q, want none on registration", a)
	}
	for name, want := range map[string]string{"Idempotency-Key": "reg-1", "X-Request-Id": "trace-9",
		"User-Agent": "shopper/1.2", "Content-Type": "application/json", "Accept": "application/json"} {
		if v := got.header.Get(name); v != want {
			t.Errorf("%s = %q, want %q", name, v, want)
		}
	}
	// Optional fields stay out of the body rather than being sent empty.
	if want := `{"bot_name":"b","owner_email":"o@example.com"}`; got.body != want {
		t.Errorf("body = %s, want %s", got.body, want)
	}
}

func TestBotCallsSendTheAPIKeyAndExactRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name               string
		do                 func(c *client.Client) error
		method, path, body string
		query              string
	}{
		{"status", func(c *client.Client) error { _, err := c.Status(ctx); return err },
			"GET", "/api/v1/bot/status", "", ""},
		{"wallet check", func(c *client.Client) error { _, err := c.WalletCheck(ctx); return err },
			"GET", "/api/v1/bot/wallet/check", "", ""},
		{"transactions with limit", func(c *client.Client) error { _, err := c.Transactions(ctx, 7); return err },
			"GET", "/api/v1/bot/wallet/transactions", "", "limit=7"},
		{"transactions with the default limit", func(c *client.Client) error { _, err := c.Transactions(ctx, 0); return err },
			"GET", "/api/v1/bot/wallet/transactions", "", ""},
		{"top-up request", func(c *client.Client) error { _, err := c.TopupRequest(ctx, 2001, "ads"); return err },
			"POST", "/api/v1/bot/wallet/topup-request", `{"amount_usd":20.01,"reason":"ads"}`, ""},
		{"spending", func(c *client.Client) error { _, err := c.Spending(ctx); return err },
			"GET", "/api/v1/bot/wallet/spending", "", ""},
		{"profile", func(c *client.Client) error { _, err := c.UpdateProfile(ctx, "https://bot.example/hook"); return err },
			"PATCH", "/api/v1/bot/profile", `{"callback_url":"https://bot.example/hook"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, got := fakeService(t, 200, `{}`, nil)
			if err := tt.do(client.New(srv.URL, "bp_live_key")); err != nil {
				t.Fatal(err)
			}
			if got.method != tt.method || got.path != tt.path || got.rawQuery != tt.query || got.body != tt.body {
				t.Errorf("sent %s %s?%s %s\nwant %s %s?%s %s", got.method, got.path, got.rawQuery, got.body,
					tt.method, tt.path, tt.query, tt.body)
			}
			if a := got.header.Get("Authorization"); a != "Bearer bp_live_key" {
				t.Errorf("Authorization = %q", a)
			}
			if ua := got.header.Get("User-Agent"); ua != client.DefaultUserAgent {
				t.Errorf("User-Agent = %q", ua)
			}
		})
	}
}

func TestOwnerCallsEscapeBotIDsAndSendWholeShapes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ten := client.USD(1000)
	tests := []struct {
		name               string
		do                 func(o *client.OwnerClient) error
		method, path, body string
	}{
		{"fund", func(o *client.OwnerClient) error { _, err := o.Fund(ctx, "bot_1", 2550, ""); return err },
			"POST", "/api/v1/owner/bots/bot_1/fund", `{"amount_usd":25.50}`},
		{"fund on a rail", func(o *client.OwnerClient) error {
			_, err := o.Fund(ctx, "bot_1", 100, client.RailProcessorWallet)
			return err
		}, "POST", "/api/v1/owner/bots/bot_1/fund", `{"amount_usd":1.00,"rail":"processor_wallet"}`},
		{"odd bot id cannot escape its route", func(o *client.OwnerClient) error { _, err := o.Freeze(ctx, "../x?y", true); return err },
			"POST", "/api/v1/owner/bots/..%2Fx%3Fy/freeze", `{"frozen":true}`},
		{"guardrails replace the whole shape", func(o *client.OwnerClient) error {
			_, err := o.SetGuardrails(ctx, "bot_1", client.Guardrails{ApprovalMode: client.ApprovalAskForEverything,
				Limits: client.GuardrailLimits{PerTransactionUSD: 500, DailyUSD: 1000, MonthlyUSD: 5000}})
			return err
		}, "PUT", "/api/v1/owner/bots/bot_1/guardrails", `{"approval_mode":"ask_for_everything","limits":{"per_transaction_usd":5.00,` +
			`"daily_usd":10.00,"monthly_usd":50.00,"ask_approval_above_usd":null},"recurring_allowed":false,"notes":null,` +
			`"approved_categories":[],"blocked_categories":[]}`},
		{"master guardrails send null for no limit", func(o *client.OwnerClient) error {
			_, err := o.SetMasterGuardrails(ctx, client.MasterGuardrails{DailyBudgetUSD: &ten})
			return err
		}, "PUT", "/api/v1/owner/master-guardrails", `{"per_transaction_usd":null,"daily_budget_usd":10.00,"monthly_budget_usd":null}`},
		{"logout", func(o *client.OwnerClient) error { return o.Logout(ctx) }, "POST", "/api/v1/owner/logout", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, got := fakeService(t, 200, `{}`, nil)
			if err := tt.do(client.NewOwner(srv.URL, "bpo_live_tok")); err != nil {
				t.Fatal(err)
			}
			if got.method != tt.method || got.path != tt.path || got.body != tt.body {
				t.Errorf("sent %s %s %s\nwant %s %s %s", got.method, got.path, got.body, tt.method, tt.path, tt.body)
			}
			if a := got.header.Get("Authorization"); a != "Bearer bpo_live_tok" {
				t.Errorf("Authorization = %q", a)
			}
		})
	}
}

func TestAnswersThatAreNotJSONAreErrorsNotZeroValues(t *testing.T) {
	t.Parallel()
	srv, _ := fakeService(t, 200, `<html>captive portal</html>`, nil)
	_, err := client.New(srv.URL, "k").WalletCheck(context.Background())
	var e *client.Error
	if err == nil || errors.As(err, &e) {
		t.Fatalf("err = %v; want a decoding error that is not a service *Error", err)
	}
}

func TestWithHTTPClientIsUsed(t *testing.T) {
	t.Parallel()
	srv, _ := fakeService(t, 200, `{"transactions":[]}`, nil)
	var used bool
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		used = true
		return http.DefaultTransport.RoundTrip(r)
	})}
	txs, err := client.New(srv.URL, "k", client.WithHTTPClient(hc)).Transactions(context.Background(), 0)
	if err != nil || !used || txs == nil || len(txs) != 0 {
		t.Fatalf("txs = %v, err = %v, custom client used = %v", txs, err, used)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
