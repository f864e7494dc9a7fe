package livetest

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// TestRacingPayersAtALinkSendOneTransaction: payers racing for one live
// payment link, each with a valid authorization and the funds: exactly one
// is settled on chain; the others are answered 409 payment_link_not_pending
// and their authorizations are never sent (the relayer sends one
// transaction; their balances stay whole).
func TestRacingPayersAtALinkSendOneTransaction(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller := walletBot(t, base, "seller")
		_, url := paymentLink(t, base, seller, 1)
		const racers = 4
		payers := make([]x402.Key, racers)
		headers := make([]string, racers)
		for i := range payers {
			payers[i], _ = x402.GenerateKey()
			l.node.Mint(t, payers[i].Address(), 2_000_000)
			headers[i] = sign(l, payers[i], seller.Address, 1_000_000)
		}
		statuses := make([]int, racers)
		answers := make([]map[string]any, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() {
				statuses[i], answers[i] = call(t, base, "POST", url[len(base):], "", nil, "X-PAYMENT", headers[i])
			})
		}
		wg.Wait()
		paid := 0
		for i, status := range statuses {
			switch {
			case status == 200:
				paid++
			case status == 409 && answers[i]["error"] == "payment_link_not_pending":
				if got := l.node.Balance(t, payers[i].Address()); got != 2_000_000 {
					t.Errorf("a refused payer holds %d, want 2000000", got)
				}
			default:
				t.Errorf("racer: %d %v", status, answers[i])
			}
		}
		if paid != 1 {
			t.Fatalf("%d racers paid, want 1", paid)
		}
		if got, n := l.node.Balance(t, seller.Address), l.node.Nonce(t, l.relayer.Address()); got != 1_000_000 || n != 1 {
			t.Fatalf("seller holds %d after %d relayer transactions, want 1000000 after 1", got, n)
		}
	})
}

// TestAHeldLinkIsRecordedWhenTheChainConfirmsItAfterExpiry: a payment
// claims a live link while it is pending; its transaction is mined only
// after the link's 24 hours ran out and after the buyer hung up. The
// resume worker records the sale, the link completes, and the same
// X-PAYMENT answers that sale: the payer's money is never left unrecorded.
func TestAHeldLinkIsRecordedWhenTheChainConfirmsItAfterExpiry(t *testing.T) {
	chaintest.Require(t)
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Now())
		node := chaintest.Start(t)
		relayer, _ := x402.GenerateKey()
		node.FundGas(t, relayer.Address())
		l := &live{t: t, node: node, relayer: relayer}
		opts := l.options()
		opts.Clock = clock
		l.srv = testserver.Start(t, d, opts)
		base := l.srv.URL
		seller := walletBot(t, base, "seller")
		id, url := paymentLink(t, base, seller, 0.5)
		payer, _ := x402.GenerateKey()
		l.node.Mint(t, payer.Address(), 500_000)
		header := sign(l, payer, seller.Address, 500_000)
		l.node.Automine(t, false)
		hangUp(t, url, header)
		submitted(t, l)
		clock.Advance(botpay.PaymentLinkLifetime + time.Minute)
		l.node.Mine(t)
		l.node.Automine(t, true)
		if err := l.srv.App.Payments().ResumePass(context.Background(), time.Now().Add(48*time.Hour)); err != nil {
			t.Fatal(err)
		}
		status, body := call(t, base, "POST", url[len(base):], "", nil, "X-PAYMENT", header)
		if status != http.StatusOK || body["payment_link_id"] != id || body["status"] != "completed" {
			t.Fatalf("the same X-PAYMENT after the worker: %d %v", status, body)
		}
		paidOnce(t, l, seller, 500_000)
		links := must(t, base, 200, "GET", "/api/v1/bot/payments/links?status=completed", seller.Key, nil)["payment_links"].([]any)
		if len(links) != 1 {
			t.Fatalf("completed links = %v", links)
		}
	})
}
