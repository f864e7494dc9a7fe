package client_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/wire"
)

// The owner's account calls and the bot's facilitator calls send the
// documented requests and decode the documented answers.
func TestAccountAndFacilitatorCallsSendExactRequestsAndDecodeAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	owner := func(srv string) *client.OwnerClient { return client.NewOwner(srv, "bpo_live_tok") }
	bot := func(srv string) *client.Client { return client.New(srv, "bp_live_key") }
	payment := client.FacilitatorRequest{X402Version: 2, PaymentPayload: json.RawMessage(`{"a":1}`), PaymentRequirements: json.RawMessage(`{"b":2}`)}
	tests := []struct {
		name               string
		answer             string
		do                 func(srv string) (any, error)
		method, path, body string
		want               any
	}{
		{"request a password reset", `{"status":"accepted","message":"sent"}`,
			func(s string) (any, error) { return owner(s).RequestPasswordReset(ctx, "a@example.com") },
			"POST", "/api/v1/owner/password-reset", `{"email":"a@example.com"}`,
			&client.PasswordResetRequested{Status: "accepted", Message: "sent"}},
		{"confirm a password reset", `{"owner_uid":"own_1","email":"a@example.com","password_reset":true}`,
			func(s string) (any, error) { return owner(s).ConfirmPasswordReset(ctx, "tok", "long enough pw") },
			"POST", "/api/v1/owner/password-reset/confirm", `{"token":"tok","password":"long enough pw"}`,
			&client.PasswordReset{OwnerUID: "own_1", Email: "a@example.com", PasswordReset: true}},
		{"resend the verification e-mail", `{"email":"a@example.com","email_verified":false}`,
			func(s string) (any, error) { return owner(s).ResendEmailVerification(ctx) },
			"POST", "/api/v1/owner/email-verification", "",
			&client.EmailVerification{Email: "a@example.com"}},
		{"list sessions", `{"sessions":[{"id":"s1","kind":"api_token","created_at":"2026-01-02T03:04:05Z","last_used_at":null,"expires_at":"2026-02-02T03:04:05Z","current":true}]}`,
			func(s string) (any, error) {
				list, err := owner(s).Sessions(ctx)
				if err != nil || len(list) != 1 {
					return list, err
				}
				return list[0].ID + " " + list[0].Kind + " " + list[0].ExpiresAt.Format("2006-01-02"), nil
			},
			"GET", "/api/v1/owner/sessions", "", "s1 api_token 2026-02-02"},
		{"revoke a session escapes its id", `{"id":"a/b","revoked":true}`,
			func(s string) (any, error) { return nil, owner(s).RevokeSession(ctx, "a/b") },
			"DELETE", "/api/v1/owner/sessions/a%2Fb", "", nil},
		{"facilitator supported", `{"kinds":[{"x402Version":2,"scheme":"exact","network":"eip155:8453"}],"extensions":[],"signers":{}}`,
			func(s string) (any, error) { return bot(s).FacilitatorSupported(ctx) },
			"GET", "/api/v1/x402/facilitator/supported", "",
			&client.FacilitatorSupport{Kinds: []client.FacilitatorKind{{X402Version: 2, Scheme: "exact", Network: "eip155:8453"}},
				Extensions: []string{}, Signers: map[string][]string{}}},
		{"facilitator verify", `{"isValid":false,"invalidReason":"invalid_payee"}`,
			func(s string) (any, error) { return bot(s).FacilitatorVerify(ctx, payment) },
			"POST", "/api/v1/x402/facilitator/verify", `{"x402Version":2,"paymentPayload":{"a":1},"paymentRequirements":{"b":2}}`,
			&client.FacilitatorVerdict{InvalidReason: wire.Ptr("invalid_payee")}},
		{"facilitator settle", `{"success":true,"transaction":"0xabc","network":"eip155:8453","amount":"10000"}`,
			func(s string) (any, error) { return bot(s).FacilitatorSettle(ctx, payment) },
			"POST", "/api/v1/x402/facilitator/settle", `{"x402Version":2,"paymentPayload":{"a":1},"paymentRequirements":{"b":2}}`,
			&client.FacilitatorSettlement{Success: true, Transaction: "0xabc", Network: "eip155:8453", Amount: wire.Ptr("10000")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, got := fakeService(t, 200, tt.answer, nil)
			out, err := tt.do(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			if got.method != tt.method || got.path != tt.path || got.body != tt.body {
				t.Errorf("sent %s %s %s\nwant %s %s %s", got.method, got.path, got.body, tt.method, tt.path, tt.body)
			}
			if tt.want != nil && !reflect.DeepEqual(out, tt.want) {
				t.Errorf("decoded %#v\nwant %#v", out, tt.want)
			}
		})
	}
}
