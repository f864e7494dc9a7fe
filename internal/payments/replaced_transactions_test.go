package payments_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Replicas replacing one stuck transaction at once: one replacement is
// stored, its predecessor is kept, and a payment once confirmed (with the
// hash that was mined) is replaced no more.
func TestAStuckTransactionIsReplacedOnceAcrossReplicas(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st, other := db.Store, db.OpenAnother(t)
		bot := storetest.ClaimedBot(t, st, storetest.NewOwner(t, st))
		page := storetest.Page(t, st, bot.ID, storetest.Cents(1999))
		id := claimLive(t, st, page, fmt.Sprintf("0x%064x", 2))
		first, err := paymentsOf(st).SubmitX402Payment(ctx, id, testRelayer, 0, fakeSigner)
		if err != nil {
			t.Fatal(err)
		}
		wins, lost := raceReplicas(t, []*store.Store{st, other, st, other}, payments.ErrNotReplaceable,
			func(i int, replica *store.Store) error {
				next := payments.SignedSubmission{Nonce: first.Nonce, TxHash: fmt.Sprintf("0x%064x", 9000+i), RawTx: fmt.Sprintf("0x02ff%02x", i)}
				return paymentsOf(replica).ReplaceX402Transaction(ctx, id, first.TxHash, next)
			})
		if wins != 1 || lost != 3 {
			t.Fatalf("wins %d, lost %d", wins, lost)
		}
		pay, err := paymentsOf(st).X402PaymentByID(ctx, id)
		if err != nil || pay.TxHash == first.TxHash || pay.RelayerNonce != first.Nonce {
			t.Fatalf("payment after the replacement %+v %v", pay, err)
		}
		replaced, err := paymentsOf(st).ReplacedHashes(ctx, payments.ReplacedX402Payment, fmt.Sprint(id))
		if err != nil || len(replaced) != 1 || replaced[0] != first.TxHash {
			t.Fatalf("replaced %v %v, want [%s]", replaced, err, first.TxHash)
		}
		in := botpay.SaleInput{PageID: page.ID, Method: botpay.MethodX402, BuyerType: botpay.BuyerWallet,
			BuyerIdentifier: "0x00000000000000000000000000000000000000aa", TxHash: first.TxHash, OnChain: true}
		if _, err := paymentsOf(st).ConfirmX402Payment(ctx, id, in); err != nil {
			t.Fatal(err)
		}
		if pay, _ := paymentsOf(st).X402PaymentByID(ctx, id); pay.TxHash != first.TxHash {
			t.Fatalf("confirmed with %s, want the mined %s", pay.TxHash, first.TxHash)
		}
		late := payments.SignedSubmission{Nonce: first.Nonce, TxHash: fmt.Sprintf("0x%064x", 9999), RawTx: "0x02ee"}
		if err := paymentsOf(st).ReplaceX402Transaction(ctx, id, first.TxHash, late); !errors.Is(err, payments.ErrNotReplaceable) {
			t.Fatalf("replacing a confirmed payment: %v, want ErrNotReplaceable", err)
		}
	})
}
