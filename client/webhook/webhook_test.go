package webhook

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// GitHub's published X-Hub-Signature-256 example.
func TestVerifySignatureGitHubVector(t *testing.T) {
	sig := "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
	if err := VerifySignature("It's a Secret to Everybody", []byte("Hello, World!"), sig); err != nil {
		t.Fatal(err)
	}
	if err := VerifySignature("It's a Secret to Everybody", []byte("Hello, World?"), sig); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("tampered body: %v", err)
	}
}

// The Standard Webhooks specification's example, verified with the secret
// as a stock library takes it (the key is the base64 part after "whsec_").
func TestVerifyStandardVector(t *testing.T) {
	now := time.Unix(1614265330, 0)
	err := VerifyStandard("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330",
		"v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", []byte(`{"test": 2432232314}`), now, DefaultTolerance)
	if err != nil {
		t.Fatal(err)
	}
}

// webhook-signature is keyed with the base64 decoding of the secret's part
// after "whsec_"; the signature keyed with the raw string (which botpay
// still lists second for older SDKs) is not accepted on its own.
func TestVerifierKeysTheStandardSignatureAsTheSpecificationDoes(t *testing.T) {
	v := Verifier{Secret: secret, Now: func() time.Time { return time.Unix(1795253400, 0) }}
	for name, tc := range map[string]struct {
		signature string
		want      error
	}{
		"the specification's key":     {standardSignature, nil},
		"both, as botpay sends them":  {standardSignature + " " + legacySignature, nil},
		"only the raw string's HMAC":  {legacySignature, ErrBadSignature},
		"another version's signature": {"v2," + standardSignature[3:], ErrBadSignature},
	} {
		t.Run(name, func(t *testing.T) {
			h := delivery()
			h.Set(HeaderWebhookSig, tc.signature)
			if err := v.Verify(h, []byte(body)); !errors.Is(err, tc.want) {
				t.Fatalf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
}

// A delivery as botpay signs it (vectors computed with Python's hmac; see
// internal/notifications/sign_test.go).
const (
	secret            = "whsec_00112233445566778899aabbccddeeff0011223344556677"
	body              = `{"event":"wallet.funded","timestamp":"2026-11-21T09:30:00.000Z","bot_id":"bot_0123456789abcdef","data":{"amount":12.5,"currency":"USD"}}`
	standardSignature = "v1,TP28pZnWK1g3P5AhDsbmiT8GFkDPRn52shDqUhxh4qc="
	legacySignature   = "v1,MVdNKWHYmEsr4Jgc7HGl0AnMDZTaac5MS0cZETSm7Xo="
)

func delivery() http.Header {
	h := http.Header{}
	h.Set(HeaderSignature, "sha256=31740ff7fab043883a2496ed43ad8b5bfe68ac3c6fff91a0b4524be961bfaa08")
	h.Set(HeaderEvent, "wallet.funded")
	h.Set(HeaderDelivery, "evt_00000000000000aa")
	h["webhook-id"] = []string{"evt_00000000000000aa"} // as sent, lower-case
	h["webhook-timestamp"] = []string{"1795253400"}
	h["webhook-signature"] = []string{standardSignature + " " + legacySignature}
	// What a Go server hands the handler: canonical names.
	out := http.Header{}
	for k, v := range h {
		out[http.CanonicalHeaderKey(k)] = v
	}
	return out
}

func TestVerifierAcceptsABotpayDelivery(t *testing.T) {
	v := Verifier{Secret: secret, Now: func() time.Time { return time.Unix(1795253400+60, 0) }}
	ev, err := v.Parse(delivery(), []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if ev.ID != "evt_00000000000000aa" || ev.Event != "wallet.funded" || ev.BotID != "bot_0123456789abcdef" ||
		!ev.Timestamp.Equal(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)) || string(ev.Data) != `{"amount":12.5,"currency":"USD"}` {
		t.Errorf("event = %+v", ev)
	}
}

func TestVerifierRefuses(t *testing.T) {
	at := func(unix int64) func() time.Time { return func() time.Time { return time.Unix(unix, 0) } }
	cases := []struct {
		name string
		v    Verifier
		edit func(h http.Header)
		body string
		want error
	}{
		{"wrong secret", Verifier{Secret: secret + "x", Now: at(1795253400)}, nil, body, ErrBadSignature},
		{"tampered body", Verifier{Secret: secret, Now: at(1795253400)}, nil, body + " ", ErrBadSignature},
		{"no signature", Verifier{Secret: secret, Now: at(1795253400)}, func(h http.Header) { h.Del(HeaderSignature) }, body, ErrMissingSignature},
		{"too old", Verifier{Secret: secret, Now: at(1795253400 + 301)}, nil, body, ErrTimestamp},
		{"from the future", Verifier{Secret: secret, Now: at(1795253400 - 301)}, nil, body, ErrTimestamp},
		{"tight tolerance", Verifier{Secret: secret, Tolerance: time.Second, Now: at(1795253400 + 2)}, nil, body, ErrTimestamp},
		{"timestamp altered", Verifier{Secret: secret, Now: at(1795253401)}, func(h http.Header) { h.Set(HeaderWebhookTime, "1795253401") }, body, ErrBadSignature},
		{"webhook-* headers stripped from a 48-hour-old delivery", Verifier{Secret: secret, Now: at(1795253400 + 48*3600)},
			stripStandard, body, ErrTimestamp},
		{"webhook-signature alone stripped", Verifier{Secret: secret, Now: at(1795253400)}, func(h http.Header) {
			h.Del(HeaderWebhookSig)
		}, body, ErrMissingSignature},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := delivery()
			if tc.edit != nil {
				tc.edit(h)
			}
			if err := tc.v.Verify(h, []byte(tc.body)); !errors.Is(err, tc.want) {
				t.Fatalf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
	// Only with the explicit opt-out is the body signature alone accepted.
	h := delivery()
	stripStandard(h)
	if err := (Verifier{Secret: secret, AllowMissingTimestamp: true}).Verify(h, []byte(body)); err != nil {
		t.Fatalf("X-Service-Signature only, with AllowMissingTimestamp: %v", err)
	}
}

func stripStandard(h http.Header) {
	h.Del(HeaderWebhookID)
	h.Del(HeaderWebhookTime)
	h.Del(HeaderWebhookSig)
}
