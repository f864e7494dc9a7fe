package e2e

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// link creates a payment link of b for amount dollars and answers its id
// and x402 path.
func (r raw) link(b x402Bot, amount float64) (string, string) {
	r.t.Helper()
	id := r.must(201, "POST", "/api/v1/bot/payments/create-link", b.APIKey,
		map[string]any{"amount_usd": amount, "description": "Consulting hour"})["payment_link_id"].(string)
	return id, "/api/v1/payment-links/" + id + "/x402"
}

// linkPayment is how a payer presents one authorization at a link.
type linkPayment struct {
	name    string
	headers func(required x402.PaymentRequiredV2, p x402.Payment) []string
}

var linkPayments = []linkPayment{
	{"v1 X-PAYMENT", func(_ x402.PaymentRequiredV2, p x402.Payment) []string {
		return []string{"X-PAYMENT", x402.Encode(p, x402.BaseUSDC)}
	}},
	{"v2 PAYMENT-SIGNATURE", func(required x402.PaymentRequiredV2, p x402.Payment) []string {
		return []string{"PAYMENT-SIGNATURE", v2Signature(required, p, nil)}
	}},
}

func wantLinkNotPending(t *testing.T, a answer) {
	t.Helper()
	if a.Status != 409 || a.json(t)["error"] != botpay.CodePaymentLinkNotPending || a.Header.Get("PAYMENT-REQUIRED") != "" {
		t.Fatalf("%d %s, want 409 payment_link_not_pending asking for nothing", a.Status, a.Body)
	}
}

func salesOf(r raw, b x402Bot) []any {
	return r.must(200, "GET", "/api/v1/bot/sales", b.APIKey, nil)["sales"].([]any)
}

func TestPaymentLinkAsksInBothVersions(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.claimedBot("seller")
		id, path := r.link(seller, 1.25)
		a, required := r.asked(path)
		// The link made the seller's processor wallet, and is paid to it.
		status := r.must(200, "GET", "/api/v1/bot/status", seller.APIKey, nil)
		payTo := status["rails"].(map[string]any)["processor_wallet"].(map[string]any)["address"]
		v1 := a.json(t)["accepts"].([]any)[0].(map[string]any)
		offer := required.Accepts[0]
		if offer.PayTo != payTo || v1["payTo"] != payTo || offer.Amount != "1250000" || v1["maxAmountRequired"] != "1250000" ||
			offer.Network != "eip155:8453" || required.Resource.URL != r.srv.URL+path || v1["resource"] != r.srv.URL+path ||
			required.Resource.Description != "Consulting hour" || v1["description"] != "Consulting hour" {
			t.Fatalf("PAYMENT-REQUIRED = %+v, v1 = %s, payTo %v", required, a.Body, payTo)
		}
		bazaar := required.Extensions["bazaar"].(map[string]any)["info"].(map[string]any)
		example := bazaar["output"].(map[string]any)["example"].(map[string]any)
		if example["payment_link_id"] != id || example["status"] != "completed" || required.Extensions["payment-identifier"] == nil {
			t.Fatalf("extensions = %v", required.Extensions)
		}
		if !strings.Contains(a.Header.Get("Access-Control-Expose-Headers"), "PAYMENT-REQUIRED") {
			t.Fatalf("expose headers = %q", a.Header.Get("Access-Control-Expose-Headers"))
		}
		if page := r.do("GET", "/pay/"+id, "", nil); page.Status != 200 || !strings.Contains(string(page.Body), r.srv.URL+path) {
			t.Fatalf("buyer page does not name the x402 route: %d %s", page.Status, page.Body)
		}
		if missing := r.do("GET", "/api/v1/payment-links/pl_0000000000000000/x402", "", nil); missing.Status != 404 {
			t.Fatalf("unknown link: %d %s", missing.Status, missing.Body)
		}
	})
}

func TestPaymentLinkPaidWithX402CompletesOnceAndAnnounces(t *testing.T) {
	for _, how := range linkPayments {
		t.Run(how.name, func(t *testing.T) {
			forEachX402Engine(t, func(t *testing.T, r raw) {
				seller := r.claimedBot("seller")
				id, path := r.link(seller, 1.25)
				_, required := r.asked(path)
				p, _ := outsider(t, required.Accepts[0].PayTo, 1_250_000, time.Now().Unix()+120)
				paid := r.do("POST", path, "", nil, how.headers(required, p)...)
				body := paid.json(t)
				if paid.Status != 200 || body["status"] != "completed" || body["payment_link_id"] != id || body["paid_at"] == nil ||
					body["amount_usd"] != 1.25 || body["tx_hash"] == nil {
					t.Fatalf("pay: %d %s", paid.Status, paid.Body)
				}
				settled, err := x402.DecodeSettleResponse(paid.Header.Get("X-PAYMENT-RESPONSE"))
				if err != nil || !settled.Success || settled.Network != "base" || settled.Transaction != body["tx_hash"] {
					t.Fatalf("X-PAYMENT-RESPONSE = %+v, %v", settled, err)
				}
				if how.name == "v2 PAYMENT-SIGNATURE" {
					v2, err := x402.DecodeSettleResponse(paid.Header.Get("PAYMENT-RESPONSE"))
					if err != nil || v2.Network != "eip155:8453" || v2.Amount != "1250000" || v2.Payer != p.Authorization.From.Hex() {
						t.Fatalf("PAYMENT-RESPONSE = %+v, %v", v2, err)
					}
				}
				links := r.must(200, "GET", "/api/v1/bot/payments/links", seller.APIKey, nil)["payment_links"].([]any)
				l := links[0].(map[string]any)
				if l["status"] != "completed" || l["paid_at"] != body["paid_at"] || l["checkout_url"] != nil {
					t.Fatalf("link after payment: %v", l)
				}
				if ev := lastEvent(t, r, seller.ID); ev.Type != botpay.EventWalletPaymentReceived || ev.Data["reference_id"] != id {
					t.Fatalf("last event = %+v", ev)
				}
				// The same authorization again answers the first answer; it
				// pays nothing twice.
				if again := r.do("POST", path, "", nil, how.headers(required, p)...); again.Status != 200 || string(again.Body) != string(paid.Body) {
					t.Fatalf("replay: %d %s, want %s", again.Status, again.Body, paid.Body)
				}
				wallet := r.must(200, "GET", "/api/v1/bot/wallet/check", seller.APIKey, nil)
				if n := len(salesOf(r, seller)); n != 1 || wallet["balance_usd"] != 1.25 {
					t.Fatalf("%d sales, balance %v after a replay", n, wallet["balance_usd"])
				}
				// A completed link takes no other payment, and asks for none.
				second, _ := outsider(t, required.Accepts[0].PayTo, 1_250_000, time.Now().Unix()+120)
				wantLinkNotPending(t, r.do("POST", path, "", nil, how.headers(required, second)...))
				wantLinkNotPending(t, r.do("GET", path, "", nil))
				wantLinkNotPending(t, r.do("GET", path, "", nil, "PAYMENT-SIGNATURE", "%%%"))
				// The authorization is used up for every other link.
				_, otherPath := r.link(seller, 1.25)
				_, otherRequired := r.asked(otherPath)
				refusedV2(t, r.do("POST", otherPath, "", nil, how.headers(otherRequired, p)...), "authorization_already_used")
			})
		})
	}
}

func TestPaymentLinkPaymentIdentifierAnswersFirstAnswerOrConflict(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.claimedBot("seller")
		_, path := r.link(seller, 2)
		_, required := r.asked(path)
		now := time.Now().Unix()
		first, _ := outsider(t, required.Accepts[0].PayTo, 2_000_000, now+120)
		second, _ := outsider(t, required.Accepts[0].PayTo, 2_000_000, now+120)
		id := "link_payment_2026_11_27_01"
		paid := r.do("POST", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, first, withPaymentID(id)))
		if paid.Status != 200 {
			t.Fatalf("pay: %d %s", paid.Status, paid.Body)
		}
		if again := r.do("POST", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, first, withPaymentID(id))); again.Status != 200 ||
			string(again.Body) != string(paid.Body) {
			t.Fatalf("same id, same authorization: %d %s", again.Status, again.Body)
		}
		reused := r.do("POST", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, second, withPaymentID(id)))
		if reused.Status != 409 || reused.json(t)["error"] != "payment_identifier_reused" {
			t.Fatalf("same id, another authorization: %d %s", reused.Status, reused.Body)
		}
		if n := len(salesOf(r, seller)); n != 1 {
			t.Fatalf("%d sales, want 1", n)
		}
	})
}

func TestExpiredPaymentLinkRefusesX402Payments(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Now())
		r := raw{t: t, srv: testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, Clock: clock})}
		seller := r.claimedBot("seller")
		_, path := r.link(seller, 1)
		_, required := r.asked(path)
		clock.Advance(botpay.PaymentLinkLifetime)
		wantLinkNotPending(t, r.do("GET", path, "", nil))
		for _, how := range linkPayments {
			p, _ := outsider(t, required.Accepts[0].PayTo, 1_000_000, clock.Now().Unix()+120)
			t.Run(how.name, func(t *testing.T) { wantLinkNotPending(t, r.do("POST", path, "", nil, how.headers(required, p)...)) })
		}
		if n := len(salesOf(r, seller)); n != 0 {
			t.Fatalf("%d sales at an expired link", n)
		}
	})
}

func TestRacingPayersPayALinkOnce(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.claimedBot("seller")
		id, path := r.link(seller, 3)
		_, required := r.asked(path)
		const payers = 8
		answers := make([]answer, payers)
		var wg sync.WaitGroup
		for i := range payers {
			p, _ := outsider(t, required.Accepts[0].PayTo, 3_000_000, time.Now().Unix()+120)
			headers := linkPayments[i%len(linkPayments)].headers(required, p)
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = r.do("POST", path, "", nil, headers...)
			}()
		}
		wg.Wait()
		paid := 0
		for _, a := range answers {
			switch {
			case a.Status == 200:
				paid++
			case a.Status == 409 && a.json(t)["error"] == botpay.CodePaymentLinkNotPending:
			default:
				t.Errorf("racer: %d %s", a.Status, a.Body)
			}
		}
		wallet := r.must(200, "GET", "/api/v1/bot/wallet/check", seller.APIKey, nil)
		if paid != 1 || len(salesOf(r, seller)) != 1 || wallet["balance_usd"] != 3.0 {
			t.Fatalf("%d payers paid, %d sales, balance %v; want exactly one", paid, len(salesOf(r, seller)), wallet["balance_usd"])
		}
		var received int
		events, _ := storetest.OutboxOf(r.srv.Store).Events(t.Context(), seller.ID)
		for _, ev := range events {
			if ev.Type == botpay.EventWalletPaymentReceived && ev.Data["reference_id"] == id {
				received++
			}
		}
		if received != 1 {
			t.Fatalf("%d wallet.payment.received events, want 1", received)
		}
	})
}
