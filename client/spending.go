package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/botpay/botpay/wire"
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

// CheckoutRequest is the body of Checkout (POST
// /api/v1/bot/merchant/checkout). MerchantURL is the shop's URL or an
// identifier (procurement controls match its host); TaskID completes an
// owner-queued task (see NextTask); CardID is required when the bot has
// several active cards.
type CheckoutRequest = wire.CheckoutRequest

// Checkout is a purchase, the answer of Checkout (200 approved or 202
// held) and of CheckoutStatus. Approved is set on checkout answers only:
// true with card details (MissingDigits, ExpiryMonth, ExpiryYear), false
// while the owner decides (Status PurchasePendingConfirmation, then
// PurchasePending, PurchaseApproved, PurchaseDenied or PurchaseExpired).
// ExpiresAt is when a held purchase expires without a decision.
type Checkout = wire.Purchase

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

// TaskInstructions say what to buy, in Task.
type TaskInstructions = wire.TaskInstructions

// Task is the answer of NextTask.
type Task = wire.Task

// NextTask takes the oldest task the owner queued; HasTask is false when
// none waits. Fulfil it with Checkout and its TaskID.
func (c *Client) NextTask(ctx context.Context, opts ...CallOption) (*Task, error) {
	var out Task
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/tasks/next", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
