package livetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
)

// liveSale has buyer's processor wallet pay a page of seller on chain and
// returns the sale's id.
func liveSale(t *testing.T, l *live, seller, buyer bot, micro int) string {
	t.Helper()
	base := l.srv.URL
	url := page(t, base, seller, float64(micro)/1e6)
	signed := must(t, base, 200, "POST", "/api/v1/processor-wallet/bot/sign", buyer.Key, map[string]any{
		"resource_url": url, "amount_usdc": micro, "recipient_address": seller.Address.Hex()})
	code, paid := call(t, base, "GET", url[len(base):], "", nil, "X-PAYMENT", signed["x_payment_header"].(string))
	if code != 200 || paid["status"] != "confirmed" {
		t.Fatalf("paying the page: %d %v", code, paid)
	}
	return paid["sale_id"].(string)
}

// refundStatus waits until the refund is no longer pending.
func refundStatus(t *testing.T, l *live, botID, saleID, refundID string) botpay.Refund {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		rfs, err := l.srv.App.Earning().RefundsOf(context.Background(), botID, saleID)
		if err != nil {
			t.Fatal(err)
		}
		for _, rf := range rfs {
			if rf.ID == refundID && (rf.Status != botpay.RefundPending || time.Now().After(deadline)) {
				return rf
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func refundEvents(t *testing.T, l *live, botID string) int {
	t.Helper()
	evs, err := storetest.OutboxOf(l.srv.Store).Events(context.Background(), botID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Type == botpay.EventRefundCompleted {
			n++
		}
	}
	return n
}

func saleRefunded(t *testing.T, l *live, seller bot) any {
	t.Helper()
	sales := must(t, l.srv.URL, 200, "GET", "/api/v1/bot/sales", seller.Key, nil)["sales"].([]any)
	return sales[0].(map[string]any)["refunded_usd"]
}

// TestLiveSaleRefundedOnChainPartlyThenFully: a live x402 sale is paid
// back on chain in two refunds; the payer gains exactly them and the
// seller's processor wallet loses them, each refund goes pending →
// succeeded with one event, and a refund beyond the sale sends nothing.
func TestLiveSaleRefundedOnChainPartlyThenFully(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller, buyer := walletBot(t, base, "seller"), walletBot(t, base, "buyer")
		l.node.Mint(t, buyer.Address, 1_500_000)
		saleID := liveSale(t, l, seller, buyer, 1_000_000)
		path := "/api/v1/bot/sales/" + saleID + "/refund"

		for i, want := range []struct {
			body          map[string]any
			payer, seller uint64
		}{
			{map[string]any{"amount_usd": 0.40, "reason": "part"}, 900_000, 600_000},
			{map[string]any{"reason": "the rest"}, 1_500_000, 0},
		} {
			rf := must(t, base, 201, "POST", path, seller.Key, want.body)
			if rf["status"] != botpay.RefundPending || rf["tx_hash"] == nil || rf["sale_id"] != saleID {
				t.Fatalf("refund %d answered %v", i, rf)
			}
			done := refundStatus(t, l, seller.ID, saleID, rf["refund_id"].(string))
			if done.Status != botpay.RefundSucceeded || done.TxHash != rf["tx_hash"] || done.CompletedAt.IsZero() {
				t.Fatalf("refund %d ended %+v", i, done)
			}
			if got := l.node.Balance(t, buyer.Address); got != want.payer {
				t.Fatalf("after refund %d the payer holds %d, want %d", i, got, want.payer)
			}
			if got := l.node.Balance(t, seller.Address); got != want.seller {
				t.Fatalf("after refund %d the seller's wallet holds %d, want %d", i, got, want.seller)
			}
			if n := refundEvents(t, l, seller.ID); n != i+1 {
				t.Fatalf("after refund %d: %d refund events", i, n)
			}
		}
		nonce := l.node.Nonce(t, l.relayer.Address())
		if code, body := call(t, base, "POST", path, seller.Key, map[string]any{"amount_usd": 0.01, "reason": "more"}); code != 409 || body["error"] != botpay.CodeRefundExceedsAmount {
			t.Fatalf("refund beyond the sale: %d %v", code, body)
		}
		if n := l.node.Nonce(t, l.relayer.Address()); n != nonce {
			t.Fatalf("a refused refund sent a transaction: relayer nonce %d → %d", nonce, n)
		}
		if got := saleRefunded(t, l, seller); got != 1.0 {
			t.Fatalf("sale refunded_usd = %v", got)
		}
		if n := refundEvents(t, l, seller.ID); n != 2 {
			t.Fatalf("%d refund events, want 2", n)
		}
	})
}

// TestLiveSaleRefundRefusals: a processor wallet short of the tokens is
// refused with nothing sent or recorded; racing refunds never sum above
// the sale; a refund the chain reverts is failed and its amount can be
// refunded again.
func TestLiveSaleRefundRefusals(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller, buyer, other := walletBot(t, base, "seller"), walletBot(t, base, "buyer"), walletBot(t, base, "other")
		l.node.Mint(t, buyer.Address, 1_000_000)
		saleID := liveSale(t, l, seller, buyer, 1_000_000)
		path := "/api/v1/bot/sales/" + saleID + "/refund"

		racing(t, l, seller, saleID, path)
		liveSale(t, l, other, seller, 300_000) // the seller's wallet now holds $0.10 of the $0.40 left
		nonce := l.node.Nonce(t, l.relayer.Address())
		if code, body := call(t, base, "POST", path, seller.Key, map[string]any{"amount_usd": 0.20, "reason": "x"}); code != 402 || body["error"] != botpay.CodeInsufficientFunds {
			t.Fatalf("refund above the processor wallet: %d %v", code, body)
		}
		if n := l.node.Nonce(t, l.relayer.Address()); n != nonce {
			t.Fatalf("the refused refund sent a transaction")
		}
		if rfs, _ := l.srv.App.Earning().RefundsOf(context.Background(), seller.ID, saleID); len(rfs) != 1 {
			t.Fatalf("refunds after the refusal: %+v", rfs)
		}
		if got := saleRefunded(t, l, seller); got != 0.6 {
			t.Fatalf("sale refunded_usd after the refusal = %v", got)
		}
		reverted(t, l, seller, saleID, path)
	})
}

// racing sends two refunds of $0.60 of the $1 sale at once: one is taken
// and completes, the other is refused with nothing sent.
func racing(t *testing.T, l *live, seller bot, saleID, path string) {
	t.Helper()
	var wg sync.WaitGroup
	codes, ids := make([]int, 2), make([]string, 2)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var body map[string]any
			codes[i], body = call(t, l.srv.URL, "POST", path, seller.Key, map[string]any{"amount_usd": 0.60, "reason": "race"})
			ids[i], _ = body["refund_id"].(string)
		}()
	}
	wg.Wait()
	// The loser is refused by the store (409, the sale's remainder) or,
	// when the winner was mined first, by the chain check (402).
	if codes[0]+codes[1] != 201+409 && codes[0]+codes[1] != 201+402 {
		t.Fatalf("racing refunds answered %v", codes)
	}
	if done := refundStatus(t, l, seller.ID, saleID, ids[0]+ids[1]); done.Status != botpay.RefundSucceeded {
		t.Fatalf("the refund that won the race: %+v", done)
	}
	if got := saleRefunded(t, l, seller); got != 0.6 {
		t.Fatalf("sale refunded_usd after the race = %v", got)
	}
}

// reverted has a refund of $0.10 pass the checks while the seller's
// wallet holds $0.10, then the wallet emptied before it is mined: it
// reverts, is failed, and its amount is left to refund again.
func reverted(t *testing.T, l *live, seller bot, saleID, path string) {
	t.Helper()
	events := refundEvents(t, l, seller.ID)
	l.node.Automine(t, false)
	rf := must(t, l.srv.URL, 201, "POST", path, seller.Key, map[string]any{"amount_usd": 0.10, "reason": "lost"})
	if got := saleRefunded(t, l, seller); got != 0.7 {
		t.Fatalf("sale refunded_usd while pending = %v, want 0.7", got)
	}
	l.node.SetBalance(t, seller.Address, 0)
	l.node.Mine(t)
	l.node.Automine(t, true)
	if done := refundStatus(t, l, seller.ID, saleID, rf["refund_id"].(string)); done.Status != botpay.RefundFailed {
		t.Fatalf("reverted refund: %+v", done)
	}
	if got := saleRefunded(t, l, seller); got != 0.6 {
		t.Fatalf("sale refunded_usd after the revert = %v, want 0.6", got)
	}
	if n := refundEvents(t, l, seller.ID); n != events {
		t.Fatalf("refund events %d → %d for a reverted refund", events, n)
	}
}

// TestLostRefundTransactionIsResumedOnce: the node loses a pending
// refund's transaction; the resume worker of another replica sends the
// stored bytes again and, once mined, the refund succeeds — once, with
// one event, though the answering replica waits for it too.
func TestLostRefundTransactionIsResumedOnce(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		replica := l.srv.Replica(t, l.options())
		seller, buyer := walletBot(t, base, "seller"), walletBot(t, base, "buyer")
		l.node.Mint(t, buyer.Address, 1_000_000)
		saleID := liveSale(t, l, seller, buyer, 1_000_000)
		l.node.Automine(t, false)
		rf := must(t, base, 201, "POST", "/api/v1/bot/sales/"+saleID+"/refund", seller.Key, map[string]any{"reason": "lost"})
		l.node.Drop(t, rf["tx_hash"].(string))
		later := time.Now().Add(time.Minute)
		for range 2 {
			if err := replica.App.Payments().ResumeRefunds(context.Background(), later); err != nil {
				t.Fatal(err)
			}
			l.node.Mine(t)
		}
		l.node.Automine(t, true)
		for range 3 {
			if err := replica.App.Payments().ResumeRefunds(context.Background(), later); err != nil {
				t.Fatal(err)
			}
		}
		if done := refundStatus(t, l, seller.ID, saleID, rf["refund_id"].(string)); done.Status != botpay.RefundSucceeded {
			t.Fatalf("resumed refund: %+v", done)
		}
		if got := l.node.Balance(t, buyer.Address); got != 1_000_000 {
			t.Fatalf("payer holds %d after the refund", got)
		}
		time.Sleep(200 * time.Millisecond) // the answering replica's wait ends too
		if n := refundEvents(t, l, seller.ID); n != 1 {
			t.Fatalf("%d refund events, want 1", n)
		}
	})
}
