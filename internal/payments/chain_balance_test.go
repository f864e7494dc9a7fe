package payments_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// chainSeller is a bot with a processor wallet at address and one live
// on-chain sale of $10 paid into it.
func chainSeller(t *testing.T, st *store.Store, address string) (botpay.Owner, botpay.Bot, string) {
	t.Helper()
	owner := storetest.NewOwner(t, st)
	b, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) { g.Daily, g.Monthly, g.AskApprovalAbove = 100000, 100000, nil })
	if err := paymentsOf(st).CreateProcessorWalletAt(ctx, owner.ID, b.ID, address, []byte("sealed")); err != nil {
		t.Fatal(err)
	}
	sale, err := earningOf(st).RecordSale(ctx, botpay.SaleInput{PageID: storetest.Page(t, st, b.ID, storetest.Cents(1000)).ID, Method: botpay.MethodX402,
		BuyerType: botpay.BuyerWallet, BuyerIdentifier: "0x00000000000000000000000000000000000000aa", TxHash: "0x" + address[2:], OnChain: true})
	if err != nil {
		t.Fatal(err)
	}
	return owner, b, sale.Sale.ID
}

// onChain is the processor wallet's token balance the tests pretend the
// chain holds: $10.
const onChain botpay.Micro = 10_000_000

func chainBalance(st *store.Store) payments.ChainBalance {
	return payments.ChainBalance{Micro: onChain, ReadAt: st.Clock().Now()}
}

// signOnChain asks to sign micro against the chain balance, signing when
// what is available covers it (as the service's decider does).
func signOnChain(st *store.Store, owner botpay.Owner, b botpay.Bot, micro botpay.Micro) error {
	_, _, err := paymentsOf(st).ReserveJudged(ctx, signingRequest(st, owner, b, micro, 60), &payments.ChainBalance{Micro: onChain, ReadAt: st.Clock().Now()},
		func(f botpay.SigningFacts) (botpay.SigningVerdict, error) {
			if micro > f.Available {
				return botpay.SigningVerdict{}, botpay.Errorf(botpay.KindForbidden, botpay.CodeInsufficientTokens, "short")
			}
			return botpay.SigningVerdict{}, nil
		})
	return err
}

var refundNonce atomic.Uint64

func refundOnChain(st *store.Store, b botpay.Bot, saleID string, amount botpay.Money) error {
	rf := botpay.Refund{ID: botpay.NewID("rf_"), BotID: b.ID, SaleID: saleID, Amount: amount, Reason: "r"}
	relayer := payments.RelayerAccount{ChainID: 84532, Address: "0x00000000000000000000000000000000000000Bb"}
	_, err := paymentsOf(st).SubmitSaleRefund(ctx, rf, relayer, 0, chainBalance(st), func(n uint64) (payments.SignedSubmission, error) {
		return payments.SignedSubmission{Nonce: n, TxHash: fmt.Sprintf("0x%064x", refundNonce.Add(1)), RawTx: "0x02"}, nil
	})
	return err
}

// TestSignaturesAndChainRefundsPromiseOneBalance: in live mode a processor
// wallet's outstanding signatures and its pending on-chain refunds reserve
// from the one token balance on chain: a refund cannot promise what a
// signature holds (402 insufficient_funds) nor a signature what a refund
// holds (403 insufficient_token_balance), whichever comes first.
func TestSignaturesAndChainRefundsPromiseOneBalance(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner, signedFirst, sale := chainSeller(t, st, "0x00000000000000000000000000000000000000d1")
		if err := signOnChain(st, owner, signedFirst, onChain); err != nil {
			t.Fatalf("signing the whole balance: %v", err)
		}
		storetest.WantCode(t, refundOnChain(st, signedFirst, sale, 1000), botpay.CodeInsufficientFunds)
		if got, _ := earningOf(st).SaleForRefund(ctx, signedFirst.ID, sale); got.Refunded != 0 {
			t.Fatalf("a refused refund left %d cents refunded", got.Refunded)
		}

		owner, refundedFirst, sale := chainSeller(t, st, "0x00000000000000000000000000000000000000d2")
		if err := refundOnChain(st, refundedFirst, sale, 600); err != nil {
			t.Fatalf("refunding $6 of $10: %v", err)
		}
		storetest.WantCode(t, signOnChain(st, owner, refundedFirst, 4_000_001), botpay.CodeInsufficientTokens)
		if err := signOnChain(st, owner, refundedFirst, 4_000_000); err != nil {
			t.Fatalf("signing the $4 the refund leaves: %v", err)
		}
	})
}

// TestRacingSignaturesAndChainRefundsNeverPromiseMoreThanTheBalance: 20
// signatures of $1 and 5 refunds of $1 race on a wallet holding $10 on
// chain; exactly $10 is promised, on both engines.
func TestRacingSignaturesAndChainRefundsNeverPromiseMoreThanTheBalance(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner, b, sale := chainSeller(t, st, "0x00000000000000000000000000000000000000d3")
		var wg sync.WaitGroup
		var promised atomic.Int64
		for i := range 25 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if i%5 == 0 {
					err = refundOnChain(st, b, sale, 100)
				} else {
					err = signOnChain(st, owner, b, 1_000_000)
				}
				if code := botpay.AsError(err); err != nil && (code == nil ||
					(code.Code != botpay.CodeInsufficientFunds && code.Code != botpay.CodeInsufficientTokens)) {
					t.Errorf("racing request: %v", err)
				}
				if err == nil {
					promised.Add(1_000_000)
				}
			}()
		}
		wg.Wait()
		if got := botpay.Micro(promised.Load()); got != onChain {
			t.Fatalf("racing requests promised %d of %d", got, onChain)
		}
	})
}
