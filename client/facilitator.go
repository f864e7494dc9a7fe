package client

import (
	"context"
	"net/http"

	"github.com/botpay/botpay/wire"
)

// FacilitatorRequest is the body of FacilitatorVerify and
// FacilitatorSettle: what stock x402 server middleware sends its
// facilitator, in either x402 version; the payload and requirements pass
// through as the middleware built them.
type FacilitatorRequest = wire.FacilitatorRequest

// FacilitatorKind is one payment kind the facilitator settles, in
// FacilitatorSupport.
type FacilitatorKind = wire.FacilitatorKind

// FacilitatorSupport is the answer of FacilitatorSupported: the service's
// one chain and token in both x402 versions, and the relayers that send
// settlements by network pattern (none in sandbox mode).
type FacilitatorSupport = wire.FacilitatorSupportedResponse

// FacilitatorVerdict is the answer of FacilitatorVerify: a payment that
// would not settle is IsValid false with InvalidReason, not an *Error.
type FacilitatorVerdict = wire.FacilitatorVerifyResponse

// FacilitatorSettlement is the answer of FacilitatorSettle: a failed
// settlement is Success false with ErrorReason and an empty Transaction,
// not an *Error. Amount is the micro-units settled, as a decimal string.
type FacilitatorSettlement = wire.FacilitatorSettleResponse

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
