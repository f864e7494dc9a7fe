package botpay

import (
	"errors"
	"time"
)

// CheckoutAsk is a bot's checkout request, validated, with the rate limit
// that applies to the bot's checkouts.
type CheckoutAsk struct {
	BotID        string
	CardID       string // optional
	ProfileIndex int
	Request      CheckoutRequest
	ItemName     string
	TaskID       string // optional
	// PerWindow checkouts of the bot (card or rail5) are admitted per
	// Window; 0 sets no limit.
	PerWindow int
	Window    time.Duration
}

// CheckoutFacts are what a checkout is decided on, read under the bot's
// wallet lock. When the wallet is not claimed or is frozen, only Claimed
// and Frozen are set; TaskStatus and the owner's usage are read only when
// CheckoutNeeds asks for them.
type CheckoutFacts struct {
	Now           time.Time
	Claimed       bool
	Frozen        bool
	OwnerID       string
	HasGuardrails bool          // false: the bot was never claimed
	Rules         SpendingRules // the bot's and owner's, without card and profile
	Card          Card
	Profile       PaymentProfile
	PickErr       error      // why no card or profile could be picked
	Usage         Usage      // the bot's, card's and profile's (and the owner's when read), and the available balance
	QuotathLatest *time.Time // the bot's PerWindow-th most recent checkout, if any
	TaskRead      bool       // TaskStatus and TaskFound were read
	TaskStatus    string
	TaskFound     bool
}

// ErrNoGuardrails: a claimed wallet whose bot has no guardrails row, which
// claiming always writes; never an answer to a bot.
var ErrNoGuardrails = errors.New("checkout: the bot has no guardrails")

// CheckoutNeeds says which facts beyond the wallet, configuration and usage
// a checkout's decision reads: the task's status (the request names a task
// and the wallet and card admit it) and the owner's usage across bots
// (master budgets apply to a request the admission lets through). Reading
// only those keeps a refused checkout from locking the task or the owner.
func CheckoutNeeds(f CheckoutFacts, ask CheckoutAsk) (task, ownerUsage bool) {
	if CheckWallet(f.Claimed, f.Frozen) != nil || f.PickErr != nil {
		return false, false
	}
	if ask.TaskID != "" && !f.TaskRead {
		return true, false
	}
	if admitCheckout(f, ask) != nil {
		return false, false
	}
	return false, MasterBudgetsApply(RulesFor(f.Rules, f.Card, f.Profile))
}

// CheckoutDecision is an admitted checkout: its purchase (approved, held,
// or declined) and, for a declined one, the refusal to answer once its
// record has committed.
type CheckoutDecision struct {
	Purchase Purchase
	Refusal  *Error
}

// DecideCheckout decides a checkout on its facts. A refusal before the
// guardrails (unclaimed or frozen wallet, no usable card or profile, a task
// the bot cannot complete, the rate limit) is the error, and nothing is
// recorded; a refusal by the guardrails is a declined purchase that is
// recorded, with the refusal.
func DecideCheckout(f CheckoutFacts, ask CheckoutAsk) (CheckoutDecision, error) {
	if err := CheckWallet(f.Claimed, f.Frozen); err != nil {
		return CheckoutDecision{}, err
	}
	if f.PickErr != nil {
		return CheckoutDecision{}, f.PickErr
	}
	if err := admitCheckout(f, ask); err != nil {
		return CheckoutDecision{}, err
	}
	p, refused := JudgeCheckout(CheckoutDraft{BotID: ask.BotID, OwnerID: f.OwnerID, Card: f.Card, Profile: f.Profile,
		Request: ask.Request, ItemName: ask.ItemName, TaskID: ask.TaskID}, RulesFor(f.Rules, f.Card, f.Profile), f.Usage, f.Now)
	return CheckoutDecision{Purchase: p, Refusal: refused}, nil
}

// admitCheckout refuses, in this order, a checkout naming a task the bot
// cannot complete, of a bot without guardrails, or over the rate limit.
func admitCheckout(f CheckoutFacts, ask CheckoutAsk) error {
	if ask.TaskID != "" {
		if err := CheckTaskForCheckout(ask.TaskID, f.TaskStatus, f.TaskFound); err != nil {
			return err
		}
	}
	if !f.HasGuardrails {
		return ErrNoGuardrails
	}
	return CheckoutRateLimit(ask.PerWindow, ask.Window, f.QuotathLatest, f.Now)
}
