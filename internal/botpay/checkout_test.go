package botpay

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

// referenceCheckout is the guardrail chain of the API reference (docs/api.md) written as
// plainly as possible, one rule after another, as the model the real
// evaluation is checked against. It returns "approve", "hold" or an error
// code.
func referenceCheckout(req CheckoutRequest, r SpendingRules, u Usage) string {
	if code := referenceLimits(req.Amount, r, u); code != "" {
		return code
	}
	// A decoy moves no money: nothing more to check.
	if r.Decoy {
		return "approve"
	}
	if code := referenceMaster(req.Amount, r.Master, u); code != "" {
		return code
	}
	if code := referenceProcurement(req, r.Procurement); code != "" {
		return code
	}
	return referenceApproval(req, r, u)
}

// referenceLimits is steps 2 and 3: card and bot limits, then the
// profile's allowance.
func referenceLimits(a Money, r SpendingRules, u Usage) string {
	// Step 2: card guardrails, the tighter of card and bot limits.
	perTx := r.Bot.PerTransaction
	if r.Card.PerTransaction != nil && *r.Card.PerTransaction < perTx {
		perTx = *r.Card.PerTransaction
	}
	if a > perTx {
		return CodeCardGuardrailViolation
	}
	if u.BotDay+a > r.Bot.Daily || (r.Card.Daily != nil && u.CardDay+a > *r.Card.Daily) {
		return CodeCardGuardrailViolation
	}
	if u.BotMonth+a > r.Bot.Monthly || (r.Card.Monthly != nil && u.CardMonth+a > *r.Card.Monthly) {
		return CodeCardGuardrailViolation
	}
	// Step 3: the profile's allowance window.
	if u.Profile+a > r.Profile.Allowance {
		return CodeAllowanceExceeded
	}
	return ""
}

// referenceMaster is step 4: the owner's master guardrails.
func referenceMaster(a Money, m *MasterGuardrails, u Usage) string {
	if m != nil {
		if m.PerTransaction != nil && a > *m.PerTransaction {
			return CodeMasterBudgetExceeded
		}
		if m.DailyBudget != nil && u.OwnerDay+a > *m.DailyBudget {
			return CodeMasterBudgetExceeded
		}
		if m.MonthlyBudget != nil && u.OwnerMonth+a > *m.MonthlyBudget {
			return CodeMasterBudgetExceeded
		}
	}
	return ""
}

// referenceProcurement is step 5's merchant and domain lists.
func referenceProcurement(req CheckoutRequest, p Procurement) string {
	for _, m := range p.BlockedMerchants {
		if m == req.MerchantName {
			return CodeCardGuardrailViolation
		}
	}
	host := MerchantHost(req.MerchantURL)
	for _, d := range p.BlockedDomains {
		if host == d || (len(host) > len(d) && host[len(host)-len(d)-1:] == "."+d) {
			return CodeCardGuardrailViolation
		}
	}
	if len(p.AllowedMerchants) > 0 && !contains(p.AllowedMerchants, req.MerchantName) {
		return CodeCardGuardrailViolation
	}
	if len(p.AllowedDomains) > 0 {
		ok := false
		for _, d := range p.AllowedDomains {
			if host == d || (len(host) > len(d) && host[len(host)-len(d)-1:] == "."+d) {
				ok = true
			}
		}
		if !ok {
			return CodeCardGuardrailViolation
		}
	}
	return ""
}

// referenceApproval is step 5's approval mode and the balance.
func referenceApproval(req CheckoutRequest, r SpendingRules, u Usage) string {
	a := req.Amount
	outcome := "approve"
	if r.Profile.HumanPermissionRequired {
		outcome = "hold"
	}
	switch r.Bot.ApprovalMode {
	case ApprovalAskForEverything:
		outcome = "hold"
	case ApprovalUnderThreshold:
		if r.Bot.AskApprovalAbove != nil && a > *r.Bot.AskApprovalAbove {
			outcome = "hold"
		}
	case ApprovalByCategory:
		if req.Category != "" && contains(r.Bot.BlockedCategories, req.Category) {
			return CodeCardGuardrailViolation
		}
		if !contains(r.Bot.ApprovedCategories, req.Category) || req.Category == "" {
			outcome = "hold"
		}
	}
	if a > u.Available {
		return CodeInsufficientFunds
	}
	return outcome
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Small alphabets make collisions (blocked merchant = requested merchant)
// frequent enough that every branch is exercised.
var (
	genMoney     = rapid.Custom(func(t *rapid.T) Money { return Money(rapid.Int64Range(0, 5000).Draw(t, "cents")) })
	genName      = rapid.SampledFrom([]string{"acme", "globex", "initech"})
	genDomain    = rapid.SampledFrom([]string{"acme.com", "shop.acme.com", "globex.io", "example.org"})
	genCategory  = rapid.SampledFrom([]string{"", "saas", "food", "retail"})
	genOptMoney  = rapid.Custom(func(t *rapid.T) *Money { return rapid.Ptr(genMoney, true).Draw(t, "limit") })
	genNames     = rapid.SliceOfN(genName, 0, 2)
	genDomains   = rapid.SliceOfN(genDomain, 0, 2)
	genCategorys = rapid.SliceOfN(rapid.SampledFrom([]string{"saas", "food", "retail"}), 0, 2)
)

func genRequest(t *rapid.T) CheckoutRequest {
	return CheckoutRequest{
		Amount:       Money(rapid.Int64Range(1, 3000).Draw(t, "amount")),
		MerchantName: genName.Draw(t, "merchant"),
		MerchantURL:  rapid.SampledFrom([]string{"https://acme.com/x", "https://shop.acme.com", "globex.io", "https://www.example.org/p?q=1", "https://evilacme.com"}).Draw(t, "url"),
		Category:     genCategory.Draw(t, "category"),
	}
}

func genRules(t *rapid.T) SpendingRules {
	r := SpendingRules{
		Bot: Guardrails{
			ApprovalMode:       rapid.SampledFrom([]string{ApprovalAskForEverything, ApprovalUnderThreshold, ApprovalByCategory}).Draw(t, "mode"),
			PerTransaction:     genMoney.Draw(t, "bot_per_tx"),
			Daily:              genMoney.Draw(t, "bot_daily"),
			Monthly:            genMoney.Draw(t, "bot_monthly"),
			AskApprovalAbove:   genOptMoney.Draw(t, "ask_above"),
			ApprovedCategories: genCategorys.Draw(t, "approved"),
			BlockedCategories:  genCategorys.Draw(t, "blocked"),
		},
		Card: CardLimits{PerTransaction: genOptMoney.Draw(t, "card_per_tx"), Daily: genOptMoney.Draw(t, "card_daily"),
			Monthly: genOptMoney.Draw(t, "card_monthly")},
		Profile: PaymentProfile{Index: 1, AllowanceDuration: rapid.SampledFrom([]string{AllowanceDay, AllowanceWeek, AllowanceMonth}).Draw(t, "window"),
			Allowance: genMoney.Draw(t, "allowance"), HumanPermissionRequired: rapid.Bool().Draw(t, "human")},
		Decoy: rapid.Bool().Draw(t, "decoy"),
		Procurement: Procurement{AllowedDomains: genDomains.Draw(t, "allowed_domains"), BlockedDomains: genDomains.Draw(t, "blocked_domains"),
			AllowedMerchants: genNames.Draw(t, "allowed_merchants"), BlockedMerchants: genNames.Draw(t, "blocked_merchants")},
	}
	if rapid.Bool().Draw(t, "has_master") {
		r.Master = &MasterGuardrails{PerTransaction: genOptMoney.Draw(t, "m_per_tx"), DailyBudget: genOptMoney.Draw(t, "m_daily"),
			MonthlyBudget: genOptMoney.Draw(t, "m_monthly")}
	}
	return r
}

func genUsage(t *rapid.T) Usage {
	return Usage{Available: genMoney.Draw(t, "available"), BotDay: genMoney.Draw(t, "bot_day"), BotMonth: genMoney.Draw(t, "bot_month"),
		CardDay: genMoney.Draw(t, "card_day"), CardMonth: genMoney.Draw(t, "card_month"), Profile: genMoney.Draw(t, "profile"),
		OwnerDay: genMoney.Draw(t, "owner_day"), OwnerMonth: genMoney.Draw(t, "owner_month")}
}

func outcome(v Verdict, err *Error) string {
	switch {
	case err != nil:
		return err.Code
	case v == Approve:
		return "approve"
	case v == Hold:
		return "hold"
	}
	return "nothing"
}

func TestEvaluateCheckoutMatchesReferenceModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, rules, usage := genRequest(t), genRules(t), genUsage(t)
		got := outcome(EvaluateCheckout(req, rules, usage))
		want := referenceCheckout(req, rules, usage)
		if got != want {
			t.Fatalf("EvaluateCheckout = %s, reference model = %s", got, want)
		}
	})
}

func TestEvaluateCheckoutRefusalsCarryTheirStatusKind(t *testing.T) {
	kinds := map[string]Kind{CodeCardGuardrailViolation: KindForbidden, CodeAllowanceExceeded: KindForbidden,
		CodeMasterBudgetExceeded: KindForbidden, CodeInsufficientFunds: KindPaymentRequired}
	rapid.Check(t, func(t *rapid.T) {
		_, err := EvaluateCheckout(genRequest(t), genRules(t), genUsage(t))
		if err != nil && kinds[err.Code] != err.Kind {
			t.Fatalf("%s has kind %d, want %d", err.Code, err.Kind, kinds[err.Code])
		}
	})
}

// An approval or hold never takes any counted total past its limit, and a
// real purchase never exceeds the available balance.
func TestEvaluateCheckoutNeverAdmitsOverLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, r, u := genRequest(t), genRules(t), genUsage(t)
		if _, err := EvaluateCheckout(req, r, u); err != nil {
			return
		}
		a := req.Amount
		if a > r.Bot.PerTransaction || u.BotDay+a > r.Bot.Daily || u.BotMonth+a > r.Bot.Monthly || u.Profile+a > r.Profile.Allowance {
			t.Fatalf("admitted over a bot or profile limit")
		}
		if r.Card.Daily != nil && u.CardDay+a > *r.Card.Daily {
			t.Fatalf("admitted over the card's daily limit")
		}
		if !r.Decoy && a > u.Available {
			t.Fatalf("admitted a real purchase over the available balance")
		}
		if !r.Decoy && r.Master != nil && r.Master.DailyBudget != nil && u.OwnerDay+a > *r.Master.DailyBudget {
			t.Fatalf("admitted over the master daily budget")
		}
	})
}

// Lowering usage never turns an admitted purchase into a refusal.
func TestEvaluateCheckoutIsMonotoneInUsage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, r, u := genRequest(t), genRules(t), genUsage(t)
		if _, err := EvaluateCheckout(req, r, u); err != nil {
			return
		}
		less := u
		less.BotDay /= 2
		less.CardMonth /= 2
		less.Profile /= 2
		less.OwnerMonth /= 2
		less.Available += 100
		if _, err := EvaluateCheckout(req, r, less); err != nil {
			t.Fatalf("admitted at higher usage, refused at lower usage: %v", err)
		}
	})
}

func TestWindowStart(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		at := time.Unix(rapid.Int64Range(0, 4102444800).Draw(t, "unix"), 0).UTC()
		week := WindowStart(AllowanceWeek, at)
		if week.Weekday() != time.Monday || week.After(at) || !at.Before(week.AddDate(0, 0, 7)) {
			t.Fatalf("week start of %s = %s", at, week)
		}
		y1, w1 := at.ISOWeek()
		y2, w2 := week.ISOWeek()
		if y1 != y2 || w1 != w2 {
			t.Fatalf("week start %s is in another ISO week than %s", week, at)
		}
		day := WindowStart(AllowanceDay, at)
		if day.After(at) || at.Sub(day) >= 24*time.Hour || day.Hour() != 0 {
			t.Fatalf("day start of %s = %s", at, day)
		}
		month := WindowStart(AllowanceMonth, at)
		if month.Day() != 1 || month.Month() != at.Month() || month.After(at) {
			t.Fatalf("month start of %s = %s", at, month)
		}
	})
}

func TestProcurementMatchesSubdomainsNotLookalikes(t *testing.T) {
	p := Procurement{BlockedDomains: []string{"acme.com"}}
	for url, blocked := range map[string]bool{"https://acme.com/a": true, "https://shop.acme.com": true, "acme.com": true,
		"https://evilacme.com": false, "https://acme.com.evil.io": false, "HTTPS://ACME.COM": true} {
		if got := p.Refusal("x", url) != ""; got != blocked {
			t.Errorf("%s blocked = %v, want %v", url, got, blocked)
		}
	}
}
