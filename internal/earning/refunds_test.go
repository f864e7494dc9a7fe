package earning_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// approvedPurchase is an auto-approved $amount checkout of a funded shopper.
func approvedPurchase(t *testing.T, st *store.Store, b botpay.Bot, amount botpay.Money) botpay.Purchase {
	t.Helper()
	res, err := spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
		Request: botpay.CheckoutRequest{Amount: amount, MerchantName: "Acme", MerchantURL: "acme.com"}})
	if err != nil || res.Purchase.Status != botpay.PurchaseApproved {
		t.Fatalf("checkout = %+v, %v; want approved", res.Purchase, err)
	}
	return res.Purchase
}

// soldByCard records a card (onramp) sale of amount on a new page of the bot.
func soldByCard(t *testing.T, st *store.Store, botID string, amount botpay.Money) botpay.SaleResult {
	t.Helper()
	page := storetest.Page(t, st, botID, storetest.Cents(amount))
	sale, err := earningOf(st).RecordSale(ctx, botpay.SaleInput{PageID: page.ID, Method: botpay.MethodProcessorOnramp,
		BuyerType: botpay.BuyerEmail, BuyerIdentifier: "b@example.com", BuyerEmail: "b@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return sale
}

func refundOf(amount botpay.Money) botpay.RefundRequest {
	return botpay.RefundRequest{Amount: &amount, Reason: "returned"}
}

func TestPurchaseRefundsCreditTheWalletUpToThePurchase(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		bot, _ := storetest.Shopper(t, st, owner, func(*botpay.Guardrails) {})
		p := approvedPurchase(t, st, bot, 2500)
		storetest.WantBooksBalanced(t, st, bot.ID, 100000-2500)

		res, err := earningOf(st).RefundPurchaseResult(ctx, owner.ID, p.ID, refundOf(1000))
		if err != nil {
			t.Fatal(err)
		}
		if res.Refund.Amount != 1000 || res.Refund.Status != botpay.RefundSucceeded || res.Refund.PurchaseID != p.ID {
			t.Errorf("refund = %+v", res.Refund)
		}
		storetest.WantBooksBalanced(t, st, bot.ID, 100000-1500)
		// The default refunds what is left, and nothing is left after it.
		if res, err = earningOf(st).RefundPurchaseResult(ctx, owner.ID, p.ID, botpay.RefundRequest{}); err != nil || res.Refund.Amount != 1500 {
			t.Fatalf("refund of the rest = %+v, %v", res.Refund, err)
		}
		_, err = earningOf(st).RefundPurchaseResult(ctx, owner.ID, p.ID, refundOf(1))
		storetest.WantCode(t, err, botpay.CodeRefundExceedsAmount)
		storetest.WantBooksBalanced(t, st, bot.ID, 100000)
		types := storetest.EventTypes(t, st, bot.ID)
		if n := countOf(types, botpay.EventRefundCompleted); n != 2 {
			t.Errorf("events %v: %d refund events, want 2", types, n)
		}
		refunds, err := earningOf(st).RefundsOf(ctx, bot.ID, p.ID)
		if err != nil || len(refunds) != 2 || refunds[0].Amount != 1000 || refunds[1].Amount != 1500 {
			t.Errorf("refunds of the purchase = %+v, %v; want $10 then $15, in the order they were made", refunds, err)
		}
	})
}

func TestPurchaseRefundRefusals(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		bot, _ := storetest.HeldShopper(t, st, owner)
		held := storetest.Hold(t, st, bot, 700)
		cases := []struct {
			name    string
			ownerID string
			id      string
			req     botpay.RefundRequest
			code    string
		}{
			{"a held purchase moved no money", owner.ID, held.ID, botpay.RefundRequest{}, botpay.CodeNotRefundable},
			{"another owner's purchase is not found", storetest.NewOwner(t, st).ID, held.ID, botpay.RefundRequest{}, botpay.CodeNotFound},
			{"a missing purchase is not found", owner.ID, "chk_0000000000000000", botpay.RefundRequest{}, botpay.CodeNotFound},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := earningOf(st).RefundPurchaseResult(ctx, c.ownerID, c.id, c.req)
				storetest.WantCode(t, err, c.code)
			})
		}
		storetest.WantBooksBalanced(t, st, bot.ID, 100000)
	})
}

func TestSaleRefundsDebitTheWalletNeverBelowZero(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		bot := storetest.ClaimedBot(t, st, owner)
		sale := soldByCard(t, st, bot.ID, 1999)
		if _, err := earningOf(st).RefundSaleFromWallet(ctx, bot.ID, sale.Sale.ID, refundOf(2000)); err == nil {
			t.Fatal("a refund above the sale succeeded")
		} else {
			storetest.WantCode(t, err, botpay.CodeRefundExceedsAmount)
		}
		res, err := earningOf(st).RefundSaleFromWallet(ctx, bot.ID, sale.Sale.ID, refundOf(999))
		if err != nil || res.Wallet.Balance != 1000 || res.Refund.SaleID != sale.Sale.ID {
			t.Fatalf("refund = %+v, %v", res, err)
		}
		storetest.WantBooksBalanced(t, st, bot.ID, 1000)
		// The bot spends what it holds; the rest of the sale cannot be paid back.
		if _, err := earningOf(st).RefundSaleFromWallet(ctx, bot.ID, sale.Sale.ID, refundOf(1000)); err != nil {
			t.Fatal(err)
		}
		sales, err := earningOf(st).SalesOf(ctx, bot.ID, botpay.SaleFilter{}, botpay.PageRequest{Limit: 10})
		got := sales.Items
		if err != nil || len(got) != 1 || got[0].Refunded != 1999 {
			t.Errorf("sales = %+v, %v; want refunded 1999", got, err)
		}
		other := storetest.ClaimedBot(t, st, owner)
		_, err = earningOf(st).RefundSaleFromWallet(ctx, other.ID, sale.Sale.ID, botpay.RefundRequest{})
		storetest.WantCode(t, err, botpay.CodeNotFound)
	})
}

func TestSaleRefundRefusedWhenTheWalletCannotCoverIt(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		bot := storetest.ClaimedBot(t, st, owner)
		sale := soldByCard(t, st, bot.ID, 5000)
		// The bot spends $40 of the $50 it earned.
		g := botpay.DefaultGuardrails(st.Clock().Now())
		g.AskApprovalAbove = nil
		if err := spendingOf(st).ReplaceGuardrails(ctx, owner.ID, bot.ID, g); err != nil {
			t.Fatal(err)
		}
		c := botpay.Card{ID: botpay.NewID("card_"), BotID: bot.ID, Name: "card", Status: botpay.CardActive, RealProfileIndex: 1,
			Profiles:  []botpay.PaymentProfile{{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: 100000}},
			CreatedAt: st.Clock().Now()}
		if err := spendingOf(st).AddCard(ctx, owner.ID, c, map[int][]byte{1: []byte("sealed")}); err != nil {
			t.Fatal(err)
		}
		approvedPurchase(t, st, bot, 4000)
		_, err := earningOf(st).RefundSaleFromWallet(ctx, bot.ID, sale.Sale.ID, botpay.RefundRequest{})
		storetest.WantCode(t, err, botpay.CodeInsufficientFunds)
		storetest.WantBooksBalanced(t, st, bot.ID, 1000)
		if _, err := earningOf(st).RefundSaleFromWallet(ctx, bot.ID, sale.Sale.ID, refundOf(1000)); err != nil {
			t.Fatalf("a refund the balance covers: %v", err)
		}
		storetest.WantBooksBalanced(t, st, bot.ID, 0)
	})
}

// Twenty refunds of $1 racing on a $10 purchase, half of them from a second
// replica: exactly ten succeed and the purchase is never refunded above
// its amount.
func TestRacingRefundsNeverExceedThePurchase(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		other := db.OpenAnother(t)
		owner := storetest.NewOwner(t, st)
		bot, _ := storetest.Shopper(t, st, owner, func(*botpay.Guardrails) {})
		p := approvedPurchase(t, st, bot, 1000)
		var ok, exceeded atomic.Int64
		var wg sync.WaitGroup
		for i := range 20 {
			replica := st
			if i%2 == 1 {
				replica = other
			}
			wg.Go(func() {
				_, err := earningOf(replica).RefundPurchaseResult(ctx, owner.ID, p.ID, refundOf(100))
				switch e := botpay.AsError(err); {
				case err == nil:
					ok.Add(1)
				case e != nil && e.Code == botpay.CodeRefundExceedsAmount:
					exceeded.Add(1)
				default:
					t.Errorf("refund: %v", err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 10 || exceeded.Load() != 10 {
			t.Errorf("%d succeeded and %d exceeded, want 10 and 10", ok.Load(), exceeded.Load())
		}
		storetest.WantBooksBalanced(t, st, bot.ID, 100000)
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
