package client

import (
	"context"
	"github.com/botpay/botpay/wire"
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
type MicroUSDC = wire.MicroUSDC

// SignRequest is the body of POST /api/v1/processor-wallet/bot/sign.
type SignRequest struct {
	ResourceURL      string    `json:"resource_url"`
	AmountUSDC       MicroUSDC `json:"amount_usdc"`
	RecipientAddress string    `json:"recipient_address"`
	// ValidBefore is a Unix time; 0 takes the default of now + 5 minutes.
	ValidBefore int64 `json:"valid_before,omitempty"`
	// PaymentRequired is the vendor's 402 as it came, when given: the
	// PAYMENT-REQUIRED header value (a string, x402 v2) or the x402 v1
	// body (a json.RawMessage). The service then checks the amount and
	// recipient against the vendor's offer and answers the header paying
	// it (PaymentSignatureHeader or XPaymentStandardHeader).
	PaymentRequired any `json:"payment_required,omitempty"`
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
	// PaymentSignatureHeader is for PAYMENT-SIGNATURE, when PaymentRequired
	// was a v2 header value.
	PaymentSignatureHeader string `json:"payment_signature_header,omitempty"`
	// XPaymentStandardHeader is for X-PAYMENT to a stock x402 v1 seller,
	// when PaymentRequired was a v1 body.
	XPaymentStandardHeader string `json:"x_payment_standard_header,omitempty"`

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
