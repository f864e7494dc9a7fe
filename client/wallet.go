package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Wallet statuses (docs/api.md, docs/decisions.md).
const (
	WalletActive   = "active"
	WalletEmpty    = "empty"
	WalletPending  = "pending"
	WalletInactive = "inactive"
)

// WalletCheck is the answer of GET /api/v1/bot/wallet/check (docs/api.md)
type WalletCheck struct {
	// WalletStatus is WalletPending before the claim, WalletEmpty at zero
	// balance, WalletActive when funded and WalletInactive while frozen.
	WalletStatus string `json:"wallet_status"`
	// BalanceUSD is the available balance: held purchases are subtracted.
	BalanceUSD USD    `json:"balance_usd"`
	HeldUSD    USD    `json:"held_usd"`
	CardStatus string `json:"card_status"`
	// SpendingLimits is nil until the wallet is active.
	SpendingLimits *SpendingLimits `json:"spending_limits,omitempty"`
	// PendingTopups counts top-up requests the owner has not yet covered.
	PendingTopups int    `json:"pending_topups"`
	Frozen        bool   `json:"frozen"`
	Message       string `json:"message,omitempty"`
}

// WalletCheck reports balance and wallet state. Before the claim it answers
// WalletPending with a message rather than an error.
func (c *Client) WalletCheck(ctx context.Context, opts ...CallOption) (*WalletCheck, error) {
	var out WalletCheck
	if err := c.do(ctx, http.MethodGet, "/api/v1/bot/wallet/check", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Transaction is one ledger row (docs/api.md).
type Transaction struct {
	ID int64 `json:"id"`
	// Type is "fund", "spend", "refund", ...
	Type string `json:"type"`
	// AmountUSD is negative for debits.
	AmountUSD USD `json:"amount_usd"`
	// BalanceAfterUSD is the ledger balance after this row, when known.
	BalanceAfterUSD *USD      `json:"balance_after_usd"`
	Description     string    `json:"description"`
	CreatedAt       time.Time `json:"created_at"`
}

// Transactions lists the newest ledger rows, newest first. limit is 1-100;
// 0 lets the service pick its default (50). Before the claim it fails with
// 403 wallet_not_active.
func (c *Client) Transactions(ctx context.Context, limit int, opts ...CallOption) ([]Transaction, error) {
	var query url.Values
	if limit != 0 {
		query = url.Values{"limit": {strconv.Itoa(limit)}}
	}
	var out struct {
		Transactions []Transaction `json:"transactions"`
	}
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/wallet/transactions", query: query,
		token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.Transactions, nil
}

// TopupRequestResult is the answer of POST /api/v1/bot/wallet/topup-request
// (docs/api.md).
type TopupRequestResult struct {
	TopupRequestID int64  `json:"topup_request_id"`
	Status         string `json:"status"`
	AmountUSD      USD    `json:"amount_usd"`
	// OwnerNotified is false when the e-mail to the owner could not be sent;
	// the request is recorded either way.
	OwnerNotified bool   `json:"owner_notified"`
	Message       string `json:"message"`
}

// TopupRequest asks the owner by e-mail to add amountUSD to the wallet;
// reason may be empty. A funding that covers the request marks it fulfilled
// (pending_topups in WalletCheck goes down).
func (c *Client) TopupRequest(ctx context.Context, amountUSD USD, reason string, opts ...CallOption) (*TopupRequestResult, error) {
	in := struct {
		AmountUSD USD    `json:"amount_usd"`
		Reason    string `json:"reason,omitempty"`
	}{amountUSD, reason}
	var out TopupRequestResult
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/wallet/topup-request", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Approval modes (docs/api.md).
const (
	ApprovalAskForEverything = "ask_for_everything"
	ApprovalUnderThreshold   = "auto_approve_under_threshold"
	ApprovalByCategory       = "auto_approve_by_category"
)

// Guardrails are the bot's spending rules (docs/api.md).
type Guardrails struct {
	ApprovalMode     string          `json:"approval_mode"`
	Limits           GuardrailLimits `json:"limits"`
	RecurringAllowed bool            `json:"recurring_allowed"`
	Notes            *string         `json:"notes"`
	// UpdatedAt is set by the service and ignored when sent.
	UpdatedAt          time.Time `json:"updated_at"`
	ApprovedCategories []string  `json:"approved_categories"`
	BlockedCategories  []string  `json:"blocked_categories"`
}

// GuardrailLimits are the amounts of Guardrails.
type GuardrailLimits struct {
	PerTransactionUSD USD `json:"per_transaction_usd"`
	DailyUSD          USD `json:"daily_usd"`
	MonthlyUSD        USD `json:"monthly_usd"`
	// AskApprovalAboveUSD is nil when no threshold applies.
	AskApprovalAboveUSD *USD `json:"ask_approval_above_usd"`
}

// Spending returns the bot's spending rules. Before the claim it fails with
// 403 wallet_not_active.
func (c *Client) Spending(ctx context.Context, opts ...CallOption) (*Guardrails, error) {
	var out Guardrails
	if err := c.do(ctx, http.MethodGet, "/api/v1/bot/wallet/spending", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
