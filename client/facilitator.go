package client

import (
	"context"
	"encoding/json"
	"net/http"
)

// FacilitatorRequest is what stock x402 server middleware sends its
// facilitator, in either x402 version; the payload and requirements pass
// through as the middleware built them.
type FacilitatorRequest struct {
	X402Version         int             `json:"x402Version"`
	PaymentPayload      json.RawMessage `json:"paymentPayload"`
	PaymentRequirements json.RawMessage `json:"paymentRequirements"`
}

// FacilitatorKind is one payment kind the facilitator settles.
type FacilitatorKind struct {
	X402Version int    `json:"x402Version"`
	Scheme      string `json:"scheme"`
	Network     string `json:"network"`
}

// FacilitatorSupport is what the facilitator settles: the service's one
// chain and token in both x402 versions, and the relayers that send
// settlements by network pattern (none in sandbox mode).
type FacilitatorSupport struct {
	Kinds      []FacilitatorKind   `json:"kinds"`
	Extensions []string            `json:"extensions"`
	Signers    map[string][]string `json:"signers"`
}

// FacilitatorVerdict is the answer of a verify: a payment that would not
// settle is IsValid false with InvalidReason, not an *Error.
type FacilitatorVerdict struct {
	IsValid        bool            `json:"isValid"`
	InvalidReason  string          `json:"invalidReason,omitempty"`
	InvalidMessage string          `json:"invalidMessage,omitempty"`
	Payer          string          `json:"payer,omitempty"`
	Extra          json.RawMessage `json:"extra,omitempty"`
}

// FacilitatorSettlement is the answer of a settle: a failed settlement is
// Success false with ErrorReason and an empty Transaction, not an *Error.
type FacilitatorSettlement struct {
	Success      bool   `json:"success"`
	ErrorReason  string `json:"errorReason,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	Payer        string `json:"payer,omitempty"`
	Transaction  string `json:"transaction"`
	Network      string `json:"network"`
	// Amount is the micro-units settled, as a decimal string.
	Amount string          `json:"amount,omitempty"`
	Extra  json.RawMessage `json:"extra,omitempty"`
}

// FacilitatorSupported asks what the bot's x402 facilitator settles.
func (c *Client) FacilitatorSupported(ctx context.Context, opts ...CallOption) (*FacilitatorSupport, error) {
	var out FacilitatorSupport
	if err := c.do(ctx, http.MethodGet, "/api/v1/x402/facilitator/supported", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// FacilitatorVerify checks a payment to the bot's own processor wallet
// without settling it.
func (c *Client) FacilitatorVerify(ctx context.Context, req FacilitatorRequest, opts ...CallOption) (*FacilitatorVerdict, error) {
	var out FacilitatorVerdict
	if err := c.do(ctx, http.MethodPost, "/api/v1/x402/facilitator/verify", req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// FacilitatorSettle settles a payment into the bot's own processor wallet;
// the same authorization again answers the first result and sends nothing.
func (c *Client) FacilitatorSettle(ctx context.Context, req FacilitatorRequest, opts ...CallOption) (*FacilitatorSettlement, error) {
	var out FacilitatorSettlement
	if err := c.do(ctx, http.MethodPost, "/api/v1/x402/facilitator/settle", req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
