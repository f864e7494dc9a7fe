package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/botpay/botpay/wire"
)

// Allowance windows of a payment profile (UTC calendar day, ISO week,
// month).
const (
	AllowanceDay   = "day"
	AllowanceWeek  = "week"
	AllowanceMonth = "month"
)

// PaymentProfile is one profile of a Card; one is real, the others decoys.
type PaymentProfile = wire.CardProfile

// CardLimits are a Card's own limits; nil is no card limit (the bot's
// guardrails still apply, and the tighter one wins).
type CardLimits = wire.CardLimits

// NewCard is the body of CreateCard (POST
// /api/v1/owner/bots/{bot_id}/cards). Never send a full card number:
// MissingDigits are the 1-8 digits the bot does not hold. ExpiryMonth and
// ExpiryYear are strings or integers.
type NewCard = wire.CardRequest

// NewPaymentProfile is one profile of a NewCard; a nil
// HumanPermissionRequired is false.
type NewPaymentProfile = wire.CardRequestProfile

// NewCardLimits are the limits of a NewCard; nil is no card limit.
type NewCardLimits = wire.CardRequestLimits

// Card is a card as the owner sees it (never with digits), the answer of
// CreateCard and SetCardStatus and the items of Cards.
type Card = wire.Card

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
	var out wire.ListCardsResponse
	if err := o.do(ctx, http.MethodGet, botPath(botID, "/cards"), nil, &out, opts); err != nil {
		return nil, err
	}
	return out.Cards, nil
}

// SetCardStatus makes a card "active" or "inactive".
func (o *OwnerClient) SetCardStatus(ctx context.Context, botID, cardID, status string, opts ...CallOption) (*Card, error) {
	var out Card
	err := o.do(ctx, http.MethodPatch, botPath(botID, "/cards/"+url.PathEscape(cardID)), wire.PatchCardRequest{Status: status}, &out, opts)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// NewTask is the body of CreateTask: a purchase task for a bot.
type NewTask = wire.CreateTaskRequest

// CreateTask queues a task and returns its id.
func (o *OwnerClient) CreateTask(ctx context.Context, botID string, t NewTask, opts ...CallOption) (string, error) {
	var out wire.CreateTaskResponse
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/tasks"), t, &out, opts); err != nil {
		return "", err
	}
	return out.TaskID, nil
}

// Approval is something awaiting the owner's decision, the items of
// Approvals and SigningRequests: Kind "purchase" (a held checkout; ID is
// its confirmation id, a string) or "signing" (a held signing request; ID
// is its approval id, a json.Number).
type Approval = wire.Approval

// Approvals lists what awaits a decision.
func (o *OwnerClient) Approvals(ctx context.Context, opts ...CallOption) ([]Approval, error) {
	var out wire.ListApprovalsResponse
	if err := o.do(ctx, http.MethodGet, "/api/v1/owner/approvals", nil, &out, opts); err != nil {
		return nil, err
	}
	return out.Approvals, nil
}

// Decision is the answer of ApprovePurchase and DenyPurchase.
type Decision = wire.ApprovePurchaseResponse

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

// Procurement controls where a bot may buy, the answer of Procurement and
// SetProcurement. Empty allow lists allow everything; block lists win.
// AllowedRecipients are the 0x addresses the bot may sign x402 payments to
// (EIP-55 in answers): with any allow-list set, the service signs only for
// the payTo the resource itself asks for. BlockedRecipients are 0x addresses
// the bot may never sign x402 payments to, whatever resource it names.
type Procurement = wire.Procurement

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
	in := wire.PutProcurementRequest{AllowedDomains: nonNil(p.AllowedDomains), BlockedDomains: nonNil(p.BlockedDomains),
		AllowedMerchants: nonNil(p.AllowedMerchants), BlockedMerchants: nonNil(p.BlockedMerchants),
		AllowedRecipients: nonNil(p.AllowedRecipients), BlockedRecipients: nonNil(p.BlockedRecipients)}
	var out Procurement
	if err := o.do(ctx, http.MethodPut, botPath(botID, "/procurement"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
