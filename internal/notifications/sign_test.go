package notifications_test

import (
	"encoding/base64"
	"net/http"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/notifications"
)

// GitHub's published example for X-Hub-Signature-256
// (docs.github.com, "Validating webhook deliveries").
func TestSignatureMatchesGitHubVector(t *testing.T) {
	got := notifications.Signature([]byte("It's a Secret to Everybody"), []byte("Hello, World!"))
	want := "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
	if got != want {
		t.Fatalf("Signature = %s, want %s", got, want)
	}
}

// The Standard Webhooks specification's example, keyed as its libraries key
// it: with the base64-decoded part after "whsec_".
func TestStandardSignatureMatchesStandardWebhooksVector(t *testing.T) {
	key := notifications.StandardKey([]byte("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
	if want, _ := base64.StdEncoding.DecodeString("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"); string(key) != string(want) {
		t.Fatalf("StandardKey = %x, want the base64 decoding %x", key, want)
	}
	got := notifications.StandardSignature(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
	if got != want {
		t.Fatalf("StandardSignature = %s, want %s", got, want)
	}
}

// Our own vector: a delivery exactly as the dispatcher builds it.
// X-Service-Signature is keyed with the webhook_secret string; the first
// webhook-signature with the base64 decoding of its part after "whsec_"
// (36 bytes), the second with the string (for SDKs released before the
// correction). Computed independently with Python's hmac and base64.
func TestDeliveryHeadersAndBody(t *testing.T) {
	const secret = "whsec_00112233445566778899aabbccddeeff0011223344556677"
	at := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	body, err := notifications.Body("wallet.funded", "bot_0123456789abcdef", at, []byte(`{"amount":12.5,"currency":"USD"}`))
	if err != nil {
		t.Fatal(err)
	}
	wantBody := `{"event":"wallet.funded","timestamp":"2026-11-21T09:30:00.000Z","bot_id":"bot_0123456789abcdef","data":{"amount":12.5,"currency":"USD"}}`
	if string(body) != wantBody {
		t.Fatalf("body = %s\nwant   %s", body, wantBody)
	}
	h := http.Header{}
	notifications.SignedHeaders(h, []byte(secret), "evt_00000000000000aa", "wallet.funded", body, at)
	want := map[string]string{
		"X-Service-Signature": ourSignature,
		"X-Service-Event":     "wallet.funded",
		"X-Service-Delivery":  "evt_00000000000000aa",
		"webhook-id":          "evt_00000000000000aa",
		"webhook-timestamp":   "1795253400",
		"webhook-signature":   ourStandardSignature,
		"Content-Type":        "application/json",
	}
	for k, v := range want {
		got := h.Get(k)
		if k[0] >= 'a' { // Standard Webhooks names are sent lower-case, as written
			got = h[k][0]
		}
		if got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

const (
	ourSignature         = "sha256=31740ff7fab043883a2496ed43ad8b5bfe68ac3c6fff91a0b4524be961bfaa08"
	ourStandardSignature = "v1,TP28pZnWK1g3P5AhDsbmiT8GFkDPRn52shDqUhxh4qc= v1,MVdNKWHYmEsr4Jgc7HGl0AnMDZTaac5MS0cZETSm7Xo="
)
