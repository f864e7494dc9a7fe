package x402

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const (
	vendorPayTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
	// v2Offer is written with members in an unusual order, an unknown
	// member and a number in extra: all must come back as written.
	v2Offer = `{"payTo":"0x209693bc6afc0c5328ba36faf03c514ef312287c","scheme":"exact","network":"eip155:8453",` +
		`"amount":"1000000","asset":"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913","maxTimeoutSeconds":60,` +
		`"extra":{"version":"2","name":"USD Coin","weight":1.50},"x-vendor":{"tier":"gold <&>"}}`
	otherChainOffer = `{"scheme":"exact","network":"eip155:1","amount":"5","asset":"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913","payTo":"` + vendorPayTo + `"}`
	v1Offer         = `{"scheme":"exact","network":"base","maxAmountRequired":"1000000","resource":"https://shop.example/a",` +
		`"payTo":"` + vendorPayTo + `","maxTimeoutSeconds":60,"asset":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","extra":{"name":"USD Coin","version":"2"}}`
)

func v2Required(offers ...string) string {
	return `{"x402Version":2,"error":"pay","resource":{"url":"https://shop.example/a","description":"A","mimeType":"text/plain"},` +
		`"accepts":[` + strings.Join(offers, ",") + `],"extensions":{"bazaar":{"info":{"output":{"type":"json"}}}}}`
}

func v1Body(offers ...string) string {
	return `{"x402Version":1,"error":"pay","accepts":[` + strings.Join(offers, ",") + `]}`
}

// asString is payment_required carrying a PAYMENT-REQUIRED header value.
func asString(header string) json.RawMessage {
	b, _ := json.Marshal(header)
	return b
}

func TestVendorAskChoosesTheFirstPayableOffer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		raw         json.RawMessage
		wantVersion int
		wantOffer   string
		wantNetwork string
	}{
		{"a v2 header", asString(b64(v2Required(otherChainOffer, v2Offer))), Version2, v2Offer, "eip155:8453"},
		{"a v2 header in unpadded base64", asString(base64.RawStdEncoding.EncodeToString([]byte(v2Required(v2Offer)))), Version2, v2Offer, "eip155:8453"},
		{"a v1 body", json.RawMessage(v1Body(strings.Replace(otherChainOffer, "eip155:1", "ethereum", 1), v1Offer)), Version, v1Offer, "base"},
		{"a v1 body naming the chain by CAIP-2", json.RawMessage(v1Body(strings.Replace(v1Offer, `"base"`, `"eip155:8453"`, 1))), Version,
			strings.Replace(v1Offer, `"base"`, `"eip155:8453"`, 1), "eip155:8453"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ask, err := ReadVendorAsk(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			offer, err := ask.Choose(BaseUSDC)
			if err != nil {
				t.Fatal(err)
			}
			if offer.Version != tc.wantVersion || string(offer.Raw) != tc.wantOffer || offer.Network != tc.wantNetwork || offer.Amount != "1000000" {
				t.Fatalf("chose %+v", offer)
			}
			if err := offer.Check(1000000, mustAddress(vendorPayTo)); err != nil {
				t.Fatalf("the offer's own terms are refused: %v", err)
			}
		})
	}
}

func TestVendorAskRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		raw  json.RawMessage
		want string
	}{
		{"a number", json.RawMessage(`12`), "must be the PAYMENT-REQUIRED header value"},
		{"an array", json.RawMessage(`[]`), "must be the PAYMENT-REQUIRED header value"},
		{"a header that is not base64", asString("%%%"), "not base64"},
		{"a v1 body as a header", asString(b64(v1Body(v1Offer))), "x402Version must be 2"},
		{"a v2 document as the body", json.RawMessage(v2Required(v2Offer)), "x402Version must be 1"},
		{"a v1 body without accepts", json.RawMessage(`{"x402Version":1}`), "accepts must be a list"},
		{"a v1 body naming a member twice", json.RawMessage(`{"x402Version":1,"accepts":[],"accepts":[]}`), "accepts more than once"},
		{"an offer naming its amount twice", asString(b64(v2Required(strings.Replace(v2Offer, `"amount":"1000000"`, `"amount":"1","amount":"1000000"`, 1)))),
			"accepts[0].amount is given more than once"},
		{"a long body", json.RawMessage(`{"x402Version":1,"accepts":[],"pad":"` + strings.Repeat("x", MaxVendorAskLen) + `"}`), "longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadVendorAsk(tc.raw)
			if !errors.Is(err, ErrVendorAsk) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrVendorAsk saying %q", err, tc.want)
			}
		})
	}
}

func TestVendorAskWithoutAPayableOfferSaysWhatItOffers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		raw  json.RawMessage
		want string
	}{
		{"only another chain", asString(b64(v2Required(otherChainOffer))), "exact eip155:1 0x8335"},
		{"a v1 network name in v2", asString(b64(v2Required(strings.Replace(v2Offer, `"eip155:8453"`, `"base"`, 1)))), "exact base"},
		{"another token", asString(b64(v2Required(strings.Replace(v2Offer, "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "0x0000000000000000000000000000000000000001", 1)))),
			"0x0000000000000000000000000000000000000001"},
		{"another scheme", json.RawMessage(v1Body(strings.Replace(v1Offer, `"exact"`, `"upto"`, 1))), "upto base"},
		{"a v1 body on another chain", json.RawMessage(v1Body(strings.Replace(v1Offer, `"base"`, `"base-sepolia"`, 1))), "no exact payment on base "},
		{"no offers", asString(b64(v2Required())), "it offers: nothing"},
		{"an unreadable offer", json.RawMessage(v1Body(`{"scheme":1}`)), "an unreadable offer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ask, err := ReadVendorAsk(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ask.Choose(BaseUSDC)
			if !errors.Is(err, ErrVendorAsk) || !strings.Contains(err.Error(), "offers no exact payment") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want no payable offer mentioning %q", err, tc.want)
			}
		})
	}
}

func TestChosenOfferRefusesAnotherAmountOrRecipient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		amount    uint64
		recipient string
		wantField string
	}{
		{"less than asked", 999999, vendorPayTo, "amount_usdc"},
		{"more than asked", 1000001, vendorPayTo, "amount_usdc"},
		{"another recipient", 1000000, "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23", "recipient_address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, raw := range []json.RawMessage{asString(b64(v2Required(v2Offer))), json.RawMessage(v1Body(v1Offer))} {
				ask, _ := ReadVendorAsk(raw)
				offer, err := ask.Choose(BaseUSDC)
				if err != nil {
					t.Fatal(err)
				}
				var mismatch *OfferMismatch
				if err := offer.Check(tc.amount, mustAddress(tc.recipient)); !errors.As(err, &mismatch) || mismatch.Field != tc.wantField {
					t.Fatalf("v%d: err = %v, want a mismatch of %s", ask.Version, err, tc.wantField)
				}
			}
		})
	}
}

func TestChosenOfferHeaderEchoesTheOfferAsWritten(t *testing.T) {
	t.Parallel()
	key, auth := golden(t)
	p := Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth)), ChainID: 8453, Token: BaseUSDCContract}
	ask, _ := ReadVendorAsk(asString(b64(v2Required(v2Offer))))
	offer, _ := ask.Choose(BaseUSDC)
	header := offer.Header(p)
	raw, _ := base64.StdEncoding.DecodeString(header)
	for _, part := range []string{`"accepted":` + v2Offer, `"resource":{"url":"https://shop.example/a","description":"A","mimeType":"text/plain"}`,
		`"extensions":{"bazaar":{"info":{"output":{"type":"json"}}}}`} {
		if !strings.Contains(string(raw), part) {
			t.Fatalf("the payload %s lacks %s", raw, part)
		}
	}
	got, err := DecodePaymentSignature(header)
	if err != nil || got.Payment != p {
		t.Fatalf("botpay's own seller cannot read it: %+v, %v", got.Payment, err)
	}
	var asked PaymentRequiredV2
	if err := decodeStrict([]byte(v2Required(v2Offer)), &asked); err != nil {
		t.Fatal(err)
	}
	if _, err := MatchAccepted(got.Accepted, asked.Accepts); err != nil {
		t.Fatalf("the echoed offer does not match the vendor's: %v", err)
	}
}

func TestChosenOfferHeaderIsTheStandardV1Payload(t *testing.T) {
	t.Parallel()
	key, auth := golden(t)
	p := Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth)), ChainID: 8453, Token: BaseUSDCContract}
	ask, _ := ReadVendorAsk(json.RawMessage(v1Body(v1Offer)))
	offer, _ := ask.Choose(BaseUSDC)
	raw, _ := base64.StdEncoding.DecodeString(offer.Header(p))
	want := `{"x402Version":1,"scheme":"exact","network":"base","payload":{"signature":"` + p.Signature.Hex() + `","authorization":{"from":"` +
		auth.From.Hex() + `","to":"` + auth.To.Hex() + `","value":"1000000","validAfter":"0","validBefore":"1900000000","nonce":"` + auth.Nonce.Hex() + `"}}}`
	if string(raw) != want {
		t.Fatalf("header = %s\nwant     %s", raw, want)
	}
	got, err := Decode(offer.Header(p))
	if err != nil || got.Authorization != p.Authorization || got.Signature != p.Signature {
		t.Fatalf("botpay's own v1 seller cannot read it: %+v, %v", got, err)
	}
}

func FuzzReadVendorAsk(f *testing.F) {
	f.Add(string(asString(b64(v2Required(otherChainOffer, v2Offer)))))
	f.Add(v1Body(v1Offer))
	f.Add(`{"x402Version":1,"accepts":[null,{"scheme":"exact","network":"base","asset":"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"}]}`)
	f.Add(`"` + b64(`{"x402Version":2,"accepts":[{"amount":1}]}`) + `"`)
	key, auth := golden(f)
	p := Payment{Authorization: auth, Signature: key.Sign(BaseUSDC.Digest(auth)), ChainID: 8453, Token: BaseUSDCContract}
	f.Fuzz(func(t *testing.T, raw string) {
		ask, err := ReadVendorAsk(json.RawMessage(raw))
		if err != nil {
			if !errors.Is(err, ErrVendorAsk) {
				t.Fatalf("error outside ErrVendorAsk: %v", err)
			}
			return
		}
		offer, err := ask.Choose(BaseUSDC)
		if err != nil {
			return
		}
		// What is chosen pays: botpay's own sellers read the header it makes.
		header := offer.Header(p)
		if offer.Version == Version2 {
			doc, _ := base64.StdEncoding.DecodeString(header)
			var members map[string]json.RawMessage
			var compact bytes.Buffer
			if err := json.Unmarshal(doc, &members); err != nil || json.Compact(&compact, offer.Raw) != nil {
				t.Fatalf("the v2 header is no JSON object: %v", err)
			}
			if !bytes.Equal(members["accepted"], compact.Bytes()) {
				t.Fatalf("accepted %s is not the offer %s", members["accepted"], offer.Raw)
			}
			if got, err := DecodePaymentSignature(header); err == nil && got.Payment.Authorization != p.Authorization {
				t.Fatalf("the header pays another authorization")
			}
			return
		}
		if got, err := Decode(header); err != nil || got.Authorization != p.Authorization {
			t.Fatalf("a chosen v1 offer makes an unreadable header: %v", err)
		}
	})
}
