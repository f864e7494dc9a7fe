package client

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// OwnerClient calls the owner API of docs/decisions.md with an owner token
// (the humans who claim, fund and limit bots). It is safe for concurrent use.
type OwnerClient struct {
	t     transport
	token string
}

// NewOwner returns an owner client for the service at baseURL. token may be
// empty for a client that only signs up or logs in; see WithToken.
func NewOwner(baseURL, token string, opts ...Option) *OwnerClient {
	return &OwnerClient{t: newTransport(baseURL, opts), token: token}
}

// WithToken returns an owner client with the same settings that
// authenticates with token, typically the one Signup or Login returned.
func (o *OwnerClient) WithToken(token string) *OwnerClient {
	return &OwnerClient{t: o.t, token: token}
}

func (o *OwnerClient) do(ctx context.Context, method, path string, in, out any, opts []CallOption) error {
	return o.t.do(ctx, call{method: method, path: path, token: o.token, in: in, out: out}, opts)
}

// OwnerSession is a signed-up or logged-in owner with a fresh token.
type OwnerSession struct {
	OwnerUID string `json:"owner_uid"`
	// Email is returned by Signup only.
	Email string `json:"email,omitempty"`
	Token string `json:"token"`
}

type credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Signup creates an owner account (password at least 12 characters); 409
// email_taken when the e-mail already has one.
func (o *OwnerClient) Signup(ctx context.Context, email, password string, opts ...CallOption) (*OwnerSession, error) {
	var out OwnerSession
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/signup", credentials{email, password}, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Login issues a new owner token; 401 invalid_credentials on a wrong e-mail
// or password.
func (o *OwnerClient) Login(ctx context.Context, email, password string, opts ...CallOption) (*OwnerSession, error) {
	var out OwnerSession
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/login", credentials{email, password}, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Logout revokes the client's token.
func (o *OwnerClient) Logout(ctx context.Context, opts ...CallOption) error {
	return o.do(ctx, http.MethodPost, "/api/v1/owner/logout", nil, nil, opts)
}

// PairingCode lets a bot register already claimed by this owner: single use,
// valid one hour.
type PairingCode struct {
	PairingCode string    `json:"pairing_code"`
	ExpiresAt   time.Time `json:"expires_at"`
}

// CreatePairingCode issues a pairing code for the next bot to register.
func (o *OwnerClient) CreatePairingCode(ctx context.Context, opts ...CallOption) (*PairingCode, error) {
	var out PairingCode
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/pairing-codes", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// ClaimResult is the bot an owner just claimed.
type ClaimResult struct {
	BotID        string `json:"bot_id"`
	BotName      string `json:"bot_name"`
	Status       string `json:"status"`
	WalletStatus string `json:"wallet_status"`
}

// Claim attaches the bot holding claimToken to this owner and activates its
// wallet; 404 invalid_claim_token when no unclaimed bot has it.
func (o *OwnerClient) Claim(ctx context.Context, claimToken string, opts ...CallOption) (*ClaimResult, error) {
	var out ClaimResult
	in := map[string]string{"claim_token": claimToken}
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/bots/claim", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// OwnedBot is one bot of BotsMine (docs/decisions.md).
type OwnedBot struct {
	BotID            string     `json:"bot_id"`
	BotName          string     `json:"bot_name"`
	Description      string     `json:"description"`
	Status           string     `json:"status"`
	WalletStatus     string     `json:"wallet_status"`
	CallbackURL      *string    `json:"callback_url"`
	WebhookStatus    string     `json:"webhook_status"`
	WebhookFailCount int        `json:"webhook_fail_count"`
	CreatedAt        time.Time  `json:"created_at"`
	ClaimedAt        *time.Time `json:"claimed_at"`
}

// BotsMine lists the owner's bots.
func (o *OwnerClient) BotsMine(ctx context.Context, opts ...CallOption) ([]OwnedBot, error) {
	var out []OwnedBot
	if err := o.do(ctx, http.MethodGet, "/api/v1/bots/mine", nil, &out, opts); err != nil {
		return nil, err
	}
	return out, nil
}

// botPath is the owner route of one bot; the id is escaped so an odd id
// cannot reach another route.
func botPath(botID, rest string) string {
	return "/api/v1/owner/bots/" + url.PathEscape(botID) + rest
}

// Funding is the result of Fund.
type Funding struct {
	Transaction Transaction `json:"transaction"`
	// BalanceUSD is the available balance after the funding.
	BalanceUSD USD `json:"balance_usd"`
}

// Fund adds amountUSD to a bot's wallet. rail is RailCardWallet,
// RailProcessorWallet, or empty for the card wallet. Funding moves money:
// pass WithIdempotencyKey so a retry cannot fund twice.
func (o *OwnerClient) Fund(ctx context.Context, botID string, amountUSD USD, rail string, opts ...CallOption) (*Funding, error) {
	in := struct {
		AmountUSD USD    `json:"amount_usd"`
		Rail      string `json:"rail,omitempty"`
	}{amountUSD, rail}
	var out Funding
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/fund"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// FreezeResult is a bot's state after Freeze.
type FreezeResult struct {
	BotID  string `json:"bot_id"`
	Frozen bool   `json:"frozen"`
	Status string `json:"status"`
}

// Freeze freezes (frozen true) or unfreezes a bot's wallet.
func (o *OwnerClient) Freeze(ctx context.Context, botID string, frozen bool, opts ...CallOption) (*FreezeResult, error) {
	var out FreezeResult
	in := map[string]bool{"frozen": frozen}
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/freeze"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Guardrails reads a bot's spending rules.
func (o *OwnerClient) Guardrails(ctx context.Context, botID string, opts ...CallOption) (*Guardrails, error) {
	var out Guardrails
	if err := o.do(ctx, http.MethodGet, botPath(botID, "/guardrails"), nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// guardrailsPut is the whole guardrails object without the service-set
// updated_at.
type guardrailsPut struct {
	ApprovalMode       string          `json:"approval_mode"`
	Limits             GuardrailLimits `json:"limits"`
	RecurringAllowed   bool            `json:"recurring_allowed"`
	Notes              *string         `json:"notes"`
	ApprovedCategories []string        `json:"approved_categories"`
	BlockedCategories  []string        `json:"blocked_categories"`
}

// SetGuardrails replaces a bot's spending rules with g as a whole: read them
// with Guardrails, change what you need, and send them back. A nil
// AskApprovalAboveUSD or Notes clears it; nil category lists become empty.
func (o *OwnerClient) SetGuardrails(ctx context.Context, botID string, g Guardrails, opts ...CallOption) (*Guardrails, error) {
	in := guardrailsPut{ApprovalMode: g.ApprovalMode, Limits: g.Limits, RecurringAllowed: g.RecurringAllowed,
		Notes: g.Notes, ApprovedCategories: nonNil(g.ApprovedCategories), BlockedCategories: nonNil(g.BlockedCategories)}
	var out Guardrails
	if err := o.do(ctx, http.MethodPut, botPath(botID, "/guardrails"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// nonNil sends [] rather than null: the service reads null as "keep".
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// MasterGuardrails reads the owner's limits across all bots; every amount is
// nil while unset.
func (o *OwnerClient) MasterGuardrails(ctx context.Context, opts ...CallOption) (*MasterGuardrails, error) {
	var out MasterGuardrails
	if err := o.do(ctx, http.MethodGet, "/api/v1/owner/master-guardrails", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetMasterGuardrails replaces the owner's master guardrails; a nil amount
// removes that limit.
func (o *OwnerClient) SetMasterGuardrails(ctx context.Context, m MasterGuardrails, opts ...CallOption) (*MasterGuardrails, error) {
	in := MasterGuardrails{PerTransactionUSD: m.PerTransactionUSD, DailyBudgetUSD: m.DailyBudgetUSD,
		MonthlyBudgetUSD: m.MonthlyBudgetUSD}
	var out MasterGuardrails
	if err := o.do(ctx, http.MethodPut, "/api/v1/owner/master-guardrails", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetCallbackURL points a bot's webhook at callbackURL and resets its health
// to "active".
func (o *OwnerClient) SetCallbackURL(ctx context.Context, botID, callbackURL string, opts ...CallOption) (*WebhookState, error) {
	var out WebhookState
	in := map[string]string{"callback_url": callbackURL}
	if err := o.do(ctx, http.MethodPut, botPath(botID, "/callback-url"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
