package x402

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func golden(t testing.TB) (Key, Authorization) {
	t.Helper()
	key, err := KeyFromHex("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	nonce, _ := ParseNonce("0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480")
	return key, Authorization{
		From: mustAddress("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"), To: mustAddress("0x209693Bc6afc0C5328bA36FaF03C514EF312287C"),
		Value: 1000000, ValidAfter: 0, ValidBefore: 1900000000, Nonce: nonce,
	}
}

func TestGoldenDigestAndSignature(t *testing.T) {
	key, auth := golden(t)
	if got := key.Address().Hex(); got != "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23" {
		t.Fatalf("address = %s", got)
	}
	digest := BaseUSDC.Digest(auth)
	if got := "0x" + hex.EncodeToString(digest[:]); got != "0x92cacab109b980ab7ab72f472a238197842b558de8c3fcba20fef70735e0f2f2" {
		t.Fatalf("digest = %s", got)
	}
	sig := key.Sign(digest)
	want := "0x5e62c5ff9ede285d6d764d0b9559cca6df0f9ecb3f65f316296d701a786a7cad03c56ad0d793e7d7650fd97ba52447113ceac1d49510f91c2085a094e172e7e91b"
	if sig.Hex() != want {
		t.Fatalf("signature = %s", sig.Hex())
	}
	if from, err := Recover(digest, sig); err != nil || from != auth.From {
		t.Fatalf("recover = %s, %v", from, err)
	}
}

func TestRecoverRejectsMalleableAndBadV(t *testing.T) {
	key, auth := golden(t)
	digest := BaseUSDC.Digest(auth)
	sig := key.Sign(digest)
	if _, err := Recover(digest, Malleate(sig)); !errors.Is(err, ErrHighS) {
		t.Fatalf("high-s: %v", err)
	}
	for _, v := range []byte{0, 1, 26, 29, 35, 255} {
		bad := sig
		bad[64] = v
		if _, err := Recover(digest, bad); !errors.Is(err, ErrBadV) {
			t.Fatalf("v=%d: %v", v, err)
		}
	}
	flipped := sig
	flipped[64] = 55 - sig[64]
	if from, err := Recover(digest, flipped); err == nil && from == auth.From {
		t.Fatal("the other v recovered the signer")
	}
	var zero Signature
	zero[64] = 27
	if _, err := Recover(digest, zero); !errors.Is(err, ErrSignature) {
		t.Fatalf("zero r,s: %v", err)
	}
}

func TestHeaderRoundTripCarriesBothShapes(t *testing.T) {
	key, auth := golden(t)
	p := Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth))}
	h := Encode(p, BaseUSDC)
	raw, _ := base64.StdEncoding.DecodeString(h)
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["x402Version"] != 1.0 || doc["scheme"] != "exact" || doc["network"] != "base" || doc["value"] != "1000000" ||
		doc["validBefore"] != 1900000000.0 || doc["chainId"] != 8453.0 || doc["token"] != BaseUSDC.Contract.Hex() {
		t.Fatalf("flat fields: %v", doc)
	}
	nested := doc["payload"].(map[string]any)["authorization"].(map[string]any)
	if nested["validBefore"] != "1900000000" || nested["from"] != auth.From.Hex() {
		t.Fatalf("nested: %v", nested)
	}
	got, err := Decode(h)
	if err != nil || got.Authorization != auth || got.Signature != p.Signature {
		t.Fatalf("decode: %+v %v", got, err)
	}
	// Each shape on its own decodes to the same payment.
	for _, drop := range [][]string{{"payload", "x402Version", "scheme", "network"}, {"from", "to", "value", "validAfter", "validBefore", "nonce", "signature", "chainId", "token"}} {
		m := map[string]any{}
		json.Unmarshal(raw, &m)
		for _, k := range drop {
			delete(m, k)
		}
		b, _ := json.Marshal(m)
		one, err := Decode(base64.StdEncoding.EncodeToString(b))
		if err != nil || one.Authorization != auth || one.Signature != p.Signature {
			t.Fatalf("without %v: %+v %v", drop, one, err)
		}
	}
}

func TestHeaderRejectsDisagreementAndJunk(t *testing.T) {
	key, auth := golden(t)
	p := Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth))}
	raw, _ := base64.StdEncoding.DecodeString(Encode(p, BaseUSDC))
	m := map[string]any{}
	json.Unmarshal(raw, &m)
	m["value"] = "2000000"
	b, _ := json.Marshal(m)
	for name, h := range map[string]string{
		"disagreeing shapes": base64.StdEncoding.EncodeToString(b),
		"not base64":         "%%%",
		"not json":           base64.StdEncoding.EncodeToString([]byte("nope")),
		"array":              base64.StdEncoding.EncodeToString([]byte("[]")),
		"empty object":       base64.StdEncoding.EncodeToString([]byte("{}")),
		"v2":                 base64.StdEncoding.EncodeToString([]byte(`{"x402Version":2,"scheme":"exact","network":"base","payload":{}}`)),
		"negative value":     base64.StdEncoding.EncodeToString([]byte(strings.Replace(string(raw), `"value":"1000000"`, `"value":"-1"`, -1))),
		"huge value":         base64.StdEncoding.EncodeToString([]byte(strings.Replace(string(raw), `"value":"1000000"`, `"value":"123456789012345678901234567890"`, -1))),
		"too long":           strings.Repeat("A", MaxHeaderLen+1),
	} {
		if _, err := Decode(h); !errors.Is(err, ErrHeader) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestVerify(t *testing.T) {
	key, auth := golden(t)
	auth.ValidAfter, auth.ValidBefore = 1000, 2000
	p := Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth))}
	ok := Expect{PayTo: auth.To, Amount: 1000000, Exact: true, Now: 1500, Tolerance: 5}
	if err := Verify(p, BaseUSDC, ok); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		change func(*Expect, *Payment)
		want   error
	}{
		"other recipient":      {func(e *Expect, _ *Payment) { e.PayTo = auth.From }, ErrWrongRecipient},
		"other price":          {func(e *Expect, _ *Payment) { e.Amount = 999999 }, ErrWrongAmount},
		"over open price":      {func(e *Expect, _ *Payment) { e.Exact, e.Amount = false, 10 }, ErrWrongAmount},
		"too early":            {func(e *Expect, _ *Payment) { e.Now = 994 }, ErrNotYetValid},
		"expired":              {func(e *Expect, _ *Payment) { e.Now = 2005 }, ErrExpired},
		"other chain":          {func(_ *Expect, p *Payment) { p.ChainID = 1 }, ErrWrongChain},
		"other token":          {func(_ *Expect, p *Payment) { p.Token = auth.To }, ErrWrongToken},
		"malleated":            {func(_ *Expect, p *Payment) { p.Signature = Malleate(p.Signature) }, ErrHighS},
		"tampered amount":      {func(e *Expect, p *Payment) { p.Authorization.Value, e.Amount = 5, 5 }, ErrWrongSigner},
		"claims another payer": {func(_ *Expect, p *Payment) { p.Authorization.From = auth.To }, ErrWrongSigner},
	}
	for name, c := range cases {
		e, q := ok, p
		c.change(&e, &q)
		if err := Verify(q, BaseUSDC, e); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", name, err, c.want)
		}
	}
	for name, now := range map[string]int64{"early within tolerance": 996, "late within tolerance": 2004} {
		e := ok
		e.Now = now
		if err := Verify(p, BaseUSDC, e); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	key, auth := golden(f)
	p := Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth))}
	f.Add(Encode(p, BaseUSDC))
	raw, _ := base64.StdEncoding.DecodeString(Encode(p, BaseUSDC))
	f.Add(string(raw))
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{"x402Version":1,"scheme":"exact","network":"base","payload":{"signature":1}}`)))
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{"from":"0x","value":1e400}`)))
	f.Fuzz(func(t *testing.T, h string) {
		got, err := Decode(h)
		if err != nil {
			if !errors.Is(err, ErrHeader) {
				t.Fatalf("error outside ErrHeader: %v", err)
			}
			return
		}
		// Whatever decodes re-encodes to a header that decodes the same.
		again, err := Decode(Encode(got, BaseUSDC))
		if err != nil || again.Authorization != got.Authorization || again.Signature != got.Signature {
			t.Fatalf("round trip: %+v vs %+v (%v)", again, got, err)
		}
	})
}

func BenchmarkDigest(b *testing.B) {
	_, auth := golden(b)
	for b.Loop() {
		BaseUSDC.Digest(auth)
	}
}

func BenchmarkSign(b *testing.B) {
	key, auth := golden(b)
	d := BaseUSDC.Digest(auth)
	for b.Loop() {
		key.Sign(d)
	}
}

func BenchmarkRecover(b *testing.B) {
	key, auth := golden(b)
	d := BaseUSDC.Digest(auth)
	sig := key.Sign(d)
	for b.Loop() {
		if _, err := Recover(d, sig); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeHeader(b *testing.B) {
	key, auth := golden(b)
	h := Encode(Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth))}, BaseUSDC)
	for b.Loop() {
		if _, err := Decode(h); err != nil {
			b.Fatal(err)
		}
	}
}

func TestNetworkNamesFollowX402(t *testing.T) {
	t.Parallel()
	for id, name := range map[uint64]string{8453: "base", 84532: "base-sepolia", 31337: "eip155:31337"} {
		if got := NetworkOf(id); got != name {
			t.Errorf("NetworkOf(%d) = %s", id, got)
		}
		if back, ok := ChainOfNetwork(name); !ok || back != id {
			t.Errorf("ChainOfNetwork(%s) = %d %v", name, back, ok)
		}
	}
	for _, bad := range []string{"", "solana", "eip155:", "eip155:x", "eip155:0"} {
		if _, ok := ChainOfNetwork(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestExpiryMarginRefusesAuthorizationsAboutToLapse(t *testing.T) {
	t.Parallel()
	key, _ := GenerateKey()
	to, _ := ParseAddress("0x209693Bc6afc0C5328bA36FaF03C514EF312287C")
	for _, tc := range []struct {
		validBefore uint64
		want        error
	}{{1006, ErrExpired}, {1007, nil}} {
		a := Authorization{From: key.Address(), To: to, Value: 5, ValidBefore: tc.validBefore}
		p := Payment{Authorization: a, Signature: key.Sign(BaseUSDC.Digest(a))}
		if err := Verify(p, BaseUSDC, Expect{PayTo: to, Amount: 5, Exact: true, Now: 1000, ExpiryMargin: 6}); err != tc.want {
			t.Errorf("validBefore %d: %v, want %v", tc.validBefore, err, tc.want)
		}
	}
}
