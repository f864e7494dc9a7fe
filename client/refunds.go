package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/botpay/botpay/wire"
)

// RefundRequest is the body of RefundSale and OwnerClient.RefundPurchase.
// A nil AmountUSD refunds everything not yet refunded; Reason is required.
type RefundRequest = wire.RefundRequest

// Refund is a recorded refund, the answer of RefundSale and
// OwnerClient.RefundPurchase. ConfirmationID is set for a purchase refund,
// SaleID for a sale refund. Status is "succeeded" for refunds inside the
// wallet; an on-chain refund is "pending" until confirmed.
type Refund = wire.Refund

// RefundSale gives (part of) one of the bot's sales back to its buyer. A
// card or sandbox sale is paid from the bot's card wallet, never below
// zero (402 insufficient_funds); refunds of one sale never sum above it
// (409 refund_exceeds_amount). Pass WithIdempotencyKey to retry safely.
func (c *Client) RefundSale(ctx context.Context, saleID string, req RefundRequest, opts ...CallOption) (*Refund, error) {
	var out Refund
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/sales/"+url.PathEscape(saleID)+"/refund", req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// RefundPurchase records that the merchant gave back (part of) an approved
// purchase; the bot's card wallet is credited. Refunds of one purchase
// never sum above it (409 refund_exceeds_amount).
func (o *OwnerClient) RefundPurchase(ctx context.Context, confirmationID string, req RefundRequest, opts ...CallOption) (*Refund, error) {
	var out Refund
	path := "/api/v1/owner/purchases/" + url.PathEscape(confirmationID) + "/refund"
	if err := o.do(ctx, http.MethodPost, path, req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
