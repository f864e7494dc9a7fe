package earning_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestRecordSaleOnAPageCreditsCountsAndEmitsInOneGo(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		bot := storetest.ClaimedBot(t, st, storetest.NewOwner(t, st))
		page := storetest.Page(t, st, bot.ID, storetest.Cents(1999))
		res, err := earningOf(st).RecordSale(ctx, botpay.SaleInput{PageID: page.ID, Method: botpay.MethodX402, BuyerType: botpay.BuyerWallet,
			BuyerIdentifier: "0xabc", TxHash: "0xhash1"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Sale.Amount != 1999 || res.Wallet.Balance != 1999 || res.Ledger.Type != botpay.TxSale || res.Page.PaymentCount != 1 {
			t.Errorf("result = %+v", res)
		}
		got, err := earningOf(st).SaleByTxHash(ctx, "0xhash1")
		if err != nil || got.ID != res.Sale.ID || got.BuyerEmail != "" {
			t.Errorf("sale by hash = %+v, %v", got, err)
		}
		// The same on-chain payment cannot be recorded twice, and the
		// refused attempt leaves no trace.
		_, err = earningOf(st).RecordSale(ctx, botpay.SaleInput{PageID: page.ID, Method: botpay.MethodX402, BuyerType: botpay.BuyerWallet,
			BuyerIdentifier: "0xabc", TxHash: "0xhash1"})
		if !errors.Is(err, store.ErrUnique) {
			t.Fatalf("replayed tx hash: %v, want ErrUnique", err)
		}
		p, _ := earningOf(st).CheckoutPage(ctx, page.ID)
		sum, _ := storetest.Wallets(st).LedgerSum(ctx, bot.ID)
		if p.PaymentCount != 1 || p.TotalReceived != 1999 || sum != 1999 {
			t.Errorf("after a refused replay: page %+v, ledger %d", p, sum)
		}
		if types := storetest.EventTypes(t, st, bot.ID); len(types) != 2 || types[1] != botpay.EventWalletSaleCompleted {
			t.Errorf("events = %v, want wallet.activated then one wallet.sale.completed", types)
		}
	})
}

func TestRecordSaleRefusesWhatCannotBePaid(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		bot := storetest.ClaimedBot(t, st, storetest.NewOwner(t, st))
		fixed := storetest.Page(t, st, bot.ID, storetest.Cents(500))
		open := storetest.Page(t, st, bot.ID, nil)
		in := func(page string, amount *botpay.Money, method string) botpay.SaleInput {
			return botpay.SaleInput{PageID: page, Amount: amount, Method: method, BuyerType: botpay.BuyerEmail, BuyerIdentifier: "b@example.com"}
		}
		for name, tc := range map[string]struct {
			in   botpay.SaleInput
			code string
		}{
			"other amount on a locked page": {in(fixed.ID, storetest.Cents(400), botpay.MethodL2Pay), botpay.CodeValidation},
			"no amount on an open page":     {in(open.ID, nil, botpay.MethodL2Pay), botpay.CodeValidation},
			"zero on an open page":          {in(open.ID, storetest.Cents(0), botpay.MethodL2Pay), botpay.CodeValidation},
			"unknown page":                  {in("cp_missing", nil, botpay.MethodL2Pay), botpay.CodeCheckoutPageNotFound},
			"unknown invoice": {botpay.SaleInput{PageID: fixed.ID, InvoiceRef: "INV-2026-999999", Method: botpay.MethodL2Pay,
				BuyerType: botpay.BuyerEmail, BuyerIdentifier: "b@example.com"}, botpay.CodeNotFound},
			"unknown link": {botpay.SaleInput{LinkID: "pl_missing", Method: botpay.MethodL2Pay, BuyerType: botpay.BuyerEmail,
				BuyerIdentifier: "b@example.com"}, botpay.CodeNotFound},
		} {
			_, err := earningOf(st).RecordSale(ctx, tc.in)
			if e := botpay.AsError(err); e == nil || e.Code != tc.code {
				t.Errorf("%s: %v, want %s", name, err, tc.code)
			}
		}
		if sum, _ := storetest.Wallets(st).LedgerSum(ctx, bot.ID); sum != 0 {
			t.Errorf("ledger moved by refused sales: %d", sum)
		}
	})
}

func TestConcurrentPaymentsOfOneLinkCompleteItOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		bot := storetest.ClaimedBot(t, st, storetest.NewOwner(t, st))
		now := st.Clock().Now()
		link := botpay.PaymentLink{ID: botpay.NewID("pl_"), BotID: bot.ID, Amount: 2500, Description: "Once",
			CreatedAt: now, ExpiresAt: now.Add(botpay.PaymentLinkLifetime)}
		storetest.NewPaymentLink(t, st, link)
		replica := db.OpenAnother(t)
		const n = 6
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := st
				if i%2 == 1 {
					s = replica
				}
				_, errs[i] = earningOf(s).RecordSale(ctx, botpay.SaleInput{LinkID: link.ID, Method: botpay.MethodProcessorOnramp,
					BuyerType: botpay.BuyerEmail, BuyerIdentifier: "b@example.com", BuyerEmail: "b@example.com"})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch e := botpay.AsError(err); {
			case err == nil:
				ok++
			case e == nil || e.Code != botpay.CodePaymentLinkNotPending:
				t.Errorf("concurrent payment: %v", err)
			}
		}
		sum, _ := storetest.Wallets(st).LedgerSum(ctx, bot.ID)
		if ok != 1 || sum != 2500 {
			t.Errorf("%d payments succeeded, ledger %d; want exactly one of 2500", ok, sum)
		}
		got, _ := earningOf(st).PaymentLink(ctx, link.ID)
		if got.Status(now.Add(time.Hour)) != botpay.LinkCompleted || got.SaleID == "" {
			t.Errorf("link = %+v", got)
		}
	})
}
