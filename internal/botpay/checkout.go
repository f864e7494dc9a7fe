package botpay

// CheckoutRequest is what the guardrail evaluation needs of a checkout.
type CheckoutRequest struct {
	Amount       Money
	MerchantName string
	MerchantURL  string
	Category     string
}

// SpendingRules are every limit that applies to one checkout on one card
// profile.
type SpendingRules struct {
	Bot         Guardrails
	Card        CardLimits
	Profile     PaymentProfile
	Decoy       bool              // the profile is not the card's real one
	Master      *MasterGuardrails // nil: the owner set none
	Procurement Procurement
}

// Usage is what counts against the limits before this checkout: approved
// and held real purchases in the current windows, and the available
// balance. Profile is the usage of this profile's own allowance window
// (decoy purchases count there, and only there).
type Usage struct {
	Available  Money
	BotDay     Money
	BotMonth   Money
	CardDay    Money
	CardMonth  Money
	Profile    Money
	OwnerDay   Money
	OwnerMonth Money
}

// Verdict is the outcome of a checkout that passed every guardrail.
type Verdict int

const (
	// Approve: approved at once; real purchases are debited.
	Approve Verdict = iota + 1
	// Hold: the owner decides; a hold is placed on the amount.
	Hold
)

// CheckWallet is step 1 of the API reference (docs/api.md): the wallet must be claimed
// and not frozen.
func CheckWallet(claimed, frozen bool) error {
	switch {
	case !claimed:
		return ErrWalletNotActive
	case frozen:
		return &Error{Kind: KindForbidden, Code: CodeWalletFrozen, Message: "your owner froze this wallet; spending is blocked"}
	}
	return nil
}

// EvaluateCheckout applies steps 2 to 5 of the API reference (docs/api.md) in order: card
// guardrails (the tighter of the card's and the bot's limits), the profile's
// allowance window, master guardrails (real profile only), then procurement
// controls and the approval mode, and last the available balance (a hold
// needs the money as much as a debit does). A decoy profile is approved once
// it passes steps 2 and 3: it moves no money. A refusal is a *Error whose
// Code is one of the error codes of this package (codes.go).
func EvaluateCheckout(req CheckoutRequest, r SpendingRules, u Usage) (Verdict, *Error) {
	if err := cardGuardrails(req.Amount, r.Bot, r.Card, u); err != nil {
		return 0, err
	}
	if u.Profile+req.Amount > r.Profile.Allowance {
		return 0, refuse(KindForbidden, CodeAllowanceExceeded, "the payment profile's "+allowanceAdjective[r.Profile.AllowanceDuration]+
			" allowance of $"+r.Profile.Allowance.USD()+" would be exceeded")
	}
	if r.Decoy {
		return Approve, nil
	}
	if err := masterGuardrails(req.Amount, r.Master, u); err != nil {
		return 0, err
	}
	if reason := r.Procurement.Refusal(req.MerchantName, req.MerchantURL); reason != "" {
		return 0, refuse(KindForbidden, CodeCardGuardrailViolation, reason)
	}
	verdict, err := approvalMode(req, r.Bot, r.Profile)
	if err != nil {
		return 0, err
	}
	if req.Amount > u.Available {
		return 0, refuse(KindPaymentRequired, CodeInsufficientFunds, "the available balance of $"+u.Available.USD()+
			" does not cover $"+req.Amount.USD())
	}
	return verdict, nil
}

var allowanceAdjective = map[string]string{AllowanceDay: "daily", AllowanceWeek: "weekly", AllowanceMonth: "monthly"}

func refuse(kind Kind, code, msg string) *Error { return &Error{Kind: kind, Code: code, Message: msg} }

// tighter is the smaller of the bot's limit and the card's optional one.
func tighter(bot Money, card *Money) Money {
	if card != nil && *card < bot {
		return *card
	}
	return bot
}

func cardGuardrails(amount Money, g Guardrails, c CardLimits, u Usage) *Error {
	violation := func(what string, limit Money) *Error {
		return refuse(KindForbidden, CodeCardGuardrailViolation, "the "+what+" limit of $"+limit.USD()+" would be exceeded")
	}
	if limit := tighter(g.PerTransaction, c.PerTransaction); amount > limit {
		return violation("per-transaction", limit)
	}
	if u.BotDay+amount > g.Daily {
		return violation("daily", g.Daily)
	}
	if c.Daily != nil && u.CardDay+amount > *c.Daily {
		return violation("card's daily", *c.Daily)
	}
	if u.BotMonth+amount > g.Monthly {
		return violation("monthly", g.Monthly)
	}
	if c.Monthly != nil && u.CardMonth+amount > *c.Monthly {
		return violation("card's monthly", *c.Monthly)
	}
	return nil
}

func masterGuardrails(amount Money, m *MasterGuardrails, u Usage) *Error {
	if m == nil {
		return nil
	}
	over := func(what string, limit Money) *Error {
		return refuse(KindForbidden, CodeMasterBudgetExceeded, "your owner's master "+what+" of $"+limit.USD()+" would be exceeded")
	}
	switch {
	case m.PerTransaction != nil && amount > *m.PerTransaction:
		return over("per-transaction limit", *m.PerTransaction)
	case m.DailyBudget != nil && u.OwnerDay+amount > *m.DailyBudget:
		return over("daily budget", *m.DailyBudget)
	case m.MonthlyBudget != nil && u.OwnerMonth+amount > *m.MonthlyBudget:
		return over("monthly budget", *m.MonthlyBudget)
	}
	return nil
}

// approvalMode decides between approving at once and asking the owner. A
// blocked category is refused outright under auto_approve_by_category.
func approvalMode(req CheckoutRequest, g Guardrails, p PaymentProfile) (Verdict, *Error) {
	needsOwner := p.HumanPermissionRequired
	switch g.ApprovalMode {
	case ApprovalAskForEverything:
		needsOwner = true
	case ApprovalUnderThreshold:
		if g.AskApprovalAbove != nil && req.Amount > *g.AskApprovalAbove {
			needsOwner = true
		}
	case ApprovalByCategory:
		switch {
		case req.Category != "" && anyName(req.Category, g.BlockedCategories):
			return 0, refuse(KindForbidden, CodeCardGuardrailViolation, "category "+req.Category+" is blocked by your owner")
		case req.Category == "" || !anyName(req.Category, g.ApprovedCategories):
			needsOwner = true
		}
	default:
		needsOwner = true
	}
	if needsOwner {
		return Hold, nil
	}
	return Approve, nil
}
