package e2e

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/testserver"
)

// FuzzSignEndpointBody: whatever the body, the sign endpoint answers one
// of the statuses the API reference gives it, never a 500, and every 400 is "Invalid request".
func FuzzSignEndpointBody(f *testing.F) {
	r := raw{t: f, srv: testserver.Start(f, store.SQLite, x402Opts)}
	b := r.walletBot("fuzz", 1)
	for _, seed := range []string{``, `{}`, `null`, `[]`, `{"resource_url":"https://a.example/x","amount_usdc":5,"recipient_address":"` + vendor + `"}`,
		`{"resource_url":"https://a.example/x","amount_usdc":1e400,"recipient_address":"` + vendor + `","valid_before":-1}`,
		`{"resource_url":"ftp://x","amount_usdc":-5,"recipient_address":"0xZZ"}`, `{"resource_url":"https://[::1]:99999/","amount_usdc":5e-1}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r.t = t
		a := r.do("POST", "/api/v1/processor-wallet/bot/sign", b.APIKey, body)
		switch a.Status {
		case 200, 202, 403:
		case 400:
			if a.json(t)["error"] != "Invalid request" {
				t.Fatalf("400 %s", a.Body)
			}
		default:
			t.Fatalf("%d %s for %q", a.Status, a.Body, body)
		}
	})
}

// FuzzCheckoutX402Header: whatever X-PAYMENT carries, a checkout page's
// x402 endpoint answers 402 (or 200 for a real payment), never a 500.
func FuzzCheckoutX402Header(f *testing.F) {
	r := raw{t: f, srv: testserver.Start(f, store.SQLite, x402Opts)}
	seller := r.walletBot("fuzz-seller", 0)
	path := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
	for _, seed := range []string{"", "x", base64.StdEncoding.EncodeToString([]byte(`{"x402Version":1,"scheme":"exact","network":"base","payload":{}}`)),
		base64.StdEncoding.EncodeToString([]byte(`{"from":"0x0000000000000000000000000000000000000001","to":"0x0000000000000000000000000000000000000002","value":"1","validAfter":0,"validBefore":1,"nonce":"0x` +
			"00000000000000000000000000000000000000000000000000000000000000aa" + `","signature":"0x"}`))} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		if strings.ContainsFunc(header, func(c rune) bool { return c < 0x20 && c != '\t' || c == 0x7f }) {
			t.Skip("not sendable as an HTTP header value")
		}
		r.t = t
		a := r.do("GET", path, "", nil, "X-PAYMENT", header)
		if a.Status != 402 && a.Status != 200 {
			t.Fatalf("%d %s for %q", a.Status, a.Body, header)
		}
	})
}
