package client

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Checkout statuses (docs/api.md).
const (
	PurchasePendingConfirmation = "pending_confirmation"
	PurchasePending             = "pending"
	PurchaseApproved            = "approved"
	PurchaseDenied              = "denied"
	PurchaseExpired             = "expired"
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
	CodeTaskAlreadyCompleted   = "task_already_completed"
)

// CheckoutRequest is the body of POST /api/v1/bot/merchant/checkout
// (docs/api.md).
type CheckoutRequest struct {
	ProfileIndex int    `json:"profile_index"`
	MerchantName string `json:"merchant_name"`
	// MerchantURL is the shop's URL or an identifier; procurement controls
	// match its host.
	MerchantURL string `json:"merchant_url"`
	ItemName    string `json:"item_name"`
	AmountCents int64  `json:"amount_cents"`
	Category    string `json:"category,omitempty"`
	// TaskID completes an owner-queued task (see NextTask).
	TaskID string `json:"task_id,omitempty"`
	// CardID is required when the bot has several active cards.
	CardID string `json:"card_id,omitempty"`
}

// Checkout is the answer of a checkout (200 approved or 202 held) and of a
// status poll (docs/api.md).
type Checkout struct {
	// Approved is set on checkout answers: true with card details (HTTP 200),
	// false while the owner decides (HTTP 202, Status
	// PurchasePendingConfirmation).
	Approved       bool   `json:"approved"`
	ConfirmationID string `json:"confirmation_id"`
	// Status is PurchasePendingConfirmation on a new held checkout, then
	// PurchasePending, PurchaseApproved, PurchaseDenied or PurchaseExpired.
	Status       string `json:"status"`
	ProfileIndex int    `json:"profile_index"`
	MerchantName string `json:"merchant_name"`
	ItemName     string `json:"item_name"`
	AmountUSD    USD    `json:"amount_usd"`
	// MissingDigits, ExpiryMonth and ExpiryYear come only when approved.
	MissingDigits string `json:"missing_digits,omitempty"`
	ExpiryMonth   string `json:"expiry_month,omitempty"`
	ExpiryYear    string `json:"expiry_year,omitempty"`
	// ExpiresAt is when a held purchase expires without a decision.
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	Message   string     `json:"message"`
}

// Checkout asks to spend. A refusal is an *Error: 403
// card_guardrail_violation, allowance_exceeded, master_budget_exceeded,
// wallet_not_active, wallet_frozen or card_not_active; 402
// insufficient_funds; 400 card_id_required, invalid_profile or
// validation_error; 404 card_not_found; 429 rate_limited (30 an hour). Use
// WithIdempotencyKey so a retry cannot buy twice.
func (c *Client) Checkout(ctx context.Context, req CheckoutRequest, opts ...CallOption) (*Checkout, error) {
	var out Checkout
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/merchant/checkout", req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// CheckoutStatus polls a checkout; poll every 5 seconds for the first
// minute, then every 15 seconds until it expires.
func (c *Client) CheckoutStatus(ctx context.Context, confirmationID string, opts ...CallOption) (*Checkout, error) {
	var out Checkout
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/merchant/checkout/status",
		query: url.Values{"confirmation_id": {confirmationID}}, token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// TaskInstructions say what to buy (docs/api.md).
type TaskInstructions struct {
	ProfileIndex *int   `json:"profile_index"`
	MerchantName string `json:"merchant_name"`
	MerchantURL  string `json:"merchant_url"`
	ItemName     string `json:"item_name"`
	AmountCents  int64  `json:"amount_cents"`
	Category     string `json:"category"`
}

// Task is the answer of POST /api/v1/bot/tasks/next.
type Task struct {
	HasTask      bool              `json:"has_task"`
	TaskType     string            `json:"task_type,omitempty"`
	TaskID       string            `json:"task_id,omitempty"`
	Instructions *TaskInstructions `json:"instructions,omitempty"`
	Message      string            `json:"message"`
}

// NextTask takes the oldest task the owner queued; HasTask is false when
// none waits. Fulfil it with Checkout and its TaskID.
func (c *Client) NextTask(ctx context.Context, opts ...CallOption) (*Task, error) {
	var out Task
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/tasks/next", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
