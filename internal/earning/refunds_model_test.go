package earning_test

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// refundModel is what the books must say: the balance, and per purchase
// or sale its amount and what was refunded of it.
type refundModel struct {
	balance   botpay.Money
	purchases map[string]*refundable
	sales     map[string]*refundable
}

type refundable struct{ amount, refunded botpay.Money }

// TestRandomRefundsKeepTheBooksStraight interleaves purchases, purchase
// refunds, sales and sale refunds at random and checks the store against a
// reference model after every step: the balance equals the model's and the
// ledger's sum, and no purchase or sale is refunded above its amount.
func TestRandomRefundsKeepTheBooksStraight(t *testing.T) {
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
			st := storetest.Open(t, d, clock).Store
			rapid.Check(t, func(rt *rapid.T) {
				owner := storetest.NewOwner(t, st)
				bot, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) { g.AskApprovalAbove = nil })
				page := storetest.Page(t, st, bot.ID, nil)
				m := &refundModel{balance: 100000, purchases: map[string]*refundable{}, sales: map[string]*refundable{}}
				for range rapid.IntRange(3, 15).Draw(rt, "steps") {
					switch rapid.IntRange(0, 3).Draw(rt, "op") {
					case 0:
						m.buy(rt, st, bot)
					case 1:
						m.sell(rt, st, page)
					case 2:
						m.refundPurchase(rt, st, owner)
					case 3:
						m.refundSale(rt, st, bot)
					}
					m.check(rt, st, bot.ID)
				}
			})
		})
	}
}

func (m *refundModel) buy(rt *rapid.T, st *store.Store, bot botpay.Bot) {
	amount := botpay.Money(rapid.Int64Range(1, 3000).Draw(rt, "buy"))
	res, err := spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: bot.ID, ProfileIndex: 1, ItemName: "thing",
		Request: botpay.CheckoutRequest{Amount: amount, MerchantName: "Acme", MerchantURL: "acme.com"}})
	if err != nil {
		if e := botpay.AsError(err); e == nil || e.Kind == botpay.KindInternal {
			rt.Fatalf("checkout: %v", err)
		}
		return // a guardrail refusal moves nothing
	}
	m.balance -= amount
	m.purchases[res.Purchase.ID] = &refundable{amount: amount}
}

func (m *refundModel) sell(rt *rapid.T, st *store.Store, page botpay.CheckoutPage) {
	amount := botpay.Money(rapid.Int64Range(100, 5000).Draw(rt, "sell"))
	res, err := earningOf(st).RecordSale(ctx, botpay.SaleInput{PageID: page.ID, Amount: &amount, Method: botpay.MethodProcessorOnramp,
		BuyerType: botpay.BuyerEmail, BuyerIdentifier: "b@example.com", BuyerEmail: "b@example.com"})
	if err != nil {
		rt.Fatalf("sale: %v", err)
	}
	m.balance += amount
	m.sales[res.Sale.ID] = &refundable{amount: amount}
}

// drawRefund picks an origin and an amount that may exceed what is left.
func drawRefund(rt *rapid.T, origins map[string]*refundable, label string) (string, *refundable, botpay.RefundRequest) {
	if len(origins) == 0 {
		return "", nil, botpay.RefundRequest{}
	}
	ids := make([]string, 0, len(origins))
	for id := range origins {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	id := rapid.SampledFrom(ids).Draw(rt, label)
	o := origins[id]
	if rapid.Bool().Draw(rt, label+"-all") {
		return id, o, botpay.RefundRequest{}
	}
	amount := botpay.Money(rapid.Int64Range(1, int64(o.amount)+50).Draw(rt, label+"-amount"))
	return id, o, botpay.RefundRequest{Amount: &amount}
}

// expectedRefund is what the model says a refund should move, or 0 when it
// must be refused for exceeding its origin.
func expectedRefund(o *refundable, req botpay.RefundRequest) botpay.Money {
	left := o.amount - o.refunded
	if req.Amount == nil {
		return left
	}
	if *req.Amount > left {
		return 0
	}
	return *req.Amount
}

func (m *refundModel) refundPurchase(rt *rapid.T, st *store.Store, owner botpay.Owner) {
	id, o, req := drawRefund(rt, m.purchases, "purchase")
	if o == nil {
		return
	}
	want := expectedRefund(o, req)
	res, err := earningOf(st).RefundPurchaseResult(ctx, owner.ID, id, req)
	m.settle(rt, o, want, res, err, +1)
}

func (m *refundModel) refundSale(rt *rapid.T, st *store.Store, bot botpay.Bot) {
	id, o, req := drawRefund(rt, m.sales, "sale")
	if o == nil {
		return
	}
	want := expectedRefund(o, req)
	if want > m.balance {
		_, err := earningOf(st).RefundSaleFromWallet(ctx, bot.ID, id, req)
		if e := botpay.AsError(err); e == nil || e.Code != botpay.CodeInsufficientFunds {
			rt.Fatalf("refund of %d with %d available: %v, want insufficient_funds", want, m.balance, err)
		}
		return
	}
	res, err := earningOf(st).RefundSaleFromWallet(ctx, bot.ID, id, req)
	m.settle(rt, o, want, res, err, -1)
}

func (m *refundModel) settle(rt *rapid.T, o *refundable, want botpay.Money, res earning.RefundResult, err error, sign botpay.Money) {
	if want == 0 {
		if e := botpay.AsError(err); e == nil || e.Code != botpay.CodeRefundExceedsAmount {
			rt.Fatalf("refund beyond its origin: %v, want refund_exceeds_amount", err)
		}
		return
	}
	if err != nil || res.Refund.Amount != want {
		rt.Fatalf("refund = %+v, %v; want %d", res.Refund, err, want)
	}
	o.refunded += want
	m.balance += sign * want
}

func (m *refundModel) check(rt *rapid.T, st *store.Store, botID string) {
	v, _, err := storetest.Wallets(st).WalletView(ctx, botID)
	if err != nil {
		rt.Fatal(err)
	}
	sum, err := storetest.Wallets(st).LedgerSum(ctx, botID)
	if err != nil {
		rt.Fatal(err)
	}
	if v.Wallet.Balance != m.balance || sum != m.balance {
		rt.Fatalf("balance %d, ledger sum %d, model %d", v.Wallet.Balance, sum, m.balance)
	}
	for id, o := range m.purchases {
		out, err := spendingOf(st).CheckoutStatus(ctx, botpay.Bot{ID: botID}, id)
		p := out.Purchase
		if err != nil || p.Refunded != o.refunded || p.Refunded > p.Amount {
			rt.Fatalf("purchase %s refunded %d of %d (%v), model %d", id, p.Refunded, p.Amount, err, o.refunded)
		}
	}
	salesPage, err := earningOf(st).SalesOf(ctx, botID, botpay.SaleFilter{}, botpay.PageRequest{Limit: 100})
	if err != nil {
		rt.Fatal(err)
	}
	for _, s := range salesPage.Items {
		if o := m.sales[s.ID]; o == nil || s.Refunded != o.refunded || s.Refunded > s.Amount {
			rt.Fatalf("sale %s refunded %d of %d, model %+v", s.ID, s.Refunded, s.Amount, o)
		}
	}
}
