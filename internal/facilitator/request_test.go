package facilitator

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/botpay/botpay/internal/x402"
)

func signedPayment(t testing.TB, to x402.Address, value uint64) x402.Payment {
	t.Helper()
	key, err := x402.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	a := x402.Authorization{From: key.Address(), To: to, Value: value, ValidBefore: 1 << 40, Nonce: x402.Nonce{1, 2, 3}}
	return x402.Payment{Authorization: a, Signature: key.Sign(x402.BaseUSDC.Digest(a))}
}

func bodyV2(t testing.TB, p x402.Payment, req x402.PaymentRequirements, accepted x402.PaymentRequirements) []byte {
	payload := x402.NewPaymentPayloadV2(p, accepted, &x402.ResourceInfo{URL: "https://api.example/weather"}, nil)
	b, err := json.Marshal(map[string]any{"x402Version": 2, "paymentPayload": payload, "paymentRequirements": req})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseRequestReadsBothVersionsAndNamesWhatIsWrong(t *testing.T) {
	t.Parallel()
	payTo, _ := x402.ParseAddress("0x1111111111111111111111111111111111111111")
	p := signedPayment(t, payTo, 20000)
	offer := x402.ExactUSDCOffer(x402.BaseUSDC, 20000, payTo, 300)
	other := x402.ExactUSDCOffer(x402.BaseUSDC, 30000, payTo, 300)
	v1req := x402.ExactUSDC(x402.BaseUSDC, "https://api.example/v1", "", 20000, payTo, 300)
	v1, _ := json.Marshal(map[string]any{"x402Version": 1, "paymentPayload": x402.Document(p, x402.BaseUSDC), "paymentRequirements": v1req})
	for _, c := range []struct {
		name     string
		body     []byte
		reason   string // "" for a request read whole
		resource string
		network  string
	}{
		{name: "v2 read whole", body: bodyV2(t, p, offer, offer), resource: "https://api.example/weather", network: "eip155:8453"},
		{name: "v1 read whole", body: v1, resource: "https://api.example/v1", network: "base"},
		{name: "accepted is not the requirements", body: bodyV2(t, p, other, offer), reason: ReasonAcceptedMismatch},
		{name: "unreadable payload", body: []byte(`{"x402Version":2,"paymentPayload":{"x402Version":2},"paymentRequirements":{}}`), reason: ReasonInvalidPayload},
		{name: "unknown version", body: []byte(`{"x402Version":3,"paymentPayload":{},"paymentRequirements":{}}`), reason: ReasonInvalidVersion},
		{name: "member named twice", body: []byte(`{"x402Version":2,"x402Version":1,"paymentPayload":{},"paymentRequirements":{}}`), reason: ReasonInvalidPayload},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := ParseRequest(c.body)
			var refusal *Refusal
			switch {
			case c.reason == "" && err != nil:
				t.Fatalf("ParseRequest = %v", err)
			case c.reason != "" && (!errors.As(err, &refusal) || refusal.Reason != c.reason):
				t.Fatalf("ParseRequest = %v, want the refusal %s", err, c.reason)
			case c.reason == "" && (req.ResourceURL != c.resource || req.Network != c.network || req.Amount != 20000 ||
				req.PayTo != payTo || req.Payment.Authorization != p.Authorization):
				t.Fatalf("request = %+v", req)
			}
		})
	}
}

func TestParseRequestRefusesBodiesThatAreNoFacilitatorCall(t *testing.T) {
	t.Parallel()
	for _, body := range []string{"", "[]", "{}", `{"x402Version":2}`, "null", `{"paymentPayload":{}}`} {
		if _, err := ParseRequest([]byte(body)); !errors.Is(err, ErrBody) {
			t.Errorf("%q: %v, want ErrBody", body, err)
		}
	}
}

func FuzzParseRequest(f *testing.F) {
	payTo, _ := x402.ParseAddress("0x1111111111111111111111111111111111111111")
	p := signedPayment(f, payTo, 20000)
	offer := x402.ExactUSDCOffer(x402.BaseUSDC, 20000, payTo, 300)
	f.Add(bodyV2(f, p, offer, offer))
	f.Add([]byte(`{"x402Version":1,"paymentPayload":{},"paymentRequirements":{}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := ParseRequest(body)
		if err == nil && (req.Version != 1 && req.Version != 2) {
			t.Fatalf("read a request of version %d", req.Version)
		}
	})
}
