package client

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// RefundRequest asks for money back. A nil AmountUSD refunds everything
// not yet refunded; Reason is required.
type RefundRequest struct {
	AmountUSD *USD   `json:"amount_usd,omitempty"`
	Reason    string `json:"reason"`
}

// Refund is a recorded refund. ConfirmationID is set for a purchase
// refund, SaleID for a sale refund. Status is "succeeded" for refunds
// inside the wallet; an on-chain refund is "pending" until confirmed.
type Refund struct {
	RefundID       string    `json:"refund_id"`
	ConfirmationID string    `json:"confirmation_id,omitempty"`
	SaleID         string    `json:"sale_id,omitempty"`
	AmountUSD      USD       `json:"amount_usd"`
	Reason         string    `json:"reason"`
	Status         string    `json:"status"`
	TxHash         *string   `json:"tx_hash,omitempty"`
	CreatedAt      time.Time `json:"created_at"`
}

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
