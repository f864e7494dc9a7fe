package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

const facilitatorPath = "/api/v1/x402/facilitator"

// facilitatorBodyV2 is what stock v2 middleware sends its facilitator for
// payment p of amount micro-units to payTo.
func facilitatorBodyV2(p x402.Payment, payTo string, amount uint64, resource string) map[string]any {
	offer := x402.ExactUSDCOffer(x402.BaseUSDC, amount, p.Authorization.To, 300)
	offer.PayTo = payTo
	payload := x402.NewPaymentPayloadV2(p, offer, &x402.ResourceInfo{URL: resource, Description: "weather", MimeType: "application/json"}, nil)
	return map[string]any{"x402Version": 2, "paymentPayload": payload, "paymentRequirements": offer}
}

// facilitatorBodyV1 is the same call from v1 middleware.
func facilitatorBodyV1(p x402.Payment, payTo string, amount uint64, resource string) map[string]any {
	req := x402.ExactUSDC(x402.BaseUSDC, resource, "weather", amount, p.Authorization.To, 300)
	req.PayTo = payTo
	a := p.Authorization
	payload := map[string]any{"x402Version": 1, "scheme": "exact", "network": "base", "payload": map[string]any{
		"signature": p.Signature.Hex(), "authorization": map[string]any{"from": a.From.Hex(), "to": a.To.Hex(),
			"value": itoa(a.Value), "validAfter": "0", "validBefore": itoa(a.ValidBefore), "nonce": a.Nonce.Hex()}}}
	return map[string]any{"x402Version": 1, "paymentPayload": payload, "paymentRequirements": req}
}

func TestFacilitatorSupportedNamesBothVersionsAndNeedsTheBotKey(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		got := r.must(200, "GET", facilitatorPath+"/supported", seller.APIKey, nil)
		kinds := got["kinds"].([]any)
		if len(kinds) != 2 || kinds[0].(map[string]any)["network"] != "base" || kinds[1].(map[string]any)["network"] != "eip155:8453" ||
			kinds[1].(map[string]any)["x402Version"] != 2.0 || got["extensions"].([]any)[0] != "payment-identifier" {
			t.Fatalf("supported = %v", got)
		}
		for _, c := range []struct{ method, path string }{{"GET", "/supported"}, {"POST", "/verify"}, {"POST", "/settle"}} {
			if a := r.do(c.method, facilitatorPath+c.path, "", map[string]any{}); a.Status != 401 {
				t.Errorf("%s without a key: %d %s", c.path, a.Status, a.Body)
			}
		}
	})
}

func TestFacilitatorSettlesOnceIntoTheBotsOwnWalletAsASale(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		for _, c := range []struct {
			name string
			body func(x402.Payment, string, uint64, string) map[string]any
		}{{"v2", facilitatorBodyV2}, {"v1", facilitatorBodyV1}} {
			resource := "https://api.seller.example/weather/" + c.name
			p, _ := outsider(t, seller.Address, 20000, time.Now().Unix()+120)
			body := c.body(p, seller.Address, 20000, resource)
			v := r.must(200, "POST", facilitatorPath+"/verify", seller.APIKey, body)
			if v["isValid"] != true || v["payer"] != p.Authorization.From.Hex() {
				t.Fatalf("%s verify = %v", c.name, v)
			}
			first := r.must(200, "POST", facilitatorPath+"/settle", seller.APIKey, body)
			wantNetwork := map[string]string{"v2": "eip155:8453", "v1": "base"}[c.name]
			if first["success"] != true || first["transaction"] != settle.SandboxTxHash(p.Authorization) || first["network"] != wantNetwork ||
				first["amount"] != "20000" || first["extra"].(map[string]any)["sandbox"] != true {
				t.Fatalf("%s settle = %v", c.name, first)
			}
			again := r.must(200, "POST", facilitatorPath+"/settle", seller.APIKey, body)
			if again["success"] != true || again["transaction"] != first["transaction"] {
				t.Fatalf("%s settle again = %v, want the first %v", c.name, again, first)
			}
			if v := r.must(200, "POST", facilitatorPath+"/verify", seller.APIKey, body); v["isValid"] != false || v["invalidReason"] != "authorization_used" {
				t.Fatalf("%s verify after settle = %v", c.name, v)
			}
			sales := r.must(200, "GET", "/api/v1/bot/sales?payment_method=x402", seller.APIKey, nil)["sales"].([]any)
			n := 0
			for _, s := range sales {
				if sale := s.(map[string]any); sale["resource_url"] == resource {
					n++
					if sale["checkout_page_id"] != nil || sale["amount_usd"] != 0.02 || sale["tx_hash"] != first["transaction"] {
						t.Fatalf("%s sale = %v", c.name, sale)
					}
				}
			}
			if n != 1 {
				t.Fatalf("%s: %d sales of %s, want 1: %v", c.name, n, resource, sales)
			}
		}
		if w := r.must(200, "GET", "/api/v1/bot/wallet/check", seller.APIKey, nil); w["balance_usd"] != 0.04 {
			t.Fatalf("seller's wallet after two sales of $0.02: %v", w)
		}
	})
}

func TestFacilitatorRefusesWhatItNeverSettles(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		other := r.walletBot("other", 0)
		now := time.Now().Unix()
		refused := func(name string, body map[string]any, reason string) {
			t.Helper()
			v := r.must(200, "POST", facilitatorPath+"/verify", seller.APIKey, body)
			s := r.must(200, "POST", facilitatorPath+"/settle", seller.APIKey, body)
			if v["isValid"] != false || v["invalidReason"] != reason {
				t.Errorf("%s: verify = %v, want %s", name, v, reason)
			}
			if s["success"] != false || s["errorReason"] != reason || s["transaction"] != "" || s["network"] == nil {
				t.Errorf("%s: settle = %v, want %s with transaction \"\" and network", name, s, reason)
			}
		}
		foreign, _ := outsider(t, other.Address, 20000, now+120)
		refused("foreign payTo", facilitatorBodyV2(foreign, other.Address, 20000, "https://x.example"), "invalid_payee")
		tenth, _ := outsider(t, seller.Address, 1000, now+120)
		refused("a tenth of a cent", facilitatorBodyV2(tenth, seller.Address, 1000, "https://x.example"), "amount_not_whole_cents")
		wrongValue, _ := outsider(t, seller.Address, 10000, now+120)
		refused("value below the amount", facilitatorBodyV2(wrongValue, seller.Address, 20000, "https://x.example"), "wrong_amount")
		expired, _ := outsider(t, seller.Address, 20000, now-120)
		refused("expired", facilitatorBodyV1(expired, seller.Address, 20000, "https://x.example"), "expired")
		p, _ := outsider(t, seller.Address, 20000, now+120)
		mismatch := facilitatorBodyV2(p, seller.Address, 20000, "https://x.example")
		mismatch["paymentRequirements"] = x402.ExactUSDCOffer(x402.BaseUSDC, 30000, p.Authorization.To, 300)
		refused("accepted is not the requirements", mismatch, "accepted_mismatch")
		garbled := facilitatorBodyV2(p, seller.Address, 20000, "https://x.example")
		garbled["paymentPayload"] = map[string]any{"x402Version": 2, "accepted": "nope"}
		refused("unreadable payload", garbled, "invalid_payload")
		for _, body := range []any{"[]", "{}", `{"x402Version": 2}`, "not json"} {
			if a := r.do("POST", facilitatorPath+"/verify", seller.APIKey, body); a.Status != 400 {
				t.Errorf("body %v: %d %s, want 400", body, a.Status, a.Body)
			}
		}
		if sales := r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any); len(sales) != 0 {
			t.Fatalf("refused payments recorded sales: %v", sales)
		}
	})
}

func TestFacilitatorAuthorizationSpentOnAPageIsUsedUp(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		pageID := r.page(seller, map[string]any{"amount_usd": 0.02})["checkout_page_id"].(string)
		p, header := outsider(t, seller.Address, 20000, time.Now().Unix()+120)
		if a := r.do("GET", "/api/v1/checkout/"+pageID+"/x402", "", nil, "X-PAYMENT", header); a.Status != 200 {
			t.Fatalf("page payment: %d %s", a.Status, a.Body)
		}
		s := r.must(200, "POST", facilitatorPath+"/settle", seller.APIKey, facilitatorBodyV2(p, seller.Address, 20000, "https://x.example"))
		if s["success"] != false || !strings.Contains(s["errorReason"].(string), "used") {
			t.Fatalf("settle of an authorization paid on a page = %v", s)
		}
	})
}

func TestFacilitatorLimitsVerifyAndSettleCallsPerBot(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		r := raw{t: t, srv: testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 1000, FacilitatorPerMinute: 2}})}
		seller := r.walletBot("seller", 0)
		other := r.walletBot("other", 0)
		p, _ := outsider(t, seller.Address, 20000, time.Now().Unix()+120)
		body := facilitatorBodyV2(p, seller.Address, 20000, "https://x.example")
		for i := 0; i < 2; i++ {
			r.must(200, "POST", facilitatorPath+"/verify", seller.APIKey, body)
		}
		if a := r.do("POST", facilitatorPath+"/verify", seller.APIKey, body); a.Status != 429 || a.json(t)["error"] != "rate_limited" {
			t.Fatalf("third verify in a minute: %d %s", a.Status, a.Body)
		}
		// Settling counts apart, and so does another bot.
		if s := r.must(200, "POST", facilitatorPath+"/settle", seller.APIKey, body); s["success"] != true {
			t.Fatalf("settle after verify was limited: %v", s)
		}
		r.must(200, "POST", facilitatorPath+"/verify", other.APIKey, body)
	})
}
