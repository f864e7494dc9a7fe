package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/botpay/botpay/wire"
)

// Wallet statuses (docs/api.md, docs/decisions.md).
const (
	WalletActive   = "active"
	WalletEmpty    = "empty"
	WalletPending  = "pending"
	WalletInactive = "inactive"
)

// WalletCheck is the answer of WalletCheck (GET /api/v1/bot/wallet/check).
// WalletStatus is WalletPending before the claim, WalletEmpty at zero
// balance, WalletActive when funded and WalletInactive while frozen;
// BalanceUSD is the available balance (held purchases are subtracted);
// SpendingLimits is nil until the wallet is active; PendingTopups counts
// top-up requests the owner has not yet covered.
type WalletCheck = wire.WalletCheck

// WalletCheck reports balance and wallet state. Before the claim it answers
// WalletPending with a message rather than an error.
func (c *Client) WalletCheck(ctx context.Context, opts ...CallOption) (*WalletCheck, error) {
	var out WalletCheck
	if err := c.do(ctx, http.MethodGet, "/api/v1/bot/wallet/check", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Transaction is one ledger row, the items of Transactions and in
// Funding. Type is "fund", "spend", "refund", ...; AmountUSD is negative
// for debits; BalanceAfterUSD is the ledger balance after this row, when
// known.
type Transaction = wire.Transaction

// Transactions lists the newest ledger rows, newest first. limit is 1-100;
// 0 lets the service pick its default (50). Before the claim it fails with
// 403 wallet_not_active.
func (c *Client) Transactions(ctx context.Context, limit int, opts ...CallOption) ([]Transaction, error) {
	var query url.Values
	if limit != 0 {
		query = url.Values{"limit": {strconv.Itoa(limit)}}
	}
	var out wire.ListTransactionsResponse
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/wallet/transactions", query: query,
		token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.Transactions, nil
}

// TopupRequestResult is the answer of TopupRequest. OwnerNotified is false
// when the e-mail to the owner could not be sent; the request is recorded
// either way.
type TopupRequestResult = wire.RequestTopupResponse

// TopupRequest asks the owner by e-mail to add amountUSD to the wallet;
// reason may be empty. A funding that covers the request marks it fulfilled
// (pending_topups in WalletCheck goes down).
func (c *Client) TopupRequest(ctx context.Context, amountUSD USD, reason string, opts ...CallOption) (*TopupRequestResult, error) {
	in := wire.RequestTopupRequest{AmountUSD: amountUSD, Reason: optional(reason)}
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

// Guardrails are the bot's spending rules, the answer of Spending and
// OwnerClient.Guardrails. UpdatedAt is set by the service and not sent by
// OwnerClient.SetGuardrails.
type Guardrails = wire.Guardrails

// GuardrailLimits are the amounts of Guardrails; AskApprovalAboveUSD is nil
// when no threshold applies.
type GuardrailLimits = wire.GuardrailsLimits

// Spending returns the bot's spending rules. Before the claim it fails with
// 403 wallet_not_active.
func (c *Client) Spending(ctx context.Context, opts ...CallOption) (*Guardrails, error) {
	var out Guardrails
	if err := c.do(ctx, http.MethodGet, "/api/v1/bot/wallet/spending", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
