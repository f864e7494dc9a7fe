package payments_test

import (
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// autoShopper is a funded bot that buys without asking, up to $10 a day,
// with a processor wallet holding $100 of USDC.
func autoShopper(t *testing.T, st *store.Store) (botpay.Owner, botpay.Bot) {
	return autoShopperAt(t, st, "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23")
}

// autoShopperAt is autoShopper with its processor wallet at address (each
// wallet of a database has its own).
func autoShopperAt(t *testing.T, st *store.Store, address string) (botpay.Owner, botpay.Bot) {
	t.Helper()
	owner := storetest.NewOwner(t, st)
	b, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) { g.Daily, g.AskApprovalAbove = 1000, nil })
	if err := paymentsOf(st).CreateProcessorWalletAt(ctx, owner.ID, b.ID, address, []byte("sealed")); err != nil {
		t.Fatal(err)
	}
	if err := paymentsOf(st).FundProcessorWalletMicro(ctx, owner.ID, b.ID, 100_000_000, "test"); err != nil {
		t.Fatal(err)
	}
	return owner, b
}

// sign reserves a signature of micro USDC and returns the committed spend
// the decider saw.
func sign(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, micro botpay.Micro) botpay.SpentTotals {
	t.Helper()
	seen, _ := signAs(t, st, owner, b, micro, botpay.SigningVerdict{})
	return seen
}

// signAs reserves a signature judged v (signed, or held for the owner).
func signAs(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, micro botpay.Micro, v botpay.SigningVerdict) (botpay.SpentTotals, botpay.SigningRequest) {
	t.Helper()
	var seen botpay.SpentTotals
	r, _, err := paymentsOf(st).ReserveJudged(ctx, signingRequest(st, owner, b, micro, 300), nil,
		func(f botpay.SigningFacts) (botpay.SigningVerdict, error) {
			seen = f.Spent
			return v, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return seen, r
}

// signingRequest is a request of micro USDC valid for validFor seconds.
func signingRequest(st *store.Store, owner botpay.Owner, b botpay.Bot, micro botpay.Micro, validFor int64) botpay.SigningRequest {
	return botpay.SigningRequest{BotID: b.ID, OwnerID: owner.ID, ResourceURL: "https://v.example/x",
		ResourceHost: "v.example", Recipient: "0x209693bc6afc0c5328ba36faf03c514ef312287c", Amount: micro,
		Nonce: botpay.NewID("0x"), ValidBefore: st.Clock().Now().Unix() + validFor, Signature: "0xsig", Header: "h",
		ApprovalMode: botpay.ApprovalUnderThreshold}
}

// spendingOf is the spending capability over st, as app.New builds it
// without a sealer, owner notices or signing approvals; the tests change
// the owner-set rules both rails read through it.
func spendingOf(st *store.Store) *spending.Service {
	return spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Signing: storetest.HeldSigning(st)})
}

// buy is a card checkout of cents, through spending as the service wires
// it (the budgets the two rails share are the ledger's).
func buy(st *store.Store, b botpay.Bot, cents botpay.Money) (spending.CheckoutResult, error) {
	return spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
		Request: botpay.CheckoutRequest{Amount: cents, MerchantName: "Acme", MerchantURL: "acme.com"}})
}

// Card checkouts and x402 signatures share one daily budget: what a bot
// signs counts against its card checkouts and what it buys by card counts
// against its signatures, micro-USDC rounded up to whole cents.
func TestBudgetsAreSharedAcrossRails(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner, b := autoShopper(t, st)
		if seen := sign(t, st, owner, b, 6_000_001); seen.BotDay != 0 {
			t.Fatalf("first signature saw %d cents spent today, want 0", seen.BotDay)
		}
		// $6.000001 signed (601 cents rounded up) + $4.00 > $10.00.
		_, err := buy(st, b, 400)
		storetest.WantCode(t, err, botpay.CodeCardGuardrailViolation)
		res, err := buy(st, b, 399)
		if err != nil || res.Purchase.Status != botpay.PurchaseApproved {
			t.Fatalf("checkout of $3.99 = %+v, %v; want approved", res.Purchase, err)
		}
		if seen := sign(t, st, owner, b, 1); seen.BotDay != 1000 || seen.BotMonth != 1000 {
			t.Fatalf("signature saw day %d, month %d cents; want 1000 and 1000 (card $3.99 + signed $6.000001)", seen.BotDay, seen.BotMonth)
		}
	})
}

// A held signature counts against the budgets while the owner may still
// approve it; denial, or its approval window passing undecided, stops it
// counting.
func TestHeldSignaturesStopCountingWhenDeniedOrOverdue(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner, b := autoShopper(t, st)
		held := botpay.SigningVerdict{NeedsApproval: true}
		_, denied := signAs(t, st, owner, b, 2_000_000, held)
		if seen := sign(t, st, owner, b, 1); seen.BotDay != 200 {
			t.Fatalf("with $2 held: day = %d cents, want 200", seen.BotDay)
		}
		if _, err := paymentsOf(st).DecideHeld(ctx, owner.ID, denied.ID, payments.SigningDecision{Event: botpay.PurchaseRejectedData{}}); err != nil {
			t.Fatal(err)
		}
		if seen := sign(t, st, owner, b, 1); seen.BotDay != 1 {
			t.Fatalf("after the denial: day = %d cents, want 1 (two 1-micro signatures round up to one cent)", seen.BotDay)
		}
	})
	t.Run("overdue", func(t *testing.T) {
		for _, d := range storetest.Dialects {
			t.Run(string(d), func(t *testing.T) {
				st, clock := storetest.OpenWithClock(t, d)
				owner, b := autoShopper(t, st)
				signAs(t, st, owner, b, 3_000_000, botpay.SigningVerdict{NeedsApproval: true})
				clock.Advance(botpay.SigningApprovalWindow)
				if seen := sign(t, st, owner, b, 1); seen.BotDay != 0 {
					t.Fatalf("after the window: day = %d cents, want 0 (the $3 hold no longer counts)", seen.BotDay)
				}
			})
		}
	})
}
