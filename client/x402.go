package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Error codes of the signing endpoint (docs/api.md, docs/decisions.md).
const (
	CodeInvalidSignRequest       = "Invalid request"
	CodeSignAuthFailed           = "Invalid or missing API key"
	CodeNoProcessorWallet        = "no_processor_wallet"
	CodeInsufficientTokenBalance = "insufficient_token_balance"
	CodeGuardrailBlocked         = "guardrail_blocked"
)

// MicroUSDC is a token amount in micro-units: 1 USDC = 1,000,000.
type MicroUSDC int64

// SignRequest is the body of POST /api/v1/processor-wallet/bot/sign.
type SignRequest struct {
	ResourceURL      string    `json:"resource_url"`
	AmountUSDC       MicroUSDC `json:"amount_usdc"`
	RecipientAddress string    `json:"recipient_address"`
	// ValidBefore is a Unix time; 0 takes the default of now + 5 minutes.
	ValidBefore int64 `json:"valid_before,omitempty"`
}

// Signed is the answer of the signing endpoint: a signature made at once
// (XPaymentHeader set), or Status "awaiting_approval" with an ApprovalID
// when the owner must decide; the signed header then arrives with the
// purchase.approved event.
type Signed struct {
	XPaymentHeader string    `json:"x_payment_header"`
	Signature      string    `json:"signature"`
	From           string    `json:"from"`
	Nonce          string    `json:"nonce"`
	ValidBefore    int64     `json:"valid_before"`
	AmountUSDC     MicroUSDC `json:"amount_usdc"`

	Status     string     `json:"status"`
	ApprovalID int64      `json:"approval_id"`
	ExpiresAt  *time.Time `json:"expires_at"`
	Message    string     `json:"message"`
}

// AwaitingApproval reports a request held for the owner.
func (s *Signed) AwaitingApproval() bool { return s.Status == "awaiting_approval" }

// Sign asks the service to sign a USDC authorization with the bot's
// processor wallet. Refusals are *Error: 403 insufficient_token_balance,
// 403 guardrail_blocked (with Reason), 404 no_processor_wallet, 400
// "Invalid request" (with Details).
func (c *Client) Sign(ctx context.Context, req SignRequest, opts ...CallOption) (*Signed, error) {
	var out Signed
	if err := c.do(ctx, http.MethodPost, "/api/v1/processor-wallet/bot/sign", req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// PaymentRequirement is one entry of an x402 v1 402 answer's accepts.
type PaymentRequirement struct {
	Scheme            string            `json:"scheme"`
	Network           string            `json:"network"`
	MaxAmountRequired string            `json:"maxAmountRequired"`
	Resource          string            `json:"resource"`
	Description       string            `json:"description"`
	MimeType          string            `json:"mimeType"`
	PayTo             string            `json:"payTo"`
	MaxTimeoutSeconds int               `json:"maxTimeoutSeconds"`
	Asset             string            `json:"asset"`
	Extra             map[string]string `json:"extra"`
}

// PaymentRequired is the body of an x402 v1 402 answer.
type PaymentRequired struct {
	X402Version int                  `json:"x402Version"`
	Error       string               `json:"error"`
	Accepts     []PaymentRequirement `json:"accepts"`
}

// SettleResponse is the decoded X-PAYMENT-RESPONSE header.
type SettleResponse struct {
	Success     bool   `json:"success"`
	Transaction string `json:"transaction"`
	Network     string `json:"network"`
	Payer       string `json:"payer"`
}

// PaidResponse is the outcome of PayX402: the resource's final answer and
// what was signed for it.
type PaidResponse struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	// Requirement is what the resource asked; nil when it did not answer 402.
	Requirement *PaymentRequirement
	Signed      *Signed
	// Settlement is the X-PAYMENT-RESPONSE, when the resource sent one.
	Settlement *SettleResponse
}

// ErrAwaitingApproval is returned by PayX402 when the owner must approve
// the payment first; PaidResponse.Signed carries the approval id.
var ErrAwaitingApproval = errors.New("botpay: the payment awaits the owner's approval")

// ErrNoExactBase is returned when a 402 answer offers no "exact" payment
// on "base" (the only kind the signing endpoint signs).
var ErrNoExactBase = errors.New("botpay: the resource accepts no exact USDC payment on base")

// ErrOverLimit is returned when a resource asks more than the caller allows.
var ErrOverLimit = errors.New("botpay: the resource asks more than the allowed maximum")

// PayX402 requests resourceURL (GET when body is nil, else POST with body
// as JSON); when it answers 402 with x402 v1 requirements, it asks the
// signing endpoint for an authorization of the exact amount to payTo (at
// most maxUSDC) and repeats the request with X-PAYMENT.
func (c *Client) PayX402(ctx context.Context, resourceURL string, body []byte, maxUSDC MicroUSDC, opts ...CallOption) (*PaidResponse, error) {
	first, err := c.fetch(ctx, resourceURL, body, "")
	if err != nil || first.StatusCode != http.StatusPaymentRequired {
		return first, err
	}
	var asked PaymentRequired
	if err := json.Unmarshal(first.Body, &asked); err != nil {
		return first, fmt.Errorf("botpay: 402 answer of %s is not x402 v1: %w", resourceURL, err)
	}
	var need *PaymentRequirement
	for i := range asked.Accepts {
		if a := &asked.Accepts[i]; a.Scheme == "exact" && a.Network == "base" {
			need = a
			break
		}
	}
	if need == nil {
		return first, ErrNoExactBase
	}
	first.Requirement = need
	amount, err := strconv.ParseInt(need.MaxAmountRequired, 10, 64)
	if err != nil || amount <= 0 {
		return first, fmt.Errorf("botpay: 402 answer asks for %q micro-USDC", need.MaxAmountRequired)
	}
	if MicroUSDC(amount) > maxUSDC {
		return first, ErrOverLimit
	}
	resource := need.Resource
	if resource == "" {
		resource = resourceURL
	}
	signed, err := c.Sign(ctx, SignRequest{ResourceURL: resource, AmountUSDC: MicroUSDC(amount), RecipientAddress: need.PayTo}, opts...)
	if err != nil {
		return first, err
	}
	first.Signed = signed
	if signed.AwaitingApproval() {
		return first, ErrAwaitingApproval
	}
	paid, err := c.fetch(ctx, resourceURL, body, signed.XPaymentHeader)
	if paid != nil {
		paid.Requirement, paid.Signed = need, signed
	}
	return paid, err
}

func (c *Client) fetch(ctx context.Context, url string, body []byte, payment string) (*PaidResponse, error) {
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		method, rd = http.MethodPost, bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if payment != "" {
		req.Header.Set("X-PAYMENT", payment)
	}
	if c.t.userAgent != "" {
		req.Header.Set("User-Agent", c.t.userAgent)
	}
	resp, err := c.t.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, err
	}
	out := &PaidResponse{StatusCode: resp.StatusCode, Header: resp.Header, Body: data}
	if h := resp.Header.Get("X-PAYMENT-RESPONSE"); h != "" {
		if raw, err := base64.StdEncoding.DecodeString(h); err == nil {
			var s SettleResponse
			if json.Unmarshal(raw, &s) == nil {
				out.Settlement = &s
			}
		}
	}
	return out, nil
}

// CreateProcessorWallet gives a bot its processor wallet and returns its
// EIP-55 address (the one it has, when it has one: its checkout pages
// create it too).
func (o *OwnerClient) CreateProcessorWallet(ctx context.Context, botID string, opts ...CallOption) (string, error) {
	var out struct {
		Address string `json:"address"`
	}
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/processor-wallet"), nil, &out, opts); err != nil {
		return "", err
	}
	return out.Address, nil
}

// SigningApproval is a held signing request waiting for the owner.
type SigningApproval struct {
	Kind         string    `json:"kind"`
	ID           int64     `json:"id"`
	BotID        string    `json:"bot_id"`
	AmountUSD    float64   `json:"amount_usd"`
	MerchantName string    `json:"merchant_name"`
	ItemName     string    `json:"item_name"`
	Status       string    `json:"status"`
	ExpiresAt    time.Time `json:"expires_at"`
}

// SigningRequests lists the owner's held signing requests.
func (o *OwnerClient) SigningRequests(ctx context.Context, opts ...CallOption) ([]SigningApproval, error) {
	var out struct {
		Approvals []SigningApproval `json:"approvals"`
	}
	if err := o.do(ctx, http.MethodGet, "/api/v1/owner/signing-requests", nil, &out, opts); err != nil {
		return nil, err
	}
	return out.Approvals, nil
}

// SigningDecision is the answer of approving or denying a signing request.
type SigningDecision struct {
	ApprovalID int64  `json:"approval_id"`
	Status     string `json:"status"` // "approved" or "denied"
}

// DecideSigning approves (the service signs and sends purchase.approved
// with the header) or denies (purchase.rejected) a held signing request.
func (o *OwnerClient) DecideSigning(ctx context.Context, approvalID int64, approve bool, opts ...CallOption) (*SigningDecision, error) {
	verb := "deny"
	if approve {
		verb = "approve"
	}
	var out SigningDecision
	path := "/api/v1/owner/signing-requests/" + strconv.FormatInt(approvalID, 10) + "/" + verb
	if err := o.do(ctx, http.MethodPost, path, nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
