package client

import (
	"context"
	"net/http"

	"github.com/botpay/botpay/wire"
)

// Registration statuses (docs/api.md).
const (
	StatusPendingOwnerVerification = "pending_owner_verification"
	StatusActive                   = "active"
)

// Bot statuses of the status endpoint (docs/api.md).
const (
	BotPending  = "pending"
	BotActive   = "active"
	BotFrozen   = "frozen"
	BotInactive = "inactive"
)

// Rail names (docs/api.md).
const (
	RailCardWallet      = "card_wallet"
	RailProcessorWallet = "processor_wallet"
)

// RegisterRequest is the body of Register (POST /api/v1/bots/register).
// Leave CallbackURL nil to get a managed tunnel; BotType, LocalPort and
// WebhookPath tune that tunnel and are nil for the service's defaults.
type RegisterRequest = wire.RegisterRequest

// Registration is the answer of Register. APIKey, WebhookSecret,
// TunnelToken and HooksToken are shown only this once: store them before
// doing anything else. ClaimToken and OwnerVerificationURL are set without
// a pairing code, OwnerUID with one; Status is StatusPendingOwnerVerification
// or, with a pairing code, StatusActive. The tunnel's fields are set only
// when no callback_url was given.
type Registration = wire.Registration

// TunnelSetup, in a Registration, tells the bot how to run the managed
// tunnel client; WebhookHeaders names the headers of each delivery, e.g.
// "X-Service-Signature": "sha256=<hmac>".
type TunnelSetup = wire.TunnelSetup

// Register creates a bot. It needs no API key, so it works on a client made
// with New(baseURL, ""); the answer's APIKey then goes to WithAPIKey.
// Registration is rate limited per IP (429 rate_limited with
// RetryAfterSeconds); pass WithIdempotencyKey so a retry after a lost answer
// returns the same bot instead of failing with duplicate_registration.
func (c *Client) Register(ctx context.Context, req RegisterRequest, opts ...CallOption) (*Registration, error) {
	var out Registration
	err := c.t.do(ctx, call{method: http.MethodPost, path: "/api/v1/bots/register", in: req, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// BotStatus is the answer of Status (GET /api/v1/bot/status). Status is
// BotPending, BotActive, BotFrozen or BotInactive; DefaultRail and
// MasterGuardrails are nil until the owner claims the bot; WebhookStatus is
// "active", "degraded", "unreachable" or "none"; Livemode is false in the
// sandbox, where payments are simulated and no real money moves.
type BotStatus = wire.BotStatus

// Rails holds the bot's payment rails in BotStatus; a nil field is a rail
// the bot does not have.
type Rails = wire.Rails

// CardWalletRail is the dollar wallet the owner funds, in Rails; its
// BalanceUSD is the available balance (held purchases are subtracted).
type CardWalletRail = wire.CardWallet

// ProcessorWalletRail is the on-chain USDC wallet, in Rails; its
// BalanceUSD is nil in live mode while the chain cannot be read.
type ProcessorWalletRail = wire.ProcessorWallet

// SpendingLimits summarise the bot's limits and this month's spending, in
// WalletCheck and CardWalletRail.
type SpendingLimits = wire.SpendingLimits

// MasterGuardrails are the owner's limits across all of their bots, the
// answer of OwnerClient.MasterGuardrails and in BotStatus; a nil amount
// means no limit. UpdatedAt is nil while the owner never set them.
type MasterGuardrails = wire.MasterGuardrails

// Status reports the bot's state, rails and webhook health.
func (c *Client) Status(ctx context.Context, opts ...CallOption) (*BotStatus, error) {
	var out BotStatus
	if err := c.do(ctx, http.MethodGet, "/api/v1/bot/status", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// WebhookState is the bot's webhook after a change of its callback URL,
// the answer of UpdateProfile and OwnerClient.SetCallbackURL.
type WebhookState = wire.CallbackState

// UpdateProfile points the bot's webhook at callbackURL (PATCH
// /api/v1/bot/profile). Health goes back to "active" with no failures; the
// webhook secret stays the same.
func (c *Client) UpdateProfile(ctx context.Context, callbackURL string, opts ...CallOption) (*WebhookState, error) {
	var out WebhookState
	in := wire.UpdateBotProfileRequest{CallbackURL: callbackURL}
	if err := c.do(ctx, http.MethodPatch, "/api/v1/bot/profile", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
