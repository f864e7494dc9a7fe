package payments_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// A signature and a card checkout racing for the last of a shared budget
// never both pass: the signing transaction, paused after it read the day's
// spend, lets a checkout of the same bot (or, for a master budget, of a
// sibling bot) run meanwhile. Before signing took the locks that checkout
// takes, on PostgreSQL the checkout committed inside that pause and both
// spent the same budget.
func TestSigningAndCheckoutNeverShareTheLastOfABudget(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, st *store.Store) (owner botpay.Owner, signer, buyer botpay.Bot)
	}{
		{"bot daily budget, same bot", func(t *testing.T, st *store.Store) (botpay.Owner, botpay.Bot, botpay.Bot) {
			owner, b := autoShopper(t, st)
			return owner, b, b
		}},
		{"owner master budget, sibling bots", func(t *testing.T, st *store.Store) (botpay.Owner, botpay.Bot, botpay.Bot) {
			owner, signer := autoShopper(t, st)
			buyer, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) { g.AskApprovalAbove = nil })
			noBotLimit := botpay.Money(100_000)
			for _, b := range []botpay.Bot{signer, buyer} {
				setDaily(t, st, owner, b, noBotLimit)
			}
			daily := botpay.Money(1000)
			if err := spendingOf(st).ReplaceMasterGuardrails(ctx, owner.ID, botpay.MasterGuardrails{DailyBudget: &daily}); err != nil {
				t.Fatal(err)
			}
			return owner, signer, buyer
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
				st := db.Store
				owner, signer, buyer := c.setup(t, st)
				signed, bought := raceSigningAgainstCheckout(t, st, owner, signer, buyer)
				if signed && bought {
					t.Fatal("a $6 signature and a $6 checkout both passed a $10 daily budget")
				}
				if !signed && !bought {
					t.Fatal("neither the signature nor the checkout passed")
				}
			})
		})
	}
}

// setDaily gives b a daily limit and no approval threshold.
func setDaily(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, daily botpay.Money) {
	t.Helper()
	g := botpay.DefaultGuardrails(st.Clock().Now())
	g.Daily, g.AskApprovalAbove = daily, nil
	if err := spendingOf(st).ReplaceGuardrails(ctx, owner.ID, b.ID, g); err != nil {
		t.Fatal(err)
	}
}

// raceSigningAgainstCheckout signs $6 for signer, judged against a $10
// budget (bot or master, whichever the signer's rules carry), while buyer
// checks out $6 by card during the judgement. It reports which passed.
func raceSigningAgainstCheckout(t *testing.T, st *store.Store, owner botpay.Owner, signer, buyer botpay.Bot) (signed, bought bool) {
	t.Helper()
	judging, checkedOut := make(chan struct{}), make(chan spending.CheckoutResult, 1)
	go func() {
		<-judging
		res, err := buy(st, buyer, 600)
		if err != nil {
			res = spending.CheckoutResult{}
		}
		checkedOut <- res
	}()
	_, verdict, err := paymentsOf(st).ReserveJudged(ctx, signingRequest(st, owner, signer, 6_000_000, 300), nil,
		func(f botpay.SigningFacts) (botpay.SigningVerdict, error) {
			close(judging)
			select { // give the checkout the time to commit, if nothing holds it
			case res := <-checkedOut:
				checkedOut <- res
			case <-time.After(300 * time.Millisecond):
			}
			used := f.Spent.BotDay
			if f.Master != nil {
				used = f.Spent.OwnerDay
			}
			return botpay.SigningVerdict{Blocked: used+600 > 1000}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	res := <-checkedOut
	return !verdict.Blocked, res.Purchase.Status == botpay.PurchaseApproved
}
