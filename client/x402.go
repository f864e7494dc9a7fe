package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/botpay/botpay/wire"
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

// SignRequest is the body of Sign (POST
// /api/v1/processor-wallet/bot/sign). A nil ValidBefore (Unix seconds)
// takes the default of now + 5 minutes. PaymentRequired is the vendor's 402
// as it came, when given: the PAYMENT-REQUIRED header value (a string, x402
// v2) or the x402 v1 body (a json.RawMessage); the service then checks the
// amount and recipient against the vendor's offer and answers the header
// paying it (PaymentSignatureHeader or XPaymentStandardHeader).
type SignRequest = wire.SignX402PaymentRequest

// Signed is the answer of Sign, either of its two: a signature made at once
// (200, the fields of wire.SignX402PaymentResponse, XPaymentHeader set), or
// Status "awaiting_approval" with an ApprovalID when the owner must decide
// (202, the fields of wire.SigningHeld); the signed header then arrives with
// the purchase.approved event. The two share no member, so one answer
// decodes into its half and leaves the other zero.
type Signed struct {
	wire.SignX402PaymentResponse
	wire.SigningHeld
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

// PaymentRequirement is one entry of an x402 v1 402 answer's accepts, in
// PaymentRequired and PaidResponse.
type PaymentRequirement = wire.PaymentRequiredAccept

// PaymentRequired is the body of an x402 v1 402 answer.
type PaymentRequired = wire.PaymentRequired

// CreateProcessorWallet gives a bot its processor wallet and returns its
// EIP-55 address (the one it has, when it has one: its checkout pages
// create it too).
func (o *OwnerClient) CreateProcessorWallet(ctx context.Context, botID string, opts ...CallOption) (string, error) {
	var out wire.CreateProcessorWalletResponse
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/processor-wallet"), nil, &out, opts); err != nil {
		return "", err
	}
	return out.Address, nil
}

// SigningApproval is a held signing request waiting for the owner, the
// items of SigningRequests: an Approval of Kind "signing" whose ID is the
// approval id DecideSigning takes (a json.Number; see SigningApprovalID).
type SigningApproval = wire.Approval

// SigningApprovalID is the approval id of a held signing request, as
// DecideSigning takes it; false when a's ID is not an integer (a purchase's
// confirmation id, say).
func SigningApprovalID(a Approval) (int64, bool) {
	switch id := a.ID.(type) {
	case json.Number:
		n, err := id.Int64()
		return n, err == nil
	case float64:
		return int64(id), id == float64(int64(id))
	}
	return 0, false
}

// SigningRequests lists the owner's held signing requests.
func (o *OwnerClient) SigningRequests(ctx context.Context, opts ...CallOption) ([]SigningApproval, error) {
	var out wire.ListSigningRequestsResponse
	if err := o.do(ctx, http.MethodGet, "/api/v1/owner/signing-requests", nil, &out, opts); err != nil {
		return nil, err
	}
	return out.Approvals, nil
}

// SigningDecision is the answer of DecideSigning; Status is "approved" or
// "denied".
type SigningDecision = wire.ApproveSigningRequestResponse

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
