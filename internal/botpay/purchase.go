package botpay

import "time"

// HoldWindow is how long a held purchase waits for its owner's decision
// (docs/api.md).
const HoldWindow = 15 * time.Minute

// Purchase statuses (docs/api.md). A new held purchase is reported
// as PurchasePendingConfirmation in the checkout answer.
const (
	PurchasePending             = "pending"
	PurchasePendingConfirmation = "pending_confirmation"
	PurchaseApproved            = "approved"
	PurchaseDenied              = "denied"
	PurchaseExpired             = "expired"
	// PurchaseDeclined records a checkout refused by a guardrail; it is
	// never shown to the bot and counts only against the rate limit.
	PurchaseDeclined = "declined"
)

// Purchase is a checkout confirmation (docs/api.md). Decoy purchases
// are approved without moving money.
type Purchase struct {
	ID           string // chk_…
	BotID        string
	OwnerID      string
	CardID       string
	ProfileIndex int
	Decoy        bool
	Amount       Money
	MerchantName string
	MerchantURL  string
	ItemName     string
	Category     string
	TaskID       string
	Status       string
	CreatedAt    time.Time
	ExpiresAt    time.Time // zero unless it was held
	DecidedAt    time.Time
	LedgerID     int64 // the spend row once money moved
	Refunded     Money // what the merchant gave back so far
}

// StatusAt is the status as of now: a pending purchase whose window has
// passed is expired even before the expiry worker has released its hold,
// so no read ever shows an overdue request as pending.
func (p Purchase) StatusAt(now time.Time) string {
	if p.Status == PurchasePending && !now.Before(p.ExpiresAt) {
		return PurchaseExpired
	}
	return p.Status
}

// Spending events and their rails.updated actions (docs/api.md).
const (
	EventSpendAuthorized   = "wallet.spend.authorized"
	EventSpendDeclined     = "wallet.spend.declined"
	EventBalanceLow        = "wallet.balance.low"
	EventPurchaseApproved  = "purchase.approved"
	EventPurchaseRejected  = "purchase.rejected"
	EventPurchaseExpired   = "purchase.expired"
	EventRail5Delivered    = "rail5.card.delivered"
	EventRail5Completed    = "rail5.checkout.completed"
	EventRail5Failed       = "rail5.checkout.failed"
	ActionCardCreated      = "card_created"
	ActionCardFrozen       = "card_frozen"
	ActionCardUnfrozen     = "card_unfrozen"
	DefaultLowBalanceCents = Money(500)
)

// Error codes of checkout and approvals (docs/api.md, docs/decisions.md).
const (
	CodeCardIDRequired         = "card_id_required"
	CodeInvalidProfile         = "invalid_profile"
	CodeInsufficientFunds      = "insufficient_funds"
	CodeCardNotActive          = "card_not_active"
	CodeCardGuardrailViolation = "card_guardrail_violation"
	CodeAllowanceExceeded      = "allowance_exceeded"
	CodeMasterBudgetExceeded   = "master_budget_exceeded"
	CodeCardNotFound           = "card_not_found"
	CodeAlreadyDecided         = "already_decided"
	CodeExpired                = "expired"
	CodeTaskCompleted          = "task_already_completed"
	CodeInvalidCardStatus      = "invalid_card_status"
)

// Task statuses (docs/decisions.md).
const (
	TaskQueued    = "queued"
	TaskDelivered = "delivered"
	TaskCompleted = "completed"
)

// Task is an owner-queued purchase for a bot (docs/api.md).
type Task struct {
	ID           string
	BotID        string
	MerchantName string
	MerchantURL  string
	ItemName     string
	Amount       Money
	Category     string
	ProfileIndex *int
	Status       string
	CreatedAt    time.Time
}
