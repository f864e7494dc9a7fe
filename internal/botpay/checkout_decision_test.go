package botpay

import (
	"testing"
	"time"
)

func TestDecideCheckoutRefusesInOrderAndJudgesTheRest(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	card := Card{ID: "card_a", Status: CardActive, RealProfileIndex: 1, Limits: CardLimits{}}
	profile := PaymentProfile{Index: 1, AllowanceDuration: AllowanceMonth, Allowance: 100000}
	auto := Guardrails{ApprovalMode: ApprovalUnderThreshold, PerTransaction: 10000, Daily: 100000, Monthly: 100000}
	facts := func(change func(*CheckoutFacts)) CheckoutFacts {
		f := CheckoutFacts{Now: now, Claimed: true, OwnerID: "own_1", HasGuardrails: true, Rules: SpendingRules{Bot: auto},
			Card: card, Profile: profile, Usage: Usage{Available: 50000}}
		if change != nil {
			change(&f)
		}
		return f
	}
	ask := CheckoutAsk{BotID: "bot_1", ProfileIndex: 1, ItemName: "thing", PerWindow: 3, Window: time.Hour,
		Request: CheckoutRequest{Amount: 500, MerchantName: "Acme", MerchantURL: "acme.com"}}
	withTask := ask
	withTask.TaskID = "task_1"
	recent := now.Add(-time.Minute)
	for _, tc := range []struct {
		name string
		f    CheckoutFacts
		ask  CheckoutAsk
		want string // error code, "error" for a non-domain error, or the purchase's status
	}{
		{"an unclaimed wallet", facts(func(f *CheckoutFacts) { f.Claimed = false }), ask, CodeWalletNotActive},
		{"a frozen wallet", facts(func(f *CheckoutFacts) { f.Frozen = true }), ask, CodeWalletFrozen},
		{"no usable card", facts(func(f *CheckoutFacts) { f.PickErr = ErrCardNotActive }), ask, CodeCardNotActive},
		{"a task of another bot", facts(func(f *CheckoutFacts) { f.TaskRead = true }), withTask, CodeNotFound},
		{"a completed task", facts(func(f *CheckoutFacts) { f.TaskRead, f.TaskFound, f.TaskStatus = true, true, TaskCompleted }), withTask, CodeTaskCompleted},
		{"no guardrails", facts(func(f *CheckoutFacts) { f.HasGuardrails = false }), ask, "error"},
		{"over the rate limit", facts(func(f *CheckoutFacts) { f.QuotathLatest = &recent }), ask, CodeRateLimited},
		{"over the balance: declined and recorded", facts(func(f *CheckoutFacts) { f.Usage.Available = 100 }), ask, PurchaseDeclined},
		{"within every rule", facts(nil), ask, PurchaseApproved},
		{"an open task", facts(func(f *CheckoutFacts) { f.TaskRead, f.TaskFound, f.TaskStatus = true, true, TaskQueued }), withTask, PurchaseApproved},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := DecideCheckout(tc.f, tc.ask)
			got := d.Purchase.Status
			if e := AsError(err); e != nil {
				got = e.Code
			} else if err != nil {
				got = "error"
			}
			if got != tc.want {
				t.Fatalf("decided %q (%v), want %q", got, err, tc.want)
			}
			if (got == PurchaseDeclined) != (d.Refusal != nil) {
				t.Errorf("refusal %v with status %q", d.Refusal, got)
			}
		})
	}
}

func TestCheckoutNeedsReadsTheTaskAndTheOwnerOnlyForWhatIsJudged(t *testing.T) {
	t.Parallel()
	daily := Money(1000)
	master := &MasterGuardrails{DailyBudget: &daily}
	card := Card{ID: "card_a", Status: CardActive, RealProfileIndex: 1}
	base := CheckoutFacts{Claimed: true, HasGuardrails: true, Card: card, Profile: PaymentProfile{Index: 1},
		Rules: SpendingRules{Master: master}}
	ask := CheckoutAsk{BotID: "bot_1", ProfileIndex: 1}
	withTask := ask
	withTask.TaskID = "task_1"
	frozen, decoy, taskRead, noMaster := base, base, base, base
	frozen.Frozen = true
	decoy.Profile = PaymentProfile{Index: 2}
	taskRead.TaskRead, taskRead.TaskFound = true, true
	noMaster.Rules.Master = nil
	for _, tc := range []struct {
		name        string
		f           CheckoutFacts
		ask         CheckoutAsk
		task, owner bool
	}{
		{"a frozen wallet reads nothing more", frozen, withTask, false, false},
		{"a task not yet read", base, withTask, true, false},
		{"a task read, under a master budget", taskRead, withTask, false, true},
		{"no task, under a master budget", base, ask, false, true},
		{"a decoy profile ignores master budgets", decoy, ask, false, false},
		{"no master budget", noMaster, ask, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if task, owner := CheckoutNeeds(tc.f, tc.ask); task != tc.task || owner != tc.owner {
				t.Errorf("needs task %v, owner %v; want %v, %v", task, owner, tc.task, tc.owner)
			}
		})
	}
}

func TestDecidePurchaseFollowsTheStatusMachine(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	held := Purchase{ID: "chk_1", BotID: "bot_1", Amount: 500, MerchantName: "Acme", ItemName: "thing",
		Status: PurchasePending, ExpiresAt: now.Add(time.Minute)}
	overdue, approved := held, held
	overdue.ExpiresAt = now
	approved.Status = PurchaseApproved
	for _, tc := range []struct {
		name       string
		p          Purchase
		approve    bool
		wantErr    string // error code
		wantStatus string
		wantEvent  string
		gone       bool
	}{
		{"approve a held purchase", held, true, "", PurchaseApproved, EventPurchaseApproved, false},
		{"deny a held purchase", held, false, "", PurchaseDenied, EventPurchaseRejected, false},
		{"decide an overdue hold", overdue, true, "", PurchaseExpired, EventPurchaseExpired, true},
		{"decide a decided purchase", approved, false, CodeAlreadyDecided, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := DecidePurchase(tc.p, tc.approve, now)
			if tc.wantErr != "" {
				if e := AsError(err); e == nil || e.Code != tc.wantErr {
					t.Fatalf("err = %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Purchase.Status != tc.wantStatus || d.Event.Type != tc.wantEvent || (d.Gone != nil) != tc.gone {
				t.Errorf("decided %s with %s (gone %v), want %s with %s (gone %v)",
					d.Purchase.Status, d.Event.Type, d.Gone, tc.wantStatus, tc.wantEvent, tc.gone)
			}
			if !d.Purchase.DecidedAt.Equal(now) || d.Event.BotID != tc.p.BotID {
				t.Errorf("decided at %v for %s", d.Purchase.DecidedAt, d.Event.BotID)
			}
		})
	}
}
