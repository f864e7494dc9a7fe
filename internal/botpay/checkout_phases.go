package botpay

import "time"

// The rules of a checkout, in the order DecideCheckout applies them
// (checkout_decision.go): pick the card, check the task, the rate limit,
// then judge the request (CheckWallet and EvaluateCheckout are in
// checkout.go).

// ErrCardNotFound: the checkout names a card that is not the bot's.
var ErrCardNotFound = Errorf(KindNotFound, CodeCardNotFound, "no card with this card_id is linked to this bot")

// ErrCardNotActive: the named card is inactive, or the bot has no active one.
var ErrCardNotActive = Errorf(KindForbidden, CodeCardNotActive, "no active card: the card is inactive or your owner has not added one")

// PickCheckoutCard picks the card and payment profile of a checkout among
// the bot's cards (any status): the card named by cardID, which must be
// active, or else the bot's only active card.
func PickCheckoutCard(cards []Card, cardID string, profileIndex int) (Card, PaymentProfile, error) {
	var candidates []Card
	for _, card := range cards {
		if (cardID != "" && card.ID == cardID) || (cardID == "" && card.Status == CardActive) {
			candidates = append(candidates, card)
		}
	}
	switch {
	case cardID != "" && len(candidates) == 0:
		return Card{}, PaymentProfile{}, ErrCardNotFound
	case len(candidates) == 0 || candidates[0].Status != CardActive:
		return Card{}, PaymentProfile{}, ErrCardNotActive
	case len(candidates) > 1:
		return Card{}, PaymentProfile{}, Errorf(KindInvalid, CodeCardIDRequired,
			"this bot has %d active cards; say which one with card_id", len(candidates))
	}
	card := candidates[0]
	profile, ok := card.Profile(profileIndex)
	if !ok {
		return card, profile, Errorf(KindInvalid, CodeInvalidProfile, "card %s has no payment profile %d", card.ID, profileIndex)
	}
	return card, profile, nil
}

// RulesFor completes the bot's and owner's rules with card and profile. A
// decoy profile is judged by its card alone: no master guardrails, no
// procurement controls.
func RulesFor(r SpendingRules, card Card, profile PaymentProfile) SpendingRules {
	r.Card, r.Profile, r.Decoy = card.Limits, profile, profile.Index != card.RealProfileIndex
	if r.Decoy {
		r.Master, r.Procurement = nil, Procurement{}
	}
	return r
}

// MasterBudgetsApply says whether the owner's usage across bots counts
// for r (a master daily or monthly budget on a real profile).
func MasterBudgetsApply(r SpendingRules) bool {
	return !r.Decoy && r.Master != nil && (r.Master.DailyBudget != nil || r.Master.MonthlyBudget != nil)
}

// CheckTaskForCheckout refuses a checkout whose task_id names no task of
// the bot (found false) or a completed one.
func CheckTaskForCheckout(taskID, status string, found bool) error {
	if !found {
		return ErrNotFound("task")
	}
	if status == TaskCompleted {
		return Errorf(KindConflict, CodeTaskCompleted, "task %s is already completed", taskID)
	}
	return nil
}

// CheckoutRateLimit refuses a checkout while the bot's quota-th most recent
// checkout, made at quotathLatest (nil when the bot has made fewer), is
// inside the window: quota checkouts are in it. The wait is until that one
// leaves. A quota of 0 or less sets no limit.
func CheckoutRateLimit(quota int, window time.Duration, quotathLatest *time.Time, now time.Time) error {
	if quota <= 0 || quotathLatest == nil || !quotathLatest.After(now.Add(-window)) {
		return nil
	}
	secs := max(1, int((quotathLatest.Add(window).Sub(now)+time.Second-1)/time.Second))
	return &Error{Kind: KindRateLimited, Code: CodeRateLimited,
		Message: "too many checkout requests; try again later", RetryAfterSeconds: secs,
		Limit: &RateLimit{Policy: "checkout", Quota: quota, WindowSeconds: int(window / time.Second)}}
}

// CheckoutDraft is a checkout request with the card and profile picked,
// before it is judged.
type CheckoutDraft struct {
	BotID, OwnerID string
	Card           Card
	Profile        PaymentProfile
	Request        CheckoutRequest
	ItemName       string
	TaskID         string
}

// JudgeCheckout turns a draft into its purchase: approved at once, held for
// the owner until its approval window closes, or declined with the refusal
// (a declined purchase is kept: it counts against the rate limit, never
// against budgets, and completes no task).
func JudgeCheckout(d CheckoutDraft, r SpendingRules, u Usage, now time.Time) (Purchase, *Error) {
	verdict, refused := EvaluateCheckout(d.Request, r, u)
	p := Purchase{ID: NewID("chk_"), BotID: d.BotID, OwnerID: d.OwnerID, CardID: d.Card.ID, ProfileIndex: d.Profile.Index,
		Decoy: r.Decoy, Amount: d.Request.Amount, MerchantName: d.Request.MerchantName, MerchantURL: d.Request.MerchantURL,
		ItemName: d.ItemName, Category: d.Request.Category, Status: PurchaseApproved, CreatedAt: now}
	switch {
	case refused != nil:
		p.Status, p.DecidedAt = PurchaseDeclined, now
	case verdict == Hold:
		p.TaskID, p.Status, p.ExpiresAt = d.TaskID, PurchasePending, now.Add(HoldWindow)
	default:
		p.TaskID, p.DecidedAt = d.TaskID, now
	}
	return p, refused
}
