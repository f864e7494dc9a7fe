package e2e

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/x402"
)

// asked is a 402 answer read as a v2 payer reads it.
func (r raw) asked(path string) (answer, x402.PaymentRequiredV2) {
	r.t.Helper()
	a := r.do("GET", path, "", nil)
	required, err := x402.DecodePaymentRequired(a.Header.Get("PAYMENT-REQUIRED"))
	if a.Status != 402 || err != nil {
		r.t.Fatalf("ask %s: %d %v %s", path, a.Status, err, a.Body)
	}
	return a, required
}

// v2Signature pays the first offer of required with p, as the stock client
// writes it; ext are the payer's extensions.
func v2Signature(required x402.PaymentRequiredV2, p x402.Payment, ext map[string]any) string {
	return x402.EncodePaymentSignature(x402.NewPaymentPayloadV2(p, required.Accepts[0], &required.Resource, ext))
}

func withPaymentID(id string) map[string]any {
	return map[string]any{x402.ExtensionPaymentIdentifier: x402.PaymentIDExtension(id)}
}

// refusedV2 checks a 402 whose PAYMENT-REQUIRED and v1 body both name why.
func refusedV2(t *testing.T, a answer, want string) {
	t.Helper()
	required, err := x402.DecodePaymentRequired(a.Header.Get("PAYMENT-REQUIRED"))
	if a.Status != 402 || err != nil || !strings.Contains(required.Error, want) || len(required.Accepts) != 1 {
		t.Fatalf("%d %s (PAYMENT-REQUIRED %+v, %v), want 402 naming %q", a.Status, a.Body, required, err, want)
	}
	if body := a.json(t); !strings.Contains(body["error"].(string), want) || body["accepts"] == nil {
		t.Fatalf("v1 body %s, want it to name %q", a.Body, want)
	}
}

func TestCheckoutPageAsksInBothVersions(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		path := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
		a, required := r.asked(path)
		v1 := a.json(t)["accepts"].([]any)[0].(map[string]any)
		offer := required.Accepts[0]
		if required.X402Version != 2 || required.Resource.URL != r.srv.URL+path || required.Resource.Description != "Dataset" ||
			offer.Scheme != "exact" || offer.Network != "eip155:8453" || offer.Amount != v1["maxAmountRequired"] ||
			offer.PayTo != seller.Address || offer.Asset != v1["asset"] || offer.MaxTimeoutSeconds != 300 ||
			offer.Extra["name"] != "USD Coin" || offer.Extra["version"] != "2" || required.Error == "" {
			t.Fatalf("PAYMENT-REQUIRED = %+v, v1 = %s", required, a.Body)
		}
		pid, _ := required.Extensions["payment-identifier"].(map[string]any)
		bazaar, _ := required.Extensions["bazaar"].(map[string]any)
		if pid["info"].(map[string]any)["required"] != false || bazaar["info"].(map[string]any)["input"] == nil ||
			bazaar["info"].(map[string]any)["output"] == nil {
			t.Fatalf("extensions = %v", required.Extensions)
		}
		if !strings.Contains(a.Header.Get("Access-Control-Expose-Headers"), "PAYMENT-REQUIRED") {
			t.Fatalf("expose headers = %q", a.Header.Get("Access-Control-Expose-Headers"))
		}
	})
}

func TestV2PaymentPaysOnceAndAnswersBothSettlementHeaders(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		path := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
		_, required := r.asked(path)
		p, _ := outsider(t, seller.Address, 50000, time.Now().Unix()+120)
		signature := v2Signature(required, p, nil)
		// PAYMENT-SIGNATURE wins over an X-PAYMENT sent beside it.
		a := r.do("POST", path, "", nil, "PAYMENT-SIGNATURE", signature, "X-PAYMENT", "bm9wZQ==")
		if a.Status != 200 || a.json(t)["status"] != "confirmed" {
			t.Fatalf("pay: %d %s", a.Status, a.Body)
		}
		v2, err := x402.DecodeSettleResponse(a.Header.Get("PAYMENT-RESPONSE"))
		if err != nil || !v2.Success || v2.Network != "eip155:8453" || v2.Amount != "50000" || v2.Payer != p.Authorization.From.Hex() ||
			v2.Transaction != a.json(t)["tx_hash"] {
			t.Fatalf("PAYMENT-RESPONSE = %+v, %v", v2, err)
		}
		raw, _ := base64.StdEncoding.DecodeString(a.Header.Get("X-PAYMENT-RESPONSE"))
		if v1, err := x402.DecodeSettleResponse(a.Header.Get("X-PAYMENT-RESPONSE")); err != nil || v1.Network != "base" || strings.Contains(string(raw), "amount") {
			t.Fatalf("X-PAYMENT-RESPONSE = %s, %v", raw, err)
		}
		expose := a.Header.Get("Access-Control-Expose-Headers")
		if !strings.Contains(expose, "PAYMENT-RESPONSE") || !strings.Contains(expose, "X-PAYMENT-RESPONSE") {
			t.Fatalf("expose headers = %q", expose)
		}
		// The same PAYMENT-SIGNATURE again, or the same authorization in v1
		// form, answers the first answer and pays nothing twice.
		for name, headers := range map[string][]string{
			"replayed signature": {"PAYMENT-SIGNATURE", signature},
			"as X-PAYMENT":       {"X-PAYMENT", x402.Encode(p, x402.BaseUSDC)},
		} {
			if again := r.do("GET", path, "", nil, headers...); again.Status != 200 || string(again.Body) != string(a.Body) {
				t.Fatalf("%s: %d %s, want %s", name, again.Status, again.Body, a.Body)
			}
		}
		if n := len(r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any)); n != 1 {
			t.Fatalf("%d sales after replays", n)
		}
	})
}

func TestV2PaymentRefusalsNameWhy(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		path := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
		_, required := r.asked(path)
		now := time.Now().Unix()
		good, _ := outsider(t, seller.Address, 50000, now+120)
		goodDoc, _ := base64.StdEncoding.DecodeString(v2Signature(required, good, nil))
		cheaper := required
		cheaper.Accepts = []x402.PaymentRequirements{required.Accepts[0]}
		cheaper.Accepts[0].Amount = "1"
		cheap, _ := outsider(t, seller.Address, 1, now+120)
		expired, _ := outsider(t, seller.Address, 50000, now-60)
		wrongAmount, _ := outsider(t, seller.Address, 49999, now+120)
		for _, tc := range []struct{ name, header, want string }{
			{"not base64", "%%%", "could not be read: not base64"},
			{"not JSON", base64.StdEncoding.EncodeToString([]byte("nope")), "could not be read"},
			{"a v1 payload", x402.Encode(good, x402.BaseUSDC), "x402Version must be 2"},
			{"a duplicate member", base64.StdEncoding.EncodeToString([]byte(strings.Replace(string(goodDoc), `"amount":"50000"`, `"amount":"1","amount":"50000"`, 1))), "accepted.amount is given more than once"},
			{"an accepted offer with another amount", v2Signature(cheaper, cheap, nil), `no_matching_requirements: accepted.amount is "1"`},
			{"a malformed payment identifier", v2Signature(required, good, withPaymentID("short")), "info.id must be 16 to 128"},
			{"an expired authorization", v2Signature(required, expired, nil), "expired"},
			{"an authorization of another amount", v2Signature(required, wrongAmount, nil), "amount does not match"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				refusedV2(t, r.do("GET", path, "", nil, "PAYMENT-SIGNATURE", tc.header), tc.want)
			})
		}
		if n := len(r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any)); n != 0 {
			t.Fatalf("%d sales after refusals", n)
		}
	})
}

func TestPaymentIdentifierAnswersFirstAnswerOrConflict(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		path := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
		_, required := r.asked(path)
		now := time.Now().Unix()
		first, _ := outsider(t, seller.Address, 50000, now+120)
		second, _ := outsider(t, seller.Address, 50000, now+120)
		id := "order_2026_11_27_0001"
		paid := r.do("GET", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, first, withPaymentID(id)))
		if paid.Status != 200 {
			t.Fatalf("pay: %d %s", paid.Status, paid.Body)
		}
		if again := r.do("GET", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, first, withPaymentID(id))); again.Status != 200 || string(again.Body) != string(paid.Body) {
			t.Fatalf("same id, same authorization: %d %s", again.Status, again.Body)
		}
		reused := r.do("GET", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, second, withPaymentID(id)))
		if reused.Status != 409 || reused.json(t)["error"] != "payment_identifier_reused" || !strings.Contains(reused.json(t)["message"].(string), id) {
			t.Fatalf("same id, another authorization: %d %s", reused.Status, reused.Body)
		}
		// The id is scoped to its route: another page takes it, with a new authorization.
		other := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
		_, otherRequired := r.asked(other)
		if a := r.do("GET", other, "", nil, "PAYMENT-SIGNATURE", v2Signature(otherRequired, second, withPaymentID(id))); a.Status != 200 {
			t.Fatalf("same id on another route: %d %s", a.Status, a.Body)
		}
		if n := len(r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any)); n != 2 {
			t.Fatalf("%d sales, want 2", n)
		}
	})
}

func TestInvoicePaidWithV2Payment(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		pageID := r.page(seller, map[string]any{"page_type": "product", "digital_product_url": nil})["checkout_page_id"].(string)
		inv := r.must(201, "POST", "/api/v1/bot/invoices/create", seller.APIKey, map[string]any{"checkout_page_id": pageID,
			"line_items": []any{map[string]any{"description": "Work", "quantity": 1, "unit_price_usd": 2}}})
		path := "/api/v1/checkout/" + pageID + "/x402?" + strings.SplitN(inv["payment_url"].(string), "?", 2)[1]
		_, required := r.asked(path)
		if required.Accepts[0].Amount != "2000000" || required.Resource.Description != "Invoice "+inv["reference_number"].(string) {
			t.Fatalf("invoice PAYMENT-REQUIRED = %+v", required)
		}
		p, _ := outsider(t, seller.Address, 2000000, time.Now().Unix()+120)
		a := r.do("POST", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, p, withPaymentID("invoice-payment-000001")))
		if a.Status != 200 || a.json(t)["reference_number"] != inv["reference_number"] {
			t.Fatalf("pay invoice: %d %s", a.Status, a.Body)
		}
		list := r.must(200, "GET", "/api/v1/bot/invoices", seller.APIKey, nil)["invoices"].([]any)
		if st := list[0].(map[string]any)["status"]; st != "paid" {
			t.Fatalf("invoice status %v", st)
		}
		// A paid invoice refuses what it cannot take instead of asking again.
		for name, headers := range map[string][]string{"no payment": nil, "an unreadable payment": {"PAYMENT-SIGNATURE", "%%%"}} {
			if a := r.do("GET", path, "", nil, headers...); a.Status != 409 || a.json(t)["error"] != "invoice_not_payable" ||
				a.Header.Get("PAYMENT-REQUIRED") != "" {
				t.Fatalf("%s at the paid invoice: %d %s", name, a.Status, a.Body)
			}
		}
	})
}
