package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// The clock-tolerance attack: $10 signed valid for 11 s, a second $10 signed
// 0.3 s after the first lapsed but while settlement still accepts it. The
// wallet holds $10, so the second must be refused, and the first still
// settles.
func TestALapsedSignatureStaysReservedWhileSettlementAcceptsIt(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Now())
		r := raw{t: t, srv: testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, Clock: clock})}
		seller := r.walletBot("tolerance-seller", 0)
		buyer := r.walletBot("tolerance-buyer", 10)
		pageID := r.page(seller, map[string]any{"amount_usd": 10})["checkout_page_id"].(string)
		path := "/api/v1/checkout/" + pageID + "/x402"
		body := map[string]any{"resource_url": r.srv.URL + path, "amount_usdc": 10_000_000,
			"recipient_address": strings.ToLower(seller.Address), "valid_before": clock.Now().Unix() + 11}
		first := r.sign(buyer, body)
		if first.Status != 200 {
			t.Fatalf("first signature: %d %s", first.Status, first.Body)
		}
		clock.Advance(11*time.Second + 300*time.Millisecond)
		body["valid_before"] = clock.Now().Unix() + 60
		if a := r.sign(buyer, body); a.Status != 403 || a.json(t)["error"] != "insufficient_token_balance" {
			t.Fatalf("second $10 against a $10 wallet whose first signature still settles: %d %s", a.Status, a.Body)
		}
		if a := r.do("GET", path, "", nil, "X-PAYMENT", first.json(t)["x_payment_header"].(string)); a.Status != 200 {
			t.Fatalf("the first signature, inside the tolerance, does not settle: %d %s", a.Status, a.Body)
		}
		status := r.must(200, "GET", "/api/v1/bot/status", buyer.APIKey, nil)
		processor := status["rails"].(map[string]any)["processor_wallet"].(map[string]any)
		if processor["balance_usd"] != 0.0 {
			t.Fatalf("buyer's processor wallet after settling: %v", processor)
		}
	})
}
