package e2e

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/x402"
)

// The vendor's 402 as a foreign seller writes it: an offer on another
// chain first, then one the service pays, with members botpay's structs
// do not know.
const (
	foreignOtherChain = `{"scheme":"exact","network":"eip155:1","amount":"7","asset":"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48","payTo":"` + vendor + `","maxTimeoutSeconds":60}`
	foreignV2Offer    = `{"scheme":"exact","network":"eip155:8453","amount":"250000","asset":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",` +
		`"payTo":"` + vendor + `","maxTimeoutSeconds":90,"extra":{"name":"USD Coin","version":"2","rate":0.50},"vendorNote":"kept"}`
	foreignV1Offer = `{"scheme":"exact","network":"base","maxAmountRequired":"250000","resource":"https://api.vendor.example/report?q=1",` +
		`"description":"Report","mimeType":"application/json","payTo":"` + vendor + `","maxTimeoutSeconds":90,` +
		`"asset":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","extra":{"name":"USD Coin","version":"2"}}`
)

func foreignRequired(offers ...string) string {
	return base64.StdEncoding.EncodeToString([]byte(`{"x402Version":2,"error":"PAYMENT-SIGNATURE header is required",` +
		`"resource":{"url":"https://api.vendor.example/report?q=1","description":"Report","mimeType":"application/json"},` +
		`"accepts":[` + strings.Join(offers, ",") + `],"extensions":{"bazaar":{"info":{"input":{"type":"http","method":"GET"}}}}}`))
}

func foreignV1Body(offers ...string) map[string]any {
	var body map[string]any
	json.Unmarshal([]byte(`{"x402Version":1,"error":"X-PAYMENT header is required","accepts":[`+strings.Join(offers, ",")+`]}`), &body)
	return body
}

func signFor(amount int64, required any) map[string]any {
	body := signBody(amount)
	body["payment_required"] = required
	return body
}

// decoded is the JSON inside a base64 header, its members as written.
func decoded(t *testing.T, header string) map[string]json.RawMessage {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(header)
	var doc map[string]json.RawMessage
	if err != nil || json.Unmarshal(raw, &doc) != nil {
		t.Fatalf("header %q is not base64 JSON: %v", header, err)
	}
	return doc
}

// checkOfferHeader checks the extra header of a 200 (or purchase.approved)
// pays the same authorization as x_payment_header, in the vendor's terms.
func checkOfferHeader(t *testing.T, fields map[string]any, version int) {
	t.Helper()
	flat, err := x402.Decode(fields["x_payment_header"].(string))
	if err != nil {
		t.Fatal(err)
	}
	v2, hasV2 := fields["payment_signature_header"].(string)
	v1, hasV1 := fields["x_payment_standard_header"].(string)
	if hasV2 != (version == 2) || hasV1 != (version == 1) {
		t.Fatalf("v%d answer carries payment_signature_header %v, x_payment_standard_header %v", version, hasV2, hasV1)
	}
	if version == 2 {
		got, err := x402.DecodePaymentSignature(v2)
		if err != nil || got.Payment.Authorization != flat.Authorization || got.Payment.Signature != flat.Signature {
			t.Fatalf("PAYMENT-SIGNATURE pays %+v (%v), x_payment_header %+v", got.Payment, err, flat)
		}
		doc := decoded(t, v2)
		if string(doc["accepted"]) != foreignV2Offer || !strings.Contains(string(doc["extensions"]), "bazaar") ||
			!strings.Contains(string(doc["resource"]), "api.vendor.example") {
			t.Fatalf("the v2 payload does not echo the vendor's offer, resource and extensions: %s", mustJSON(doc))
		}
		return
	}
	doc := decoded(t, v1)
	want := fmt.Sprintf(`{"x402Version":1,"scheme":"exact","network":"base","payload":{"signature":%q,"authorization":`+
		`{"from":%q,"to":%q,"value":"%d","validAfter":"0","validBefore":"%d","nonce":%q}}}`, flat.Signature.Hex(), flat.Authorization.From.Hex(),
		flat.Authorization.To.Hex(), flat.Authorization.Value, flat.Authorization.ValidBefore, flat.Authorization.Nonce.Hex())
	if got := mustJSON(doc); !sameJSONText(got, want) {
		t.Fatalf("standard v1 header = %s\nwant %s", got, want)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sameJSONText(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && mustJSON(x) == mustJSON(y)
}

func TestSignWithPaymentRequiredPaysTheVendorsOffer(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("buyer", 5)
		for _, tc := range []struct {
			name     string
			required any
			version  int
		}{
			{"the PAYMENT-REQUIRED header", foreignRequired(foreignOtherChain, foreignV2Offer), 2},
			{"the v1 body", foreignV1Body(strings.Replace(foreignOtherChain, "eip155:1", "ethereum", 1), foreignV1Offer), 1},
		} {
			a := r.sign(b, signFor(250_000, tc.required))
			checkSigned(t, a, b.Address, 250_000)
			checkOfferHeader(t, a.json(t), tc.version)
		}
		// Without payment_required the answer is what it always was.
		if body := r.sign(b, signBody(1)).json(t); body["payment_signature_header"] != nil || body["x_payment_standard_header"] != nil {
			t.Fatalf("a plain signature carries an offer header: %v", body)
		}
	})
}

func TestSignWithPaymentRequiredRefusesWhatTheVendorWouldRefuse(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("careful", 5)
		requestID := regexp.MustCompile(`,"request_id":"req_[0-9a-f]+"`)
		for _, tc := range []struct {
			name     string
			body     map[string]any
			wantBody string
		}{
			{"less than the v2 offer", signFor(249_999, foreignRequired(foreignV2Offer)),
				`{"error":"Invalid request","details":{"amount_usdc":"is 249999 but the vendor's offer asks \"250000\""}}`},
			{"more than the v1 offer", signFor(250_001, foreignV1Body(foreignV1Offer)),
				`{"error":"Invalid request","details":{"amount_usdc":"is 250001 but the vendor's offer asks \"250000\""}}`},
			{"another recipient", func() map[string]any {
				body := signFor(250_000, foreignRequired(foreignV2Offer))
				body["recipient_address"] = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
				return body
			}(), `{"error":"Invalid request","details":{"recipient_address":"is 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23 but the vendor's offer pays to \"` + vendor + `\""}}`},
			{"only another chain", signFor(7, foreignRequired(foreignOtherChain)),
				`{"error":"Invalid request","details":{"payment_required":"offers no exact payment on eip155:8453 in token 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 (the service's network and token); it offers: exact eip155:1 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"}}`},
			{"a v1 offer on another network", signFor(250_000, foreignV1Body(strings.Replace(foreignV1Offer, `"base"`, `"base-sepolia"`, 1))),
				`{"error":"Invalid request","details":{"payment_required":"offers no exact payment on base in token 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 (the service's network and token); it offers: exact base-sepolia 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}}`},
			{"an unreadable header", signFor(250_000, "not base64!"),
				`{"error":"Invalid request","details":{"payment_required":"is not a readable PAYMENT-REQUIRED header: not base64"}}`},
			{"a number", signFor(250_000, 402),
				`{"error":"Invalid request","details":{"payment_required":"must be the PAYMENT-REQUIRED header value (a string) or the x402 v1 402 body (an object)"}}`},
		} {
			a := r.sign(b, tc.body)
			if got := requestID.ReplaceAllString(strings.TrimSpace(string(a.Body)), ""); a.Status != 400 || got != tc.wantBody {
				t.Errorf("%s: %d %s\nwant 400 %s", tc.name, a.Status, got, tc.wantBody)
			}
		}
		// Nothing was reserved for the refusals.
		pw := r.must(200, "GET", "/api/v1/bot/status", b.APIKey, nil)["rails"].(map[string]any)["processor_wallet"].(map[string]any)
		if pw["balance_usd"] != 5.0 {
			t.Fatalf("available after refusals = %v", pw["balance_usd"])
		}
	})
}

func TestHeldSigningWithPaymentRequiredAnnouncesTheOfferHeader(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("held-buyer", 5)
		r.guardrails(b, map[string]any{"approval_mode": "ask_for_everything"})
		for _, tc := range []struct {
			name     string
			required any
			version  int
		}{
			{"v2", foreignRequired(foreignV2Offer), 2},
			{"v1", foreignV1Body(foreignV1Offer), 1},
			{"none", nil, 0},
		} {
			body := signFor(250_000, tc.required)
			if tc.required == nil {
				delete(body, "payment_required")
			}
			a := r.sign(b, body)
			if a.Status != 202 {
				t.Fatalf("%s: sign = %d %s", tc.name, a.Status, a.Body)
			}
			id := fmt.Sprint(int64(a.json(t)["approval_id"].(float64)))
			r.must(200, "POST", "/api/v1/owner/signing-requests/"+id+"/approve", b.OwnerToken, nil)
			ev := lastEvent(t, r, b.ID)
			if ev.Type != "purchase.approved" {
				t.Fatalf("%s: event %+v", tc.name, ev)
			}
			// The bot reads the decision from its pending messages.
			msgs := r.must(200, "GET", "/api/v1/bot/messages", b.APIKey, nil)["messages"].([]any)
			data := msgs[len(msgs)-1].(map[string]any)["data"].(map[string]any)
			if fmt.Sprint(data["approval_id"]) != id {
				t.Fatalf("%s: last message %v", tc.name, data)
			}
			if tc.version == 0 {
				if data["payment_signature_header"] != nil || data["x_payment_standard_header"] != nil {
					t.Fatalf("an approval without a 402 carries an offer header: %v", data)
				}
				continue
			}
			checkOfferHeader(t, data, tc.version)
		}
	})
}

// A bot buying from another bot's checkout page hands over the page's 402
// in either version and pays with the header the service made for it; the
// standard v1 form is accepted by botpay's own sellers too.
func TestBuyerPaysABotpaySellerWithTheOfferHeader(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		buyer := r.walletBot("buyer", 5)
		for _, version := range []int{2, 1} {
			path := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
			asked := r.do("GET", path, "", nil)
			var required any = asked.Header.Get("PAYMENT-REQUIRED")
			field, header := "payment_signature_header", "PAYMENT-SIGNATURE"
			if version == 1 {
				required, field, header = asked.json(t), "x_payment_standard_header", "X-PAYMENT"
			}
			body := map[string]any{"resource_url": r.srv.URL + path, "amount_usdc": 50000, "recipient_address": seller.Address, "payment_required": required}
			signed := r.sign(buyer, body)
			if signed.Status != 200 || signed.json(t)[field] == nil {
				t.Fatalf("v%d sign: %d %s", version, signed.Status, signed.Body)
			}
			paid := r.do("GET", path, "", nil, header, signed.json(t)[field].(string))
			if paid.Status != 200 || paid.json(t)["status"] != "confirmed" {
				t.Fatalf("v%d pay with %s: %d %s", version, header, paid.Status, paid.Body)
			}
			receipt := "PAYMENT-RESPONSE"
			if version == 1 {
				receipt = "X-PAYMENT-RESPONSE"
			}
			settled, err := x402.DecodeSettleResponse(paid.Header.Get(receipt))
			if err != nil || !settled.Success || settled.Payer != buyer.Address {
				t.Fatalf("v%d PAYMENT-RESPONSE = %+v, %v", version, settled, err)
			}
		}
		if n := len(r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any)); n != 2 {
			t.Fatalf("%d sales, want 2", n)
		}
	})
}

// foreignSeller is a stock-like x402 seller of one version outside
// botpay: it asks with foreignV2Offer (PAYMENT-REQUIRED) or foreignV1Offer
// (the v1 body), and accepts only the payment a stock seller of that
// version reads: PAYMENT-SIGNATURE echoing its offer, or the standard v1
// X-PAYMENT without botpay's flat fields.
type foreignSeller struct {
	*httptest.Server
	version int
	paid    atomic.Int32
}

func newForeignSeller(t *testing.T, version int) *foreignSeller {
	s := &foreignSeller{version: version}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *foreignSeller) serve(w http.ResponseWriter, r *http.Request) {
	if s.version == 2 {
		if p, err := x402.DecodePaymentSignature(r.Header.Get("PAYMENT-SIGNATURE")); err == nil {
			raw, _ := base64.StdEncoding.DecodeString(r.Header.Get("PAYMENT-SIGNATURE"))
			var doc map[string]json.RawMessage
			json.Unmarshal(raw, &doc)
			if string(doc["accepted"]) == foreignV2Offer && p.Payment.Authorization.Value == 250000 {
				s.settle(w, "PAYMENT-RESPONSE", p.Payment, "eip155:8453")
				return
			}
		}
		w.Header().Set("PAYMENT-REQUIRED", foreignRequired(foreignOtherChain, foreignV2Offer))
		w.WriteHeader(http.StatusPaymentRequired)
		w.Write([]byte("{}"))
		return
	}
	raw, _ := base64.StdEncoding.DecodeString(r.Header.Get("X-PAYMENT"))
	var doc map[string]json.RawMessage
	if json.Unmarshal(raw, &doc) == nil && len(doc) == 4 && string(doc["network"]) == `"base"` {
		if p, err := x402.Decode(r.Header.Get("X-PAYMENT")); err == nil && p.Authorization.Value == 250000 {
			s.settle(w, "X-PAYMENT-RESPONSE", p, "base")
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusPaymentRequired)
	json.NewEncoder(w).Encode(foreignV1Body(foreignV1Offer))
}

func (s *foreignSeller) settle(w http.ResponseWriter, header string, p x402.Payment, network string) {
	s.paid.Add(1)
	w.Header().Set(header, x402.EncodeSettleResponse(x402.SettleResponse{Success: true, Transaction: "0x" + strings.Repeat("ab", 32),
		Network: network, Payer: p.Authorization.From.Hex()}))
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"report":"paid"}`))
}

func TestGoClientPaysForeignSellersOfBothVersions(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("client-buyer", 5)
		bot := client.New(r.srv.URL, b.APIKey)
		for _, version := range []int{2, 1} {
			seller := newForeignSeller(t, version)
			paid, err := bot.PayX402(t.Context(), seller.URL+"/report", nil, 250_000)
			if err != nil || paid.StatusCode != 200 || paid.Version != version || seller.paid.Load() != 1 {
				t.Fatalf("v%d: %+v, %v", version, paid, err)
			}
			if paid.Settlement == nil || !paid.Settlement.Success || textOf(paid.Settlement.Payer) != b.Address || paid.Requirement.MaxAmountRequired != "250000" {
				t.Fatalf("v%d: settlement %+v, requirement %+v", version, paid.Settlement, paid.Requirement)
			}
		}
	})
}
