package x402

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// stockPayload is a PAYMENT-SIGNATURE document written as the stock
// TypeScript client (@x402/evm exact scheme) writes it.
func stockPayload(t testing.TB) (string, Payment) {
	t.Helper()
	key, auth := golden(t)
	p := Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth)), ChainID: 8453, Token: BaseUSDCContract}
	doc := `{"x402Version":2,"resource":{"url":"http://127.0.0.1/api/v1/checkout/cp_1/x402","description":"Coffee","mimeType":"application/json"},` +
		`"accepted":{"scheme":"exact","network":"eip155:8453","asset":"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913","amount":"1000000",` +
		`"payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","maxTimeoutSeconds":300,"extra":{"name":"USD Coin","version":"2"}},` +
		`"payload":{"authorization":{"from":"` + auth.From.Hex() + `","to":"` + auth.To.Hex() + `","value":"1000000","validAfter":"0",` +
		`"validBefore":"1900000000","nonce":"` + auth.Nonce.Hex() + `"},"signature":"` + p.Signature.Hex() + `"},` +
		`"extensions":{"payment-identifier":{"info":{"required":false,"id":"pay_0123456789abcdef"}}}}`
	return doc, p
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestDecodePaymentSignatureYieldsTheV1Payment(t *testing.T) {
	doc, want := stockPayload(t)
	got, err := DecodePaymentSignature(b64(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got.Payment != want {
		t.Fatalf("payment = %+v, want %+v", got.Payment, want)
	}
	if got.PaymentID != "pay_0123456789abcdef" || got.Resource == nil || got.Resource.Description != "Coffee" {
		t.Fatalf("payment id %q, resource %+v", got.PaymentID, got.Resource)
	}
	if err := Verify(got.Payment, BaseUSDC, Expect{PayTo: want.Authorization.To, Amount: 1000000, Exact: true, Now: 1800000000}); err != nil {
		t.Fatalf("the shared checks refuse a good v2 payment: %v", err)
	}
	// Re-encoded, it decodes to the same payment and keeps the offer as written.
	again, err := DecodePaymentSignature(EncodePaymentSignature(got.PaymentPayloadV2))
	if err != nil || again.Payment != got.Payment || !sameJSON(again.Accepted, got.Accepted) || again.PaymentID != got.PaymentID {
		t.Fatalf("round trip: %+v, %v", again, err)
	}
}

func TestDecodePaymentSignatureRefuses(t *testing.T) {
	doc, _ := stockPayload(t)
	for _, tc := range []struct{ name, doc, want string }{
		{"version 1", strings.Replace(doc, `"x402Version":2`, `"x402Version":1`, 1), "x402Version must be 2"},
		{"a v1 network name", strings.Replace(doc, `"eip155:8453"`, `"base"`, 1), "CAIP-2"},
		{"a zero-padded chain id", strings.Replace(doc, `"eip155:8453"`, `"eip155:08453"`, 1), "CAIP-2"},
		{"another scheme", strings.Replace(doc, `"scheme":"exact"`, `"scheme":"upto"`, 1), "scheme must be exact"},
		{"a numeric value", strings.Replace(doc, `"value":"1000000"`, `"value":1000000`, 1), "value must be a decimal string"},
		{"a numeric validBefore", strings.Replace(doc, `"validBefore":"1900000000"`, `"validBefore":1900000000`, 1), "validBefore must be a decimal string"},
		{"a duplicate amount", strings.Replace(doc, `"amount":"1000000"`, `"amount":"1","amount":"1000000"`, 1), "accepted.amount is given more than once"},
		{"a duplicate top-level member", strings.Replace(doc, `{"x402Version":2`, `{"x402Version":2,"x402Version":2`, 1), "x402Version is given more than once"},
		{"a short payment id", strings.Replace(doc, `pay_0123456789abcdef`, `pay_1`, 1), "info.id must be 16 to 128"},
		{"a payment id with a dot", strings.Replace(doc, `pay_0123456789abcdef`, `pay.0123456789abcdef`, 1), "info.id must be"},
		{"an asset that is no address", strings.Replace(doc, `"asset":"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"`, `"asset":"usdc"`, 1), "asset is not an address"},
		{"a bad signature", strings.Replace(doc, `"signature":"0x`, `"signature":"0xzz`, 1), "payload.signature"},
		{"no accepted", strings.Replace(doc, `"accepted":`, `"acceptedX":`, 1), "accepted must be an offer"},
		{"an array", `[1,2]`, "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodePaymentSignature(b64(tc.doc))
			var unreadable *UnreadableError
			if !errors.As(err, &unreadable) || !errors.Is(err, ErrHeader) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want an unreadable PAYMENT-SIGNATURE saying %q", err, tc.want)
			}
			if unreadable.Header != HeaderPaymentSignature {
				t.Fatalf("header = %q", unreadable.Header)
			}
		})
	}
	if _, err := DecodePaymentSignature("%%%"); err == nil || !strings.Contains(err.Error(), "not base64") {
		t.Fatalf("not base64: %v", err)
	}
}

func TestMatchAccepted(t *testing.T) {
	offer := ExactUSDCOffer(BaseUSDC, 1000000, mustAddress("0x209693Bc6afc0C5328bA36FaF03C514EF312287C"), 300)
	other := ExactUSDCOffer(BaseUSDC, 5000, mustAddress("0x209693Bc6afc0C5328bA36FaF03C514EF312287C"), 300)
	with := func(edit func(*PaymentRequirements)) PaymentRequirements {
		a := offer
		a.Extra = map[string]any{"name": "USD Coin", "version": "2"}
		edit(&a)
		return a
	}
	for _, tc := range []struct {
		name     string
		accepted PaymentRequirements
		index    int
		why      string
	}{
		{"the offer itself", offer, 1, ""},
		{"addresses in lower case", with(func(a *PaymentRequirements) { a.PayTo, a.Asset = strings.ToLower(a.PayTo), strings.ToLower(a.Asset) }), 1, ""},
		{"an extra member added by the payer", with(func(a *PaymentRequirements) { a.Extra["note"] = "hi" }), 1, ""},
		{"another amount", with(func(a *PaymentRequirements) { a.Amount = "1" }), -1, `accepted.amount is "1", the offer's is "5000"`},
		{"another network", with(func(a *PaymentRequirements) { a.Network = "eip155:84532" }), -1, "accepted.network"},
		{"another payee", with(func(a *PaymentRequirements) { a.PayTo = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23" }), -1, "accepted.payTo"},
		{"another timeout", with(func(a *PaymentRequirements) { a.MaxTimeoutSeconds = 60 }), -1, "maxTimeoutSeconds is 60"},
		{"extra version missing", with(func(a *PaymentRequirements) { delete(a.Extra, "version") }), -1, "accepted.extra.version is missing"},
		{"extra name changed", with(func(a *PaymentRequirements) { a.Extra["name"] = "USDC" }), -1, "accepted.extra.name differs"},
		{"extra version as a number", with(func(a *PaymentRequirements) { a.Extra["version"] = json.Number("2") }), -1, "accepted.extra.version differs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, err := MatchAccepted(tc.accepted, []PaymentRequirements{other, offer})
			if i != tc.index {
				t.Fatalf("index = %d, want %d (%v)", i, tc.index, err)
			}
			if tc.why == "" && err != nil || tc.why != "" && (!errors.Is(err, ErrNoMatchingOffer) || !strings.Contains(err.Error(), tc.why)) {
				t.Fatalf("err = %v, want %q", err, tc.why)
			}
		})
	}
	if _, err := MatchAccepted(offer, nil); !errors.Is(err, ErrNoMatchingOffer) {
		t.Fatalf("no offers: %v", err)
	}
}

func TestNetworkNames(t *testing.T) {
	for _, tc := range []struct {
		caip2, v1 string
		chain     uint64
	}{{"eip155:8453", "base", 8453}, {"eip155:84532", "base-sepolia", 84532}, {"eip155:31337", "eip155:31337", 31337}} {
		if got := CAIP2(tc.chain); got != tc.caip2 {
			t.Errorf("CAIP2(%d) = %s", tc.chain, got)
		}
		if id, ok := ChainOfCAIP2(tc.caip2); !ok || id != tc.chain {
			t.Errorf("ChainOfCAIP2(%s) = %d, %v", tc.caip2, id, ok)
		}
		if n, ok := NetworkOfCAIP2(tc.caip2); !ok || n != tc.v1 {
			t.Errorf("NetworkOfCAIP2(%s) = %s, %v", tc.caip2, n, ok)
		}
		if c, ok := CAIP2OfNetwork(tc.v1); !ok || c != tc.caip2 {
			t.Errorf("CAIP2OfNetwork(%s) = %s, %v", tc.v1, c, ok)
		}
	}
	for _, bad := range []string{"base", "eip155:", "eip155:0", "eip155:-1", "eip155:1x", "solana:5eykt", "eip155:99999999999999999999999"} {
		if _, ok := ChainOfCAIP2(bad); ok {
			t.Errorf("ChainOfCAIP2(%q) accepted", bad)
		}
	}
}

func TestPaymentRequiredRoundTrip(t *testing.T) {
	payTo := mustAddress("0x209693Bc6afc0C5328bA36FaF03C514EF312287C")
	v1 := ExactUSDC(BaseUSDC, "http://x/r", "Coffee", 1500, payTo, 300)
	offer, ok := OfferOf(v1)
	if !ok || !sameJSON(offer, ExactUSDCOffer(BaseUSDC, 1500, payTo, 300)) {
		t.Fatalf("OfferOf(v1) = %+v, %v", offer, ok)
	}
	want := PaymentRequiredV2{X402Version: Version2, Error: "payment required", Resource: ResourceInfo{URL: "http://x/r"},
		Accepts: []PaymentRequirements{offer}, Extensions: map[string]any{ExtensionPaymentIdentifier: DeclarePaymentIdentifier(false)}}
	got, err := DecodePaymentRequired(EncodePaymentRequired(want))
	if err != nil || !sameJSON(got, want) {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	for name, doc := range map[string]string{
		"version 1":     `{"x402Version":1,"accepts":[]}`,
		"no accepts":    `{"x402Version":2,"resource":{"url":"x"}}`,
		"wrong type":    `{"x402Version":2,"accepts":[{"maxTimeoutSeconds":"60"}]}`,
		"duplicate":     `{"x402Version":2,"accepts":[{"payTo":"a","payTo":"b"}]}`,
		"trailing":      `{"x402Version":2,"accepts":[]} {}`,
		"not an object": `"x"`,
	} {
		if _, err := DecodePaymentRequired(b64(doc)); !errors.Is(err, ErrHeader) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestSettleResponseCarriesTheAmountOnlyInV2(t *testing.T) {
	r := SettleResponse{Success: true, Transaction: "0xab", Network: "eip155:8453", Payer: "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"}
	if raw, _ := base64.StdEncoding.DecodeString(EncodeSettleResponse(r)); strings.Contains(string(raw), "amount") {
		t.Fatalf("v1 answer gained an amount: %s", raw)
	}
	r.Amount = "1000"
	got, err := DecodeSettleResponse(EncodePaymentResponse(r))
	if err != nil || got != r {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
}

func TestDuplicateMember(t *testing.T) {
	for doc, want := range map[string]string{
		`{"a":1,"b":{"c":[{"d":1,"d":2}]}}`: "b.c[0].d",
		`{"a":1,"a":1}`:                     "a",
		`[{"x":{}},{"x":{"y":1,"y":1}}]`:    "[1].x.y",
		`{"a":{"b":1},"b":{"a":1}}`:         "",
		`{"a":`:                             "",
	} {
		path, found := DuplicateMember([]byte(doc))
		if path != want || found != (want != "") {
			t.Errorf("%s: %q, %v; want %q", doc, path, found, want)
		}
	}
}

func FuzzDecodePaymentSignature(f *testing.F) {
	doc, _ := stockPayload(f)
	f.Add(b64(doc))
	f.Add(b64(strings.Replace(doc, `"amount":"1000000"`, `"amount":"1","amount":"1000000"`, 1)))
	f.Add(b64(`{"x402Version":2,"accepted":{"scheme":"exact","network":"eip155:1"},"payload":{"authorization":{"value":1e400}}}`))
	f.Add(doc)
	f.Fuzz(func(t *testing.T, h string) {
		got, err := DecodePaymentSignature(h)
		if err != nil {
			if !errors.Is(err, ErrHeader) {
				t.Fatalf("error outside ErrHeader: %v", err)
			}
			return
		}
		// Whatever decodes re-encodes to a header that decodes the same.
		again, err := DecodePaymentSignature(EncodePaymentSignature(got.PaymentPayloadV2))
		if err != nil || again.Payment != got.Payment || again.PaymentID != got.PaymentID {
			t.Fatalf("round trip: %+v vs %+v (%v)", again, got, err)
		}
		if _, err := MatchAccepted(got.Accepted, []PaymentRequirements{got.Accepted}); err != nil {
			t.Fatalf("an offer does not match itself: %v", err)
		}
	})
}

func FuzzDecodePaymentRequired(f *testing.F) {
	pr := PaymentRequiredV2{X402Version: Version2, Resource: ResourceInfo{URL: "http://x"},
		Accepts:    []PaymentRequirements{ExactUSDCOffer(BaseUSDC, 1, BaseUSDCContract, 60)},
		Extensions: map[string]any{ExtensionPaymentIdentifier: DeclarePaymentIdentifier(false)}}
	f.Add(EncodePaymentRequired(pr))
	f.Add(b64(`{"x402Version":2,"accepts":[{"extra":{"n":1.50,"n":2}}]}`))
	f.Fuzz(func(t *testing.T, h string) {
		got, err := DecodePaymentRequired(h)
		if err != nil {
			if !errors.Is(err, ErrHeader) {
				t.Fatalf("error outside ErrHeader: %v", err)
			}
			return
		}
		again, err := DecodePaymentRequired(EncodePaymentRequired(got))
		if err != nil || !sameJSON(again, got) {
			t.Fatalf("round trip: %+v vs %+v (%v)", again, got, err)
		}
	})
}

func BenchmarkDecodeVersions(b *testing.B) {
	doc, p := stockPayload(b)
	v1, v2 := Encode(p, BaseUSDC), b64(doc)
	b.Run("v1", func(b *testing.B) {
		for b.Loop() {
			if _, err := Decode(v1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("v2", func(b *testing.B) {
		offers := []PaymentRequirements{ExactUSDCOffer(BaseUSDC, 1000000, p.Authorization.To, 300)}
		for b.Loop() {
			sig, err := DecodePaymentSignature(v2)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := MatchAccepted(sig.Accepted, offers); err != nil {
				b.Fatal(err)
			}
		}
	})
}
