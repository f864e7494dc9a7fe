package livetest

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// replaceAfter is how long these tests let a settlement wait unmined
// before the resume worker replaces it.
const replaceAfter = 50 * time.Millisecond

// replacing is a replica that replaces stuck settlements after
// replaceAfter: its resume worker, run by hand, and its waiting requests,
// which follow a replacement from then on.
func replacing(t *testing.T, l *live) *testserver.Server {
	chain := l.chain()
	chain.ReplaceAfter = replaceAfter
	opts := l.options()
	opts.Chain = chain
	return l.srv.Replica(t, opts)
}

// submitted waits for the one payment the service stored and sent.
func submitted(t *testing.T, l *live) payments.X402Payment {
	t.Helper()
	for range 200 {
		pays, err := l.srv.App.Payments().SubmittedX402Payments(context.Background(), time.Now().Add(time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(pays) == 1 {
			// The row is stored before the request sends it: a caller that
			// hangs up now would leave the node nothing to mine.
			inMempool(t, l, pays[0].TxHash)
			return pays[0]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no submitted payment")
	return payments.X402Payment{}
}

// inMempool waits until the node knows the transaction hash.
func inMempool(t *testing.T, l *live, hash string) {
	t.Helper()
	for range 200 {
		if known, err := l.node.RPC.KnowsTransaction(context.Background(), hash); err == nil && known {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the node never received %s", hash)
}

// replace runs one resume pass after the payment waited long enough and
// returns the replacement it stored.
func replace(t *testing.T, l *live, replica *testserver.Server, old payments.X402Payment) payments.X402Payment {
	t.Helper()
	time.Sleep(2 * replaceAfter)
	if err := replica.App.Payments().ResumePass(context.Background(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	now, err := l.srv.App.Payments().X402PaymentByID(context.Background(), old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if now.TxHash == old.TxHash || now.RelayerNonce != old.RelayerNonce {
		t.Fatalf("not replaced: %s (nonce %d), was %s (nonce %d)", now.TxHash, now.RelayerNonce, old.TxHash, old.RelayerNonce)
	}
	return now
}

// stalledPayment makes a seller's page and a payer's X-PAYMENT of $0.05
// for it, and stops the node mining.
func stalledPayment(t *testing.T, l *live) (seller bot, url, header string) {
	t.Helper()
	seller = walletBot(t, l.srv.URL, "seller")
	url = page(t, l.srv.URL, seller, 0.05)
	payer, _ := x402.GenerateKey()
	l.node.Mint(t, payer.Address(), 50_000)
	header = sign(l, payer, seller.Address, 50_000)
	l.node.Automine(t, false)
	return seller, url, header
}

// TestAStuckSettlementIsReplacedAndThePayingRequestFollowsIt: the node
// mines nothing while a settlement waits; the resume worker of another
// replica sends it again with higher fees and the same nonce. The buyer's
// request, still waiting, gets the sale of the replacement, paid once.
func TestAStuckSettlementIsReplacedAndThePayingRequestFollowsIt(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		answering, replica := replacing(t, l), replacing(t, l)
		seller, url, header := stalledPayment(t, l)
		var status int
		var body map[string]any
		var wg sync.WaitGroup
		wg.Go(func() {
			status, body = call(t, answering.URL, "GET", url[len(l.srv.URL):], "", nil, "X-PAYMENT", header)
		})
		old := submitted(t, l)
		next := replace(t, l, replica, old)
		if n := replica.App.Payments().ReplacedTransactions(); n != 1 { // botpay_relayer_replaced_transactions_total
			t.Fatalf("the replica counts %d replaced transactions, want 1", n)
		}
		if known, _ := l.node.RPC.KnowsTransaction(context.Background(), old.TxHash); known {
			t.Fatal("the node still holds the replaced transaction")
		}
		l.node.Mine(t)
		l.node.Automine(t, true)
		wg.Wait()
		if status != http.StatusOK || body["tx_hash"] != next.TxHash {
			t.Fatalf("payment: %d %v, want 200 with the replacement %s", status, body, next.TxHash)
		}
		paidOnce(t, l, seller, 50_000)
	})
}

// TestAReplacedSettlementWhoseFirstTransactionIsMinedIsRecordedOnce: the
// transaction a replacement was meant to supersede is the one mined (the
// node never took the replacement). The sale is recorded once, with the
// hash that was mined, and the same X-PAYMENT returns it.
func TestAReplacedSettlementWhoseFirstTransactionIsMinedIsRecordedOnce(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		replica := replacing(t, l)
		seller, url, header := stalledPayment(t, l)
		hangUp(t, url, header) // the buyer gives up; only the worker goes on
		old := submitted(t, l)
		next := replace(t, l, replica, old)
		l.node.Drop(t, next.TxHash)
		raw, _ := evm.ParseHexBytes(old.RawTx)
		if _, err := l.node.RPC.SendRawTransaction(context.Background(), raw); err != nil {
			t.Fatal(err)
		}
		l.node.Mine(t)
		l.node.Automine(t, true)
		for range 2 {
			if err := replica.App.Payments().ResumePass(context.Background(), time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		status, body := call(t, l.srv.URL, "GET", url[len(l.srv.URL):], "", nil, "X-PAYMENT", header)
		if status != http.StatusOK || body["tx_hash"] != old.TxHash {
			t.Fatalf("the same X-PAYMENT again: %d %v, want 200 with the mined %s", status, body, old.TxHash)
		}
		paidOnce(t, l, seller, 50_000)
	})
}

// hangUp sends a payment and gives up on the answer before it comes.
func hangUp(t *testing.T, url, header string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-PAYMENT", header)
	client := &http.Client{Timeout: 300 * time.Millisecond}
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the payment answered %d while the node mined nothing", resp.StatusCode)
	}
}

// paidOnce checks the seller got micro once, on chain and in its sales.
func paidOnce(t *testing.T, l *live, seller bot, micro uint64) {
	t.Helper()
	if got := l.node.Balance(t, seller.Address); got != micro {
		t.Fatalf("seller holds %d, want %d", got, micro)
	}
	if sales := must(t, l.srv.URL, 200, "GET", "/api/v1/bot/sales", seller.Key, nil)["sales"].([]any); len(sales) != 1 {
		t.Fatalf("%d sales, want 1", len(sales))
	}
}

// TestAStuckRefundIsReplacedAndCompletesOnce: an on-chain refund waits
// unmined; another replica's resume worker replaces it. The refund
// succeeds once, with one event, under the replacement's hash.
func TestAStuckRefundIsReplacedAndCompletesOnce(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		replica := replacing(t, l)
		seller, buyer := walletBot(t, l.srv.URL, "seller"), walletBot(t, l.srv.URL, "buyer")
		l.node.Mint(t, buyer.Address, 300_000)
		saleID := liveSale(t, l, seller, buyer, 300_000)
		l.node.Automine(t, false)
		rf := must(t, l.srv.URL, 201, "POST", "/api/v1/bot/sales/"+saleID+"/refund", seller.Key, map[string]any{"reason": "stuck"})
		old := rf["tx_hash"].(string)
		time.Sleep(2 * replaceAfter)
		if err := replica.App.Payments().ResumeRefunds(context.Background(), time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		c, err := l.srv.App.Payments().ChainRefundByID(context.Background(), rf["refund_id"].(string))
		if err != nil || c.Refund.TxHash == old {
			t.Fatalf("refund after the resume pass: %+v %v, want a replacement of %s", c, err, old)
		}
		l.node.Mine(t)
		l.node.Automine(t, true)
		if err := replica.App.Payments().ResumeRefunds(context.Background(), time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		done := refundStatus(t, l, seller.ID, saleID, c.Refund.ID)
		if done.Status != botpay.RefundSucceeded || done.TxHash != c.Refund.TxHash {
			t.Fatalf("refund %+v, want succeeded with the replacement %s", done, c.Refund.TxHash)
		}
		if got := l.node.Balance(t, buyer.Address); got != 300_000 {
			t.Fatalf("payer holds %d after the refund", got)
		}
		time.Sleep(200 * time.Millisecond) // the answering replica's wait ends too
		if n := refundEvents(t, l, seller.ID); n != 1 {
			t.Fatalf("%d refund events, want 1", n)
		}
	})
}
