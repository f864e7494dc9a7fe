package spending_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// TestRandomSpendingKeepsTheBooksStraight drives one bot through random
// sequences of fundings, checkouts (real and decoy profiles, auto-approved
// and held), owner decisions, expiry sweeps and the passing of time, and
// after every step checks the invariants the service promises: the ledger
// balance equals the sum of the ledger, the hold equals the sum of pending
// purchases, the available balance is never negative, the day's approved
// and held real spending never exceeds the daily limit, and every held
// purchase ends in at most one decision event.
func TestRandomSpendingKeepsTheBooksStraight(t *testing.T) {
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			// One database for all runs; each run has its own owner and bot.
			clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
			st := storetest.Open(t, d, clock).Store
			maxSteps := 25
			if d == store.Postgres {
				maxSteps = 12
			}
			rapid.Check(t, func(rt *rapid.T) {
				owner := storetest.NewOwner(t, st)
				bot := storetest.ClaimedBot(t, st, owner)
				g := botpay.DefaultGuardrails(clock.Now())
				g.PerTransaction, g.Daily, g.Monthly = 3000, 6000, 50000
				above := botpay.Money(1500)
				g.AskApprovalAbove = &above
				if err := spendingOf(st).ReplaceGuardrails(ctx, owner.ID, bot.ID, g); err != nil {
					rt.Fatal(err)
				}
				card := botpay.Card{ID: botpay.NewID("card_"), BotID: bot.ID, Name: "c", Status: botpay.CardActive, RealProfileIndex: 1,
					Profiles: []botpay.PaymentProfile{
						{Index: 1, AllowanceDuration: botpay.AllowanceWeek, Allowance: 20000},
						{Index: 2, AllowanceDuration: botpay.AllowanceDay, Allowance: 2000}},
					CreatedAt: clock.Now()}
				if err := spendingOf(st).AddCard(ctx, owner.ID, card, map[int][]byte{1: []byte("r"), 2: []byte("d")}); err != nil {
					rt.Fatal(err)
				}
				var pending []string
				steps := rapid.IntRange(3, maxSteps).Draw(rt, "steps")
				for range steps {
					switch rapid.IntRange(0, 5).Draw(rt, "op") {
					case 0:
						if _, err := storetest.Wallets(st).Fund(ctx, owner, bot.ID, botpay.Money(rapid.Int64Range(1, 5000).Draw(rt, "fund")), ""); err != nil {
							rt.Fatal(err)
						}
					case 1, 2:
						res, err := spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: bot.ID, ProfileIndex: rapid.IntRange(1, 2).Draw(rt, "profile"),
							ItemName: "thing", Request: botpay.CheckoutRequest{Amount: botpay.Money(rapid.Int64Range(1, 3500).Draw(rt, "amount")),
								MerchantName: "Acme", MerchantURL: "acme.com"}})
						if e := botpay.AsError(err); err != nil && (e == nil || e.Kind == botpay.KindInternal) {
							rt.Fatalf("checkout failed unexpectedly: %v", err)
						}
						if err == nil && res.Purchase.Status == botpay.PurchasePending {
							pending = append(pending, res.Purchase.ID)
						}
					case 3:
						if len(pending) > 0 {
							i := rapid.IntRange(0, len(pending)-1).Draw(rt, "which")
							_, err := spendingOf(st).DecidePurchase(ctx, owner, pending[i], rapid.Bool().Draw(rt, "approve"))
							if e := botpay.AsError(err); err != nil && (e == nil || (e.Code != botpay.CodeAlreadyDecided && e.Code != botpay.CodeExpired)) {
								rt.Fatalf("decision failed unexpectedly: %v", err)
							}
						}
					case 4:
						clock.Advance(time.Duration(rapid.IntRange(1, 20).Draw(rt, "minutes")) * time.Minute)
					case 5:
						if _, err := spendingOf(st).ExpireOverdue(ctx, 10); err != nil {
							rt.Fatal(err)
						}
					}
					checkBooks(rt, st, bot.ID, g.Daily, clock.Now())
					checkTotals(rt, st, bot.ID, card, clock.Now())
				}
			})
		})
	}
}

func checkBooks(rt *rapid.T, st *store.Store, botID string, daily botpay.Money, now time.Time) {
	v, _, err := storetest.Wallets(st).WalletView(ctx, botID)
	if err != nil {
		rt.Fatal(err)
	}
	sum, err := storetest.Wallets(st).LedgerSum(ctx, botID)
	if err != nil {
		rt.Fatal(err)
	}
	if v.Wallet.Balance != sum {
		rt.Fatalf("balance %d, ledger sum %d", v.Wallet.Balance, sum)
	}
	if v.Wallet.Available() < 0 || v.Wallet.Held < 0 {
		rt.Fatalf("wallet %+v: negative available or held", v.Wallet)
	}
	held, today, err := spendingOf(st).PurchaseTotals(ctx, botID, now)
	if err != nil {
		rt.Fatal(err)
	}
	if held != v.Wallet.Held {
		rt.Fatalf("held %d, pending purchases add up to %d", v.Wallet.Held, held)
	}
	if today > daily {
		rt.Fatalf("today's approved and held spending %d exceeds the daily limit %d", today, daily)
	}
	evs, err := storetest.OutboxOf(st).Events(ctx, botID)
	if err != nil {
		rt.Fatal(err)
	}
	decided := map[string]int{}
	for _, e := range evs {
		switch e.Type {
		case botpay.EventPurchaseApproved, botpay.EventPurchaseRejected, botpay.EventPurchaseExpired:
			id, _ := e.Data["checkout_id"].(string)
			if decided[id]++; decided[id] > 1 {
				rt.Fatalf("purchase %s has %d decision events", id, decided[id])
			}
		}
	}
}

// checkTotals compares the running spend totals that budgets read with the
// purchases themselves: every hold, approval, denial and expiry must have
// moved them by exactly its amount (too much would refuse spends the bot
// may make; too little would let it overspend).
func checkTotals(rt *rapid.T, st *store.Store, botID string, card botpay.Card, now time.Time) {
	_, today, err := spendingOf(st).PurchaseTotals(ctx, botID, now)
	if err != nil {
		rt.Fatal(err)
	}
	fromTotals, err := spendingOf(st).BotSpentToday(ctx, botID, now)
	if err != nil {
		rt.Fatal(err)
	}
	if fromTotals != today {
		rt.Fatalf("running totals say %d spent today, the purchases %d", fromTotals, today)
	}
	for _, p := range card.Profiles {
		totals, purchases, err := spendingOf(st).ProfileSpent(ctx, card.ID, p.Index, botpay.WindowStart(p.AllowanceDuration, now), now)
		if err != nil {
			rt.Fatal(err)
		}
		if totals != purchases {
			rt.Fatalf("profile %d: running totals say %d, the purchases %d", p.Index, totals, purchases)
		}
	}
}
