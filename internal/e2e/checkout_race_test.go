package e2e

import (
	"net/http"
	"sync"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/testserver"
)

// racing lifts the registration and checkout limits for tests that fire
// many requests from one bot at once.
var racing = testserver.Options{Limits: app.Limits{RegisterPerHour: 1000, CheckoutPerHour: 1000}}

// race runs n checkouts at once and counts the answers by error code ("" for
// an approval).
func race(t *testing.T, h *harness, n int, buy func(i int) (*client.Checkout, error)) map[string]int {
	t.Helper()
	var mu sync.Mutex
	counts := map[string]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			got, err := buy(i)
			code := ""
			switch {
			case err != nil:
				code = err.Error()
				if e, ok := err.(*client.Error); ok {
					code = e.Code
				}
			case !isTrue(got.Approved):
				code = "held"
			}
			mu.Lock()
			counts[code]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return counts
}

func TestRacingCheckoutsNeverOverdrawTheBalance(t *testing.T) {
	forEachEngine(t, racing, func(t *testing.T, h *harness) {
		s := h.shopper("racer", client.Dollars(100, 0), func(g *client.Guardrails) {
			g.Limits = client.GuardrailLimits{PerTransactionUSD: client.Dollars(100, 0), DailyUSD: client.Dollars(10000, 0),
				MonthlyUSD: client.Dollars(10000, 0)}
		})
		counts := race(t, h, 50, func(int) (*client.Checkout, error) { return s.bot.Checkout(h.ctx, purchase(1000)) })
		if counts[""] != 10 || counts[client.CodeInsufficientFunds] != 40 || len(counts) != 2 {
			t.Fatalf("answers = %v, want 10 approved and 40 insufficient_funds", counts)
		}
		if got := s.available(h); got != 0 {
			t.Errorf("available = %s, want 0.00", got)
		}
		sum, err := h.srv.App.Wallets().LedgerSum(h.ctx, s.reg.BotID)
		if err != nil || sum != 0 {
			t.Errorf("ledger sum = %d, %v; want 0", sum, err)
		}
		txs, _ := s.bot.Transactions(h.ctx, 100)
		if len(txs) != 11 {
			t.Errorf("%d ledger rows, want 1 funding and 10 spends", len(txs))
		}
		spent, err := h.srv.App.Wallets().LedgerMonthSpend(h.ctx, s.reg.BotID)
		w, werr := s.bot.WalletCheck(h.ctx)
		if err != nil || werr != nil || spent != 10000 || w.SpendingLimits == nil || w.SpendingLimits.MonthlySpentUSD != client.Dollars(100, 0) {
			t.Errorf("month's spend rows %d (%v), wallet check %+v (%v); want $100.00 both", spent, err, w, werr)
		}
	})
}

func TestRacingCheckoutsNeverExceedTheDailyBudget(t *testing.T) {
	forEachEngine(t, racing, func(t *testing.T, h *harness) {
		s := h.shopper("budgeted", client.Dollars(1000, 0), func(g *client.Guardrails) {
			g.Limits = client.GuardrailLimits{PerTransactionUSD: client.Dollars(100, 0), DailyUSD: client.Dollars(100, 0),
				MonthlyUSD: client.Dollars(10000, 0)}
		})
		counts := race(t, h, 50, func(int) (*client.Checkout, error) { return s.bot.Checkout(h.ctx, purchase(1000)) })
		if counts[""] != 10 || counts[client.CodeCardGuardrailViolation] != 40 || len(counts) != 2 {
			t.Fatalf("answers = %v, want 10 approved and 40 card_guardrail_violation", counts)
		}
		if got := s.available(h); got != client.Dollars(900, 0) {
			t.Errorf("available = %s, want 900.00", got)
		}
	})
}

// Two bots of one owner race against the owner's master daily budget: the
// budget holds across bots.
func TestRacingBotsOfOneOwnerNeverExceedTheMasterBudget(t *testing.T) {
	forEachEngine(t, racing, func(t *testing.T, h *harness) {
		first := h.shopper("first", client.Dollars(1000, 0), nil)
		bot2, reg2 := h.register(client.RegisterRequest{BotName: "second", OwnerEmail: uniqueEmail("second")})
		if _, err := first.owner.Claim(h.ctx, *reg2.ClaimToken); err != nil {
			t.Fatal(err)
		}
		if _, err := first.owner.Fund(h.ctx, reg2.BotID, client.Dollars(1000, 0), ""); err != nil {
			t.Fatal(err)
		}
		if _, err := first.owner.CreateCard(h.ctx, reg2.BotID, newCard("Second bot's card")); err != nil {
			t.Fatal(err)
		}
		if _, err := first.owner.SetMasterGuardrails(h.ctx, client.MasterGuardrails{DailyBudgetUSD: usd(client.Dollars(100, 0))}); err != nil {
			t.Fatal(err)
		}
		bots := []*client.Client{first.bot, bot2}
		counts := race(t, h, 40, func(i int) (*client.Checkout, error) { return bots[i%2].Checkout(h.ctx, purchase(1000)) })
		if counts[""] != 10 || counts[client.CodeMasterBudgetExceeded] != 30 || len(counts) != 2 {
			t.Fatalf("answers = %v, want 10 approved and 30 master_budget_exceeded", counts)
		}
	})
}

func TestRacingOwnerDecisionsOnOneHeldPurchaseLetOneWin(t *testing.T) {
	forEachEngine(t, racing, func(t *testing.T, h *harness) {
		s := h.shopper("contested", client.Dollars(100, 0), nil)
		held, err := s.bot.Checkout(h.ctx, purchase(5000))
		if err != nil || isTrue(held.Approved) {
			t.Fatalf("checkout = %+v, %v; want held", held, err)
		}
		var mu sync.Mutex
		wins, conflicts := map[string]int{}, 0
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 20 {
			wg.Go(func() {
				<-start
				decide := s.owner.ApprovePurchase
				if i%2 == 1 {
					decide = s.owner.DenyPurchase
				}
				d, err := decide(h.ctx, held.ConfirmationID)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					wins[d.Status]++
				case client.IsCode(err, client.CodeAlreadyDecided):
					conflicts++
				default:
					t.Errorf("decision: %v", err)
				}
			})
		}
		close(start)
		wg.Wait()
		if len(wins) != 1 || wins[client.PurchaseApproved]+wins[client.PurchaseDenied] != 1 || conflicts != 19 {
			t.Fatalf("wins %v, conflicts %d; want exactly one decision and 19 already_decided", wins, conflicts)
		}
		want := client.Dollars(100, 0)
		if wins[client.PurchaseApproved] == 1 {
			want = client.Dollars(50, 0)
		}
		if got := s.available(h); got != want {
			t.Errorf("available = %s, want %s", got, want)
		}
		evs := h.events(s.reg.BotID)
		if countOf(evs, "purchase.approved")+countOf(evs, "purchase.rejected") != 1 {
			t.Errorf("events = %v, want one decision event", evs)
		}
		_, err = s.owner.ApprovePurchase(h.ctx, held.ConfirmationID)
		wantError(t, err, http.StatusConflict, client.CodeAlreadyDecided)
	})
}

func TestRacingTaskRequestsHandEachTaskOutOnce(t *testing.T) {
	forEachEngine(t, racing, func(t *testing.T, h *harness) {
		s := h.shopper("busy", 0, nil)
		for i := range 5 {
			if _, err := s.owner.CreateTask(h.ctx, s.reg.BotID, client.NewTask{MerchantName: "Acme", MerchantURL: "acme.com",
				ItemName: "Item", AmountCents: int64(100 + i)}); err != nil {
				t.Fatal(err)
			}
		}
		var mu sync.Mutex
		seen := map[string]int{}
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				task, err := s.bot.NextTask(h.ctx)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				seen[textOf(task.TaskID)]++
				mu.Unlock()
			})
		}
		wg.Wait()
		if len(seen) != 6 || seen[""] != 5 {
			t.Fatalf("tasks handed out = %v, want 5 distinct tasks once each and 5 empty answers", seen)
		}
		for id, n := range seen {
			if id != "" && n != 1 {
				t.Errorf("task %s handed out %d times", id, n)
			}
		}
	})
}
