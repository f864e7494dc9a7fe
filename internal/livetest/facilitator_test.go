package livetest

import (
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/x402"
)

// facilitatorCall is what stock v2 middleware sends botpay for a payment
// of amount to payTo on the node's chain.
func facilitatorCall(d x402.Domain, key x402.Key, payTo x402.Address, amount uint64) (map[string]any, x402.Payment) {
	var nonce x402.Nonce
	rand.Read(nonce[:])
	a := x402.Authorization{From: key.Address(), To: payTo, Value: amount, ValidBefore: uint64(time.Now().Unix() + 600), Nonce: nonce}
	p := x402.Payment{Authorization: a, Signature: key.Sign(d.Digest(a))}
	offer := x402.ExactUSDCOffer(d, amount, payTo, 300)
	payload := x402.NewPaymentPayloadV2(p, offer, &x402.ResourceInfo{URL: "https://api.seller.example/weather"}, nil)
	return map[string]any{"x402Version": 2, "paymentPayload": payload, "paymentRequirements": offer}, p
}

// TestFacilitatorSettlesOnChainOnceIntoTheBotsWallet: in live mode, on
// both engines, the facilitator's settle sends one transferWithAuthorization
// through the relayer, the seller's processor wallet receives exactly the
// amount on chain, the sale is listed once, and the same call again sends
// nothing; the stock express middleware pointed at botpay settles a stock
// client's payment the same way; verify refuses a foreign payTo
// (invalid_payee), a failed settle names its transaction ("") and network,
// and a call without a key is 401.
func TestFacilitatorSettlesOnChainOnceIntoTheBotsWallet(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller := walletBot(t, base, "seller")
		other := walletBot(t, base, "other")
		payer, _ := x402.GenerateKey()
		l.node.Mint(t, payer.Address(), 5_000_000)
		d := l.node.Domain()
		supported := must(t, base, 200, "GET", "/api/v1/x402/facilitator/supported", seller.Key, nil)
		if kinds := supported["kinds"].([]any); kinds[1].(map[string]any)["network"] != d.CAIP2() ||
			supported["signers"].(map[string]any)["eip155:*"].([]any)[0] != l.relayer.Address().Hex() {
			t.Fatalf("supported = %v", supported)
		}
		foreign, _ := facilitatorCall(d, payer, other.Address, 250_000)
		if v := must(t, base, 200, "POST", "/api/v1/x402/facilitator/verify", seller.Key, foreign); v["invalidReason"] != "invalid_payee" {
			t.Fatalf("verify of a foreign payTo = %v", v)
		}
		body, _ := facilitatorCall(d, payer, seller.Address, 250_000)
		if v := must(t, base, 200, "POST", "/api/v1/x402/facilitator/verify", seller.Key, body); v["isValid"] != true {
			t.Fatalf("verify = %v", v)
		}
		first := must(t, base, 200, "POST", "/api/v1/x402/facilitator/settle", seller.Key, body)
		if first["success"] != true || first["network"] != d.CAIP2() || len(first["transaction"].(string)) != 66 || first["extra"] != nil {
			t.Fatalf("settle = %v", first)
		}
		again := must(t, base, 200, "POST", "/api/v1/x402/facilitator/settle", seller.Key, body)
		if again["transaction"] != first["transaction"] || again["success"] != true {
			t.Fatalf("settle again = %v, want %v", again, first)
		}
		if got := l.node.Balance(t, seller.Address); got != 250_000 {
			t.Fatalf("seller's wallet holds %d on chain, want 250000", got)
		}
		if n := l.node.Nonce(t, l.relayer.Address()); n != 1 {
			t.Fatalf("the relayer sent %d transactions, want 1", n)
		}
		sales := must(t, base, 200, "GET", "/api/v1/bot/sales", seller.Key, nil)["sales"].([]any)
		if len(sales) != 1 || sales[0].(map[string]any)["tx_hash"] != first["transaction"] ||
			sales[0].(map[string]any)["resource_url"] != "https://api.seller.example/weather" {
			t.Fatalf("sales = %v", sales)
		}
		failed := must(t, base, 200, "POST", "/api/v1/x402/facilitator/settle", seller.Key, foreign)
		if tx, ok := failed["transaction"]; failed["success"] != false || failed["errorReason"] != "invalid_payee" || !ok || tx != "" ||
			failed["network"] != d.CAIP2() {
			t.Fatalf("a failed settle = %v, want success false with transaction \"\" and the network", failed)
		}
		for _, path := range []string{"supported", "verify", "settle"} {
			method := "POST"
			if path == "supported" {
				method = "GET"
			}
			if status, _ := call(t, base, method, "/api/v1/x402/facilitator/"+path, "", body); status != 401 {
				t.Fatalf("%s without a key = %d, want 401", path, status)
			}
		}
		stockMiddlewareSettlesOnChain(t, l, seller, 250_000)
	})
}

// stockMiddlewareSettlesOnChain: a bot's own API behind the stock v2
// express middleware, its HTTP facilitator client pointed at botpay, is
// paid by the stock v2 client in the node's test token; the seller's
// processor wallet gains the price on chain (beyond held), with one more
// relayer transaction and one more sale.
func stockMiddlewareSettlesOnChain(t *testing.T, l *live, seller bot, held uint64) {
	t.Helper()
	base, d := l.srv.URL, l.node.Domain()
	payer, _ := x402.GenerateKey()
	l.node.Mint(t, payer.Address(), 1_000_000)
	sent := l.node.Nonce(t, l.relayer.Address())
	var got struct {
		Status          int                  `json:"status"`
		Body            map[string]any       `json:"body"`
		PaymentResponse *x402.SettleResponse `json:"paymentResponse"`
	}
	runInteropScript(t, &got, "facilitated.mjs", base, seller.Key, seller.Address.Hex(), hexKey(payer), d.CAIP2(),
		d.Contract.Hex(), d.Name, d.Version)
	pr := got.PaymentResponse
	if got.Status != 200 || got.Body["forecast"] != "sunny" || pr == nil || !pr.Success || pr.Network != d.CAIP2() ||
		!strings.EqualFold(pr.Payer, payer.Address().Hex()) || len(pr.Transaction) != 66 {
		t.Fatalf("stock client through the stock middleware = %+v", got)
	}
	if bal := l.node.Balance(t, seller.Address); bal != held+20_000 {
		t.Fatalf("seller's wallet holds %d on chain, want %d", bal, held+20_000)
	}
	if n := l.node.Nonce(t, l.relayer.Address()); n != sent+1 {
		t.Fatalf("the relayer sent %d transactions for one payment", n-sent)
	}
	listed := 0
	for _, s := range must(t, base, 200, "GET", "/api/v1/bot/sales", seller.Key, nil)["sales"].([]any) {
		if tx, _ := s.(map[string]any)["tx_hash"].(string); strings.EqualFold(tx, pr.Transaction) {
			listed++
		}
	}
	if listed != 1 {
		t.Fatalf("the middleware's payment is listed %d times, want once", listed)
	}
}
