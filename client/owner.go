package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/botpay/botpay/wire"
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

// OwnerSession is a signed-up or logged-in owner with a fresh token, the
// answer of Signup and Login; Email is returned by Signup only (a login's
// answer, wire.OwnerLoginResponse, is the same without it).
type OwnerSession = wire.OwnerSignupResponse

// Signup creates an owner account (password at least 12 characters); 409
// email_taken when the e-mail already has one.
func (o *OwnerClient) Signup(ctx context.Context, email, password string, opts ...CallOption) (*OwnerSession, error) {
	var out OwnerSession
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/signup", wire.Credentials{Email: email, Password: password}, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Login issues a new owner token; 401 invalid_credentials on a wrong e-mail
// or password.
func (o *OwnerClient) Login(ctx context.Context, email, password string, opts ...CallOption) (*OwnerSession, error) {
	var out OwnerSession
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/login", wire.Credentials{Email: email, Password: password}, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Logout revokes the client's token.
func (o *OwnerClient) Logout(ctx context.Context, opts ...CallOption) error {
	return o.do(ctx, http.MethodPost, "/api/v1/owner/logout", nil, nil, opts)
}

// PairingCode is the answer of CreatePairingCode: a code that lets a bot
// register already claimed by this owner, single use, valid one hour.
type PairingCode = wire.CreatePairingCodeResponse

// CreatePairingCode issues a pairing code for the next bot to register.
func (o *OwnerClient) CreatePairingCode(ctx context.Context, opts ...CallOption) (*PairingCode, error) {
	var out PairingCode
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/pairing-codes", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// ClaimResult is the answer of Claim: the bot an owner just claimed.
type ClaimResult = wire.ClaimBotResponse

// Claim attaches the bot holding claimToken to this owner and activates its
// wallet; 404 invalid_claim_token when no unclaimed bot has it.
func (o *OwnerClient) Claim(ctx context.Context, claimToken string, opts ...CallOption) (*ClaimResult, error) {
	var out ClaimResult
	in := wire.ClaimBotRequest{ClaimToken: claimToken}
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/bots/claim", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// OwnedBot is one bot of BotsMine.
type OwnedBot = wire.OwnedBot

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

// Funding is the answer of Fund: the ledger row and the available balance
// after the funding.
type Funding = wire.FundBotResponse

// Fund adds amountUSD to a bot's wallet. rail is RailCardWallet,
// RailProcessorWallet, or empty for the card wallet. Funding moves money:
// pass WithIdempotencyKey so a retry cannot fund twice.
func (o *OwnerClient) Fund(ctx context.Context, botID string, amountUSD USD, rail string, opts ...CallOption) (*Funding, error) {
	in := wire.FundBotRequest{AmountUSD: amountUSD, Rail: optional(rail)}
	var out Funding
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/fund"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// FreezeResult is the answer of Freeze: a bot's state after it.
type FreezeResult = wire.FreezeBotResponse

// Freeze freezes (frozen true) or unfreezes a bot's wallet.
func (o *OwnerClient) Freeze(ctx context.Context, botID string, frozen bool, opts ...CallOption) (*FreezeResult, error) {
	var out FreezeResult
	in := wire.FreezeBotRequest{Frozen: frozen}
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

// SetGuardrails replaces a bot's spending rules with g as a whole: read them
// with Guardrails, change what you need, and send them back. A nil
// AskApprovalAboveUSD or Notes clears it; nil category lists become empty.
func (o *OwnerClient) SetGuardrails(ctx context.Context, botID string, g Guardrails, opts ...CallOption) (*Guardrails, error) {
	in, err := guardrailsPut(g)
	if err != nil {
		return nil, err
	}
	var out Guardrails
	if err := o.do(ctx, http.MethodPut, botPath(botID, "/guardrails"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// guardrailsPut is g as the body of a whole replacement. The document's
// GuardrailsChange leaves a nil member out, which keeps its value; a whole
// replacement must send null to clear the note or the threshold, as the
// answer's own type writes them, and leave out the service-set updated_at.
func guardrailsPut(g Guardrails) (json.RawMessage, error) {
	g.ApprovedCategories, g.BlockedCategories = nonNil(g.ApprovedCategories), nonNil(g.BlockedCategories)
	data, err := json.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("botpay: encode guardrails: %w", err)
	}
	body, err := withoutMember(data, "updated_at")
	if err != nil {
		return nil, fmt.Errorf("botpay: encode guardrails: %w", err)
	}
	return body, nil
}

// withoutMember is the JSON object data without its member name, the
// others kept in their order.
func withoutMember(data []byte, name string) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %.40s", data)
	}
	out := []byte{'{'}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		if key == name {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(key)
		out = append(append(append(out, k...), ':'), value...)
	}
	return append(out, '}'), nil
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
	// The answer's type, not PutMasterGuardrailsRequest: that one leaves a
	// nil amount out (which keeps the limit), this one writes null (which
	// removes it), and a nil UpdatedAt is left out.
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
	in := wire.PutCallbackURLRequest{CallbackURL: callbackURL}
	if err := o.do(ctx, http.MethodPut, botPath(botID, "/callback-url"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
