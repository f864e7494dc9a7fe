package payments_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store/storetest"
)

// TestChainRefundsReserveTheSaleAndFinishOnce: an on-chain refund raises
// the sale's refunded total when stored pending (with the relayer nonce it
// took), completes or fails once, and a failure gives the amount back.
func TestChainRefundsReserveTheSaleAndFinishOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		bot := storetest.ClaimedBot(t, st, owner)
		if err := paymentsOf(st).CreateProcessorWalletAt(ctx, owner.ID, bot.ID, "0x00000000000000000000000000000000000000cc", []byte("sealed")); err != nil {
			t.Fatal(err)
		}
		page := storetest.Page(t, st, bot.ID, storetest.Cents(1000))
		sale, err := earningOf(st).RecordSale(ctx, botpay.SaleInput{PageID: page.ID, Method: botpay.MethodX402, BuyerType: botpay.BuyerWallet,
			BuyerIdentifier: "0x00000000000000000000000000000000000000aa", TxHash: "0x01", OnChain: true})
		if err != nil {
			t.Fatal(err)
		}
		relayer := payments.RelayerAccount{ChainID: 84532, Address: "0x00000000000000000000000000000000000000Bb"}
		submit := func(amount botpay.Money) (payments.ChainRefund, error) {
			rf := botpay.Refund{ID: botpay.NewID("rf_"), BotID: bot.ID, SaleID: sale.Sale.ID, Amount: amount, Reason: "r"}
			return paymentsOf(st).SubmitSaleRefund(ctx, rf, relayer, 0, payments.ChainBalance{Micro: 100_000_000, ReadAt: time.Now()}, func(n uint64) (payments.SignedSubmission, error) {
				return payments.SignedSubmission{Nonce: n, TxHash: fmt.Sprintf("0x%064x", n), RawTx: "0x02"}, nil
			})
		}
		first, err := submit(600)
		if err != nil || first.Refund.Status != botpay.RefundPending || first.Nonce != 0 || first.RawTx != "0x02" {
			t.Fatalf("first refund = %+v, %v", first, err)
		}
		_, err = submit(401)
		storetest.WantCode(t, err, botpay.CodeRefundExceedsAmount)
		if next, _ := paymentsOf(st).RelayerNextNonce(ctx, relayer); next != 1 {
			t.Fatalf("relayer next nonce %d after a refused refund, want 1 (rolled back)", next)
		}
		second, err := submit(400)
		if err != nil || second.Nonce != 1 {
			t.Fatalf("second refund = %+v, %v", second, err)
		}
		pending, err := paymentsOf(st).PendingChainRefunds(ctx, time.Now().Add(time.Minute), 10)
		if err != nil || len(pending) != 2 || pending[0].Refund.ID != first.Refund.ID || pending[1].RawTx != "0x02" {
			t.Fatalf("pending = %+v, %v", pending, err)
		}
		if done, err := earningOf(st).CompleteChainRefund(ctx, first.Refund.ID, first.Refund.TxHash, 400); err != nil || !done {
			t.Fatal(done, err)
		}
		if done, err := earningOf(st).CompleteChainRefund(ctx, first.Refund.ID, first.Refund.TxHash, 400); err != nil || done {
			t.Fatalf("second completion: %v, %v", done, err)
		}
		if done, err := earningOf(st).FailChainRefund(ctx, second.Refund.ID, "reverted"); err != nil || !done {
			t.Fatal(done, err)
		}
		if done, err := earningOf(st).FailChainRefund(ctx, first.Refund.ID, "reverted"); err != nil || done {
			t.Fatalf("failing a succeeded refund: %v, %v", done, err)
		}
		got, err := earningOf(st).SaleForRefund(ctx, bot.ID, sale.Sale.ID)
		if err != nil || got.Refunded != 600 {
			t.Fatalf("sale after one success and one failure = %+v, %v; want 600 refunded", got, err)
		}
		failed, err := paymentsOf(st).ChainRefundByID(ctx, second.Refund.ID)
		if err != nil || failed.Refund.Status != botpay.RefundFailed || failed.Failure != "reverted" {
			t.Fatalf("failed refund = %+v, %v", failed, err)
		}
		if n := countOf(storetest.EventTypes(t, st, bot.ID), botpay.EventRefundCompleted); n != 1 {
			t.Fatalf("%d refund events, want 1", n)
		}
		storetest.WantBooksBalanced(t, st, bot.ID, 0)
	})
}

func countOf(types []string, want string) int {
	n := 0
	for _, typ := range types {
		if typ == want {
			n++
		}
	}
	return n
}
