package botpay

import "time"

// Rail5 card statuses (docs/api.md).
const (
	Rail5PendingDelivery = "pending_delivery"
	Rail5Confirmed       = "confirmed"
)

// Rail5 checkout statuses: approved (key not yet released), key_released,
// then completed or failed as the bot reports.
const (
	Rail5CheckoutApproved    = "approved"
	Rail5CheckoutKeyReleased = "key_released"
	Rail5CheckoutCompleted   = "completed"
	Rail5CheckoutFailed      = "failed"
	Rail5CheckoutDeclined    = "declined" // refused by a guardrail; counts only against the rate limit
)

// Error codes of rail5 (docs/decisions.md and docs/decisions.md).
const (
	CodeApprovalRequired     = "approval_required"
	CodeKeyAlreadyReleased   = "key_already_released"
	CodeInvalidCheckoutState = "invalid_checkout_status"
)

// Rail5Card is a card whose full details exist only in the encrypted card
// file the bot holds.
type Rail5Card struct {
	ID        string
	BotID     string
	OwnerID   string
	Name      string
	Last4     string
	Status    string
	CreatedAt time.Time
}

// Rail5Checkout is one spend with a rail5 card. It is charged to the
// owner's card directly, not to the wallet balance, and counts against the
// bot's and the owner's budgets.
type Rail5Checkout struct {
	ID           string
	BotID        string
	OwnerID      string
	CardID       string
	Amount       Money
	MerchantName string
	MerchantURL  string
	ItemName     string
	Status       string
	Reason       string
	CreatedAt    time.Time
}
