package client

import (
	"context"
	"net/http"
	"time"
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

// RegisterRequest is the body of POST /api/v1/bots/register (docs/api.md)
// Leave CallbackURL empty to get a managed tunnel; BotType, LocalPort
// and WebhookPath tune that tunnel and are zero for the service's defaults.
type RegisterRequest struct {
	BotName     string `json:"bot_name"`
	OwnerEmail  string `json:"owner_email"`
	Description string `json:"description,omitempty"`
	CallbackURL string `json:"callback_url,omitempty"`
	PairingCode string `json:"pairing_code,omitempty"`
	BotType     string `json:"bot_type,omitempty"`
	LocalPort   int    `json:"local_port,omitempty"`
	WebhookPath string `json:"webhook_path,omitempty"`
}

// Registration is the answer to Register (docs/api.md). APIKey,
// WebhookSecret, TunnelToken and HooksToken are shown only this once: store
// them before doing anything else.
type Registration struct {
	BotID   string `json:"bot_id"`
	BotName string `json:"bot_name"`
	APIKey  string `json:"api_key"`
	// ClaimToken is nil when a pairing code was used.
	ClaimToken *string `json:"claim_token"`
	// Status is StatusPendingOwnerVerification or, with a pairing code,
	// StatusActive.
	Status string `json:"status"`
	// OwnerVerificationURL carries the claim token; only without a pairing code.
	OwnerVerificationURL string `json:"owner_verification_url,omitempty"`
	Paired               bool   `json:"paired"`
	// OwnerUID is set only when a pairing code was used.
	OwnerUID      string `json:"owner_uid,omitempty"`
	WebhookSecret string `json:"webhook_secret,omitempty"`
	WebhookNote   string `json:"webhook_note,omitempty"`
	Important     string `json:"important,omitempty"`

	// Managed tunnel, only when no callback_url was given.
	WebhookURL     string       `json:"webhook_url,omitempty"`
	TunnelToken    string       `json:"tunnel_token,omitempty"`
	TunnelSetup    *TunnelSetup `json:"tunnel_setup,omitempty"`
	HooksToken     string       `json:"hooks_token,omitempty"`
	HooksTokenNote string       `json:"hooks_token_note,omitempty"`
}

// TunnelSetup tells the bot how to run the managed tunnel client (docs/api.md)
type TunnelSetup struct {
	WebhookURL          string   `json:"webhook_url"`
	TunnelToken         string   `json:"tunnel_token"`
	TunnelClientCommand string   `json:"tunnel_client_command"`
	LocalPort           int      `json:"local_port"`
	WebhookPath         string   `json:"webhook_path"`
	Steps               []string `json:"steps"`
	// WebhookHeaders names the headers of each delivery, e.g.
	// "X-Service-Signature": "sha256=<hmac>".
	WebhookHeaders map[string]string `json:"webhook_headers"`
	RetryPolicy    string            `json:"retry_policy"`
	GatewayConfig  string            `json:"gateway_config"`
}

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

// BotStatus is the answer of GET /api/v1/bot/status (docs/api.md).
type BotStatus struct {
	BotID string `json:"bot_id"`
	// BotName is the display name given at registration.
	BotName string `json:"bot_name"`
	// Status is BotPending, BotActive, BotFrozen or BotInactive.
	Status string `json:"status"`
	// DefaultRail is nil until the owner claims the bot.
	DefaultRail *string  `json:"default_rail"`
	ActiveRails []string `json:"active_rails"`
	Rails       Rails    `json:"rails"`
	// MasterGuardrails is nil until the bot is claimed.
	MasterGuardrails *MasterGuardrails `json:"master_guardrails"`
	PendingMessages  int               `json:"pending_messages"`
	// WebhookStatus is "active", "degraded", "unreachable" or "none".
	WebhookStatus    string  `json:"webhook_status"`
	WebhookFailCount int     `json:"webhook_fail_count"`
	CallbackURL      *string `json:"callback_url"`
	WalletStatus     string  `json:"wallet_status,omitempty"`
	// Message explains a pending status.
	Message string `json:"message,omitempty"`
	// LiveMode is false in the sandbox, where payments are simulated and
	// no real money moves.
	LiveMode bool `json:"livemode"`
}

// Rails holds the bot's payment rails; a nil field is a rail the bot does not
// have (docs/api.md).
type Rails struct {
	CardWallet      *CardWalletRail      `json:"card_wallet,omitempty"`
	ProcessorWallet *ProcessorWalletRail `json:"processor_wallet,omitempty"`
}

// CardWalletRail is the dollar wallet the owner funds.
type CardWalletRail struct {
	Status string `json:"status"`
	// BalanceUSD is the available balance: held purchases are subtracted.
	BalanceUSD     USD             `json:"balance_usd"`
	HeldUSD        USD             `json:"held_usd"`
	SpendingLimits *SpendingLimits `json:"spending_limits"`
}

// ProcessorWalletRail is the on-chain USDC wallet.
type ProcessorWalletRail struct {
	Status     string `json:"status"`
	BalanceUSD USD    `json:"balance_usd"`
	Address    string `json:"address"`
}

// SpendingLimits summarise the bot's limits and this month's spending
// (docs/api.md).
type SpendingLimits struct {
	PerTransactionUSD   USD `json:"per_transaction_usd"`
	MonthlyUSD          USD `json:"monthly_usd"`
	MonthlySpentUSD     USD `json:"monthly_spent_usd"`
	MonthlyRemainingUSD USD `json:"monthly_remaining_usd"`
}

// MasterGuardrails are the owner's limits across all of their bots; a nil
// amount means no limit (docs/api.md, docs/decisions.md).
type MasterGuardrails struct {
	PerTransactionUSD *USD `json:"per_transaction_usd"`
	DailyBudgetUSD    *USD `json:"daily_budget_usd"`
	MonthlyBudgetUSD  *USD `json:"monthly_budget_usd"`
	// UpdatedAt is nil while the owner never set them. It is ignored when
	// sent.
	UpdatedAt *time.Time `json:"updated_at,omitempty"`
}

// Status reports the bot's state, rails and webhook health.
func (c *Client) Status(ctx context.Context, opts ...CallOption) (*BotStatus, error) {
	var out BotStatus
	if err := c.do(ctx, http.MethodGet, "/api/v1/bot/status", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// WebhookState is the bot's webhook after a change of its callback URL
// (docs/decisions.md).
type WebhookState struct {
	BotID            string `json:"bot_id"`
	CallbackURL      string `json:"callback_url"`
	WebhookStatus    string `json:"webhook_status"`
	WebhookFailCount int    `json:"webhook_fail_count"`
}

// UpdateProfile points the bot's webhook at callbackURL (PATCH
// /api/v1/bot/profile). Health goes back to "active" with no failures; the
// webhook secret stays the same.
func (c *Client) UpdateProfile(ctx context.Context, callbackURL string, opts ...CallOption) (*WebhookState, error) {
	var out WebhookState
	in := map[string]string{"callback_url": callbackURL}
	if err := c.do(ctx, http.MethodPatch, "/api/v1/bot/profile", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
