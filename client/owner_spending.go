package client

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Allowance windows of a payment profile (UTC calendar day, ISO week,
// month).
const (
	AllowanceDay   = "day"
	AllowanceWeek  = "week"
	AllowanceMonth = "month"
)

// PaymentProfile is one profile of a card; one is real, the others decoys.
type PaymentProfile struct {
	ProfileIndex            int    `json:"profile_index"`
	AllowanceDuration       string `json:"allowance_duration"`
	AllowanceUSD            USD    `json:"allowance_usd"`
	HumanPermissionRequired bool   `json:"human_permission_required"`
}

// CardLimits are a card's own limits; nil is no card limit (the bot's
// guardrails still apply, and the tighter one wins).
type CardLimits struct {
	PerTransactionUSD *USD `json:"per_transaction_usd"`
	DailyUSD          *USD `json:"daily_usd"`
	MonthlyUSD        *USD `json:"monthly_usd"`
}

// NewCard is the body of POST /api/v1/owner/bots/{bot_id}/cards. Never send
// a full card number: MissingDigits are the 1-8 digits the bot does not
// hold.
type NewCard struct {
	CardName         string           `json:"card_name"`
	MissingDigits    string           `json:"missing_digits"`
	ExpiryMonth      string           `json:"expiry_month"`
	ExpiryYear       string           `json:"expiry_year"`
	RealProfileIndex int              `json:"real_profile_index"`
	Profiles         []PaymentProfile `json:"profiles"`
	Limits           *CardLimits      `json:"limits,omitempty"`
}

// Card is a card as the owner sees it (never with digits).
type Card struct {
	CardID           string           `json:"card_id"`
	BotID            string           `json:"bot_id"`
	CardName         string           `json:"card_name"`
	Status           string           `json:"status"`
	RealProfileIndex int              `json:"real_profile_index"`
	Profiles         []PaymentProfile `json:"profiles"`
	Limits           CardLimits       `json:"limits"`
	CreatedAt        time.Time        `json:"created_at"`
}

// CreateCard adds a card to a claimed bot's card wallet.
func (o *OwnerClient) CreateCard(ctx context.Context, botID string, c NewCard, opts ...CallOption) (*Card, error) {
	var out Card
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/cards"), c, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Cards lists a bot's cards.
func (o *OwnerClient) Cards(ctx context.Context, botID string, opts ...CallOption) ([]Card, error) {
	var out struct {
		Cards []Card `json:"cards"`
	}
	if err := o.do(ctx, http.MethodGet, botPath(botID, "/cards"), nil, &out, opts); err != nil {
		return nil, err
	}
	return out.Cards, nil
}

// SetCardStatus makes a card "active" or "inactive".
func (o *OwnerClient) SetCardStatus(ctx context.Context, botID, cardID, status string, opts ...CallOption) (*Card, error) {
	var out Card
	err := o.do(ctx, http.MethodPatch, botPath(botID, "/cards/"+url.PathEscape(cardID)), map[string]string{"status": status}, &out, opts)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// NewTask is a purchase task for a bot (docs/decisions.md).
type NewTask struct {
	MerchantName string `json:"merchant_name"`
	MerchantURL  string `json:"merchant_url"`
	ItemName     string `json:"item_name"`
	AmountCents  int64  `json:"amount_cents"`
	Category     string `json:"category,omitempty"`
	ProfileIndex *int   `json:"profile_index,omitempty"`
}

// CreateTask queues a task and returns its id.
func (o *OwnerClient) CreateTask(ctx context.Context, botID string, t NewTask, opts ...CallOption) (string, error) {
	var out struct {
		TaskID string `json:"task_id"`
	}
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/tasks"), t, &out, opts); err != nil {
		return "", err
	}
	return out.TaskID, nil
}

// Approval is something awaiting the owner's decision: Kind "purchase" (a
// held checkout; ID is its confirmation id) or, with the signing flow,
// "signing".
type Approval struct {
	Kind         string     `json:"kind"`
	ID           string     `json:"id"`
	BotID        string     `json:"bot_id"`
	AmountUSD    USD        `json:"amount_usd"`
	MerchantName string     `json:"merchant_name"`
	ItemName     string     `json:"item_name"`
	Status       string     `json:"status"`
	ExpiresAt    *time.Time `json:"expires_at"`
	CreatedAt    time.Time  `json:"created_at"`
}

// Approvals lists what awaits a decision.
func (o *OwnerClient) Approvals(ctx context.Context, opts ...CallOption) ([]Approval, error) {
	var out struct {
		Approvals []Approval `json:"approvals"`
	}
	if err := o.do(ctx, http.MethodGet, "/api/v1/owner/approvals", nil, &out, opts); err != nil {
		return nil, err
	}
	return out.Approvals, nil
}

// Decision is the answer of an approve or deny.
type Decision struct {
	ConfirmationID string `json:"confirmation_id"`
	Status         string `json:"status"`
}

// ApprovePurchase approves a held purchase (409 already_decided, 410
// expired).
func (o *OwnerClient) ApprovePurchase(ctx context.Context, confirmationID string, opts ...CallOption) (*Decision, error) {
	return o.decide(ctx, confirmationID, "/approve", opts)
}

// DenyPurchase denies a held purchase and releases its hold.
func (o *OwnerClient) DenyPurchase(ctx context.Context, confirmationID string, opts ...CallOption) (*Decision, error) {
	return o.decide(ctx, confirmationID, "/deny", opts)
}

func (o *OwnerClient) decide(ctx context.Context, id, action string, opts []CallOption) (*Decision, error) {
	var out Decision
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/purchases/"+url.PathEscape(id)+action, nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Procurement controls where a bot may buy. Empty allow lists allow
// everything; block lists win.
type Procurement struct {
	AllowedDomains   []string `json:"allowed_domains"`
	BlockedDomains   []string `json:"blocked_domains"`
	AllowedMerchants []string `json:"allowed_merchants"`
	BlockedMerchants []string `json:"blocked_merchants"`
	// AllowedRecipients are the 0x addresses the bot may sign x402
	// payments to (EIP-55 in answers). With any allow-list set, the
	// service signs only for the payTo the resource itself asks for.
	AllowedRecipients []string `json:"allowed_recipients"`
	// BlockedRecipients are 0x addresses the bot may never sign x402
	// payments to, whatever resource it names.
	BlockedRecipients []string   `json:"blocked_recipients"`
	UpdatedAt         *time.Time `json:"updated_at,omitempty"`
}

// Procurement reads a bot's procurement controls.
func (o *OwnerClient) Procurement(ctx context.Context, botID string, opts ...CallOption) (*Procurement, error) {
	var out Procurement
	if err := o.do(ctx, http.MethodGet, botPath(botID, "/procurement"), nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetProcurement replaces a bot's procurement controls as a whole.
func (o *OwnerClient) SetProcurement(ctx context.Context, botID string, p Procurement, opts ...CallOption) (*Procurement, error) {
	in := Procurement{AllowedDomains: nonNil(p.AllowedDomains), BlockedDomains: nonNil(p.BlockedDomains),
		AllowedMerchants: nonNil(p.AllowedMerchants), BlockedMerchants: nonNil(p.BlockedMerchants),
		AllowedRecipients: nonNil(p.AllowedRecipients), BlockedRecipients: nonNil(p.BlockedRecipients)}
	var out Procurement
	if err := o.do(ctx, http.MethodPut, botPath(botID, "/procurement"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
