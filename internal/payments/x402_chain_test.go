package payments_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

var testRelayer = payments.RelayerAccount{ChainID: 84532, Address: "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"}

func claimLive(t *testing.T, st *store.Store, page botpay.CheckoutPage, nonce string) int64 {
	t.Helper()
	id, err := paymentsOf(st).ClaimX402Payment(ctx, payments.X402Payment{Payer: "0x00000000000000000000000000000000000000aa", Nonce: nonce,
		PageID: page.ID, Amount: 19_990_000, Token: "0x036CbD53842c5426634e7929541eC2318f3dCF7e"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// raceReplicas runs do on every replica at once and counts the calls
// that succeeded and those refused with refused; any other error fails
// the test.
func raceReplicas(t *testing.T, replicas []*store.Store, refused error, do func(i int, st *store.Store) error) (wins, refusals int) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, replica := range replicas {
		wg.Go(func() {
			err := do(i, replica)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, refused):
				refusals++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	return wins, refusals
}

func fakeSigner(nonce uint64) (payments.SignedSubmission, error) {
	return payments.SignedSubmission{Nonce: nonce, TxHash: fmt.Sprintf("0x%064x", nonce+1000), RawTx: fmt.Sprintf("0x02%04x", nonce)}, nil
}

// Concurrent submissions (as from two replicas) take distinct relayer
// nonces with no gap, never below the node's pending count, and each
// payment is stored with the transaction signed for its nonce.
func TestSubmittingTakesEachRelayerNonceOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st, other := db.Store, db.OpenAnother(t)
		page := storetest.Page(t, st, storetest.ClaimedBot(t, st, storetest.NewOwner(t, st)).ID, storetest.Cents(1999))
		const n = 20
		got := make([]uint64, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			id := claimLive(t, st, page, fmt.Sprintf("0x%064x", i))
			replica := st
			if i%2 == 1 {
				replica = other
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				sub, err := paymentsOf(replica).SubmitX402Payment(ctx, id, testRelayer, 3, fakeSigner)
				if err != nil {
					t.Error(err)
					return
				}
				got[i] = sub.Nonce
				p, err := paymentsOf(st).X402PaymentByID(ctx, id)
				if err != nil || p.Status != payments.X402Submitted || p.RelayerNonce != sub.Nonce || p.TxHash != sub.TxHash || p.RawTx != sub.RawTx {
					t.Errorf("stored %+v, %v for %+v", p, err, sub)
				}
			}()
		}
		wg.Wait()
		seen := map[uint64]bool{}
		for _, nonce := range got {
			if seen[nonce] || nonce < 3 || nonce >= 3+n {
				t.Fatalf("nonces %v", got)
			}
			seen[nonce] = true
		}
		if next, _ := paymentsOf(st).RelayerNextNonce(ctx, testRelayer); next != 3+n {
			t.Fatalf("next nonce %d", next)
		}
		// The node's count wins when it is ahead (the account was used by hand).
		id := claimLive(t, st, page, fmt.Sprintf("0x%064x", 999))
		if sub, err := paymentsOf(st).SubmitX402Payment(ctx, id, testRelayer, 100, fakeSigner); err != nil || sub.Nonce != 100 {
			t.Fatalf("behind the node: %+v %v", sub, err)
		}
	})
}

// A signing failure takes no nonce; a payment that is not a fresh claim
// is not submitted.
func TestSubmittingRollsBackWithoutItsTransaction(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		page := storetest.Page(t, st, storetest.ClaimedBot(t, st, storetest.NewOwner(t, st)).ID, storetest.Cents(1999))
		id := claimLive(t, st, page, fmt.Sprintf("0x%064x", 1))
		boom := errors.New("boom")
		if _, err := paymentsOf(st).SubmitX402Payment(ctx, id, testRelayer, 0, func(uint64) (payments.SignedSubmission, error) { return payments.SignedSubmission{}, boom }); !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if next, _ := paymentsOf(st).RelayerNextNonce(ctx, testRelayer); next != 0 {
			t.Fatalf("a failed signing took nonce: next %d", next)
		}
		if _, err := paymentsOf(st).SubmitX402Payment(ctx, id, testRelayer, 0, fakeSigner); err != nil {
			t.Fatal(err)
		}
		if _, err := paymentsOf(st).SubmitX402Payment(ctx, id, testRelayer, 0, fakeSigner); !errors.Is(err, payments.ErrNotSubmittable) {
			t.Fatalf("second submission: %v", err)
		}
		if next, _ := paymentsOf(st).RelayerNextNonce(ctx, testRelayer); next != 1 {
			t.Fatalf("next %d", next)
		}
	})
}

// Confirmation records the sale once across concurrent finishers, credits
// no ledger balance (the money is on chain), and takes the payment out of
// the resume queue; a failure is final.
func TestConfirmingASubmittedPaymentRecordsItsSaleOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st, other := db.Store, db.OpenAnother(t)
		bot := storetest.ClaimedBot(t, st, storetest.NewOwner(t, st))
		page := storetest.Page(t, st, bot.ID, storetest.Cents(1999))
		id := claimLive(t, st, page, fmt.Sprintf("0x%064x", 1))
		sub, err := paymentsOf(st).SubmitX402Payment(ctx, id, testRelayer, 0, fakeSigner)
		if err != nil {
			t.Fatal(err)
		}
		queue, err := paymentsOf(st).SubmittedX402Payments(ctx, st.Clock().Now().Add(1e9), 10)
		if err != nil || len(queue) != 1 || queue[0].ID != id || queue[0].RawTx != sub.RawTx {
			t.Fatalf("queue %+v %v", queue, err)
		}
		in := botpay.SaleInput{PageID: page.ID, Method: botpay.MethodX402, BuyerType: botpay.BuyerWallet,
			BuyerIdentifier: "0x00000000000000000000000000000000000000aa", TxHash: sub.TxHash, OnChain: true}
		wins, elsewhere := raceReplicas(t, []*store.Store{st, other, st, other}, payments.ErrSettledElsewhere,
			func(_ int, replica *store.Store) error {
				_, err := paymentsOf(replica).ConfirmX402Payment(ctx, id, in)
				return err
			})
		if wins != 1 || elsewhere != 3 {
			t.Fatalf("wins %d, elsewhere %d", wins, elsewhere)
		}
		sale, err := earningOf(st).SaleByTxHash(ctx, sub.TxHash)
		if err != nil || sale.Amount != 1999 {
			t.Fatalf("sale %+v %v", sale, err)
		}
		w, _, err := storetest.Wallets(st).WalletView(ctx, bot.ID)
		if err != nil || w.Wallet.Balance != 0 {
			t.Fatalf("card wallet credited for an on-chain sale: %+v %v", w, err)
		}
		if queue, _ := paymentsOf(st).SubmittedX402Payments(ctx, st.Clock().Now().Add(1e9), 10); len(queue) != 0 {
			t.Fatalf("queue after confirmation %+v", queue)
		}
		if err := paymentsOf(st).FailX402Payment(ctx, id, "late"); err != nil {
			t.Fatal(err)
		}
		if p, _ := paymentsOf(st).X402PaymentByID(ctx, id); p.Status != payments.X402Confirmed {
			t.Fatalf("a confirmed payment became %s", p.Status)
		}
	})
}
