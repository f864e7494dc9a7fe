package livetest

import (
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// TestRacingSignaturesAndRefundsNeverPromiseMoreThanTheChainHolds: 20
// signatures of $1 and 5 on-chain refunds of $1 race on a processor
// wallet holding $10 on chain; at most $10 is promised, and after the
// refunds are mined every signature granted is paid on chain without a
// revert, leaving the wallet what it did not promise.
func TestRacingSignaturesAndRefundsNeverPromiseMoreThanTheChainHolds(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller, buyer := walletBot(t, base, "seller"), walletBot(t, base, "buyer")
		l.node.Mint(t, buyer.Address, 10_000_000)
		saleID := liveSale(t, l, seller, buyer, 10_000_000)
		payee, _ := x402.GenerateKey()
		var mu sync.Mutex
		var headers, refunds []string
		var wg sync.WaitGroup
		for i := range 25 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if i%5 == 0 {
					code, body := call(t, base, "POST", "/api/v1/bot/sales/"+saleID+"/refund", seller.Key, map[string]any{"amount_usd": 1, "reason": "race"})
					mu.Lock()
					defer mu.Unlock()
					if code == 201 {
						refunds = append(refunds, body["refund_id"].(string))
					} else if code != 402 || body["error"] != botpay.CodeInsufficientFunds {
						t.Errorf("racing refund: %d %v", code, body)
					}
					return
				}
				code, body := call(t, base, "POST", "/api/v1/processor-wallet/bot/sign", seller.Key, map[string]any{
					"resource_url": "https://vendor.example/x", "amount_usdc": 1_000_000, "recipient_address": payee.Address().Hex()})
				mu.Lock()
				defer mu.Unlock()
				if code == 200 {
					headers = append(headers, body["x_payment_header"].(string))
				} else if code != 403 || body["error"] != botpay.CodeInsufficientTokens {
					t.Errorf("racing signature: %d %v", code, body)
				}
			}()
		}
		wg.Wait()
		if promised := len(headers) + len(refunds); promised > 10 {
			t.Fatalf("%d signatures and %d refunds of $1 promised against $10", len(headers), len(refunds))
		}
		for _, id := range refunds {
			if done := refundStatus(t, l, seller.ID, saleID, id); done.Status != botpay.RefundSucceeded {
				t.Fatalf("refund %s ended %+v", id, done)
			}
		}
		for _, h := range headers {
			p, err := x402.Decode(h)
			if err != nil {
				t.Fatal(err)
			}
			l.node.Send(t, l.node.Deployer, &l.node.Token, settle.CallData(p)) // fails the test on a revert
		}
		want := uint64(10-len(headers)-len(refunds)) * 1_000_000
		if got := l.node.Balance(t, seller.Address); got != want {
			t.Fatalf("the seller's wallet holds %d after %d signatures and %d refunds, want %d", got, len(headers), len(refunds), want)
		}
	})
}
