package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Sale is one payment the bot received (docs/api.md).
type Sale struct {
	SaleID string `json:"sale_id"`
	// CheckoutPageID is nil for payment-link sales, which carry
	// PaymentLinkID instead.
	CheckoutPageID  *string    `json:"checkout_page_id"`
	PaymentLinkID   string     `json:"payment_link_id,omitempty"`
	InvoiceID       string     `json:"invoice_id,omitempty"`
	AmountUSD       USD        `json:"amount_usd"`
	PaymentMethod   string     `json:"payment_method"`
	Status          string     `json:"status"`
	BuyerType       string     `json:"buyer_type"`
	BuyerIdentifier string     `json:"buyer_identifier"`
	BuyerEmail      *string    `json:"buyer_email"`
	TxHash          *string    `json:"tx_hash"`
	CheckoutTitle   string     `json:"checkout_title"`
	ConfirmedAt     *time.Time `json:"confirmed_at"`
	CreatedAt       time.Time  `json:"created_at"`
	// RefundedUSD is what refunds of this sale have given back so far.
	RefundedUSD USD `json:"refunded_usd"`
}

// SaleFilter narrows Sales; zero values do not filter.
type SaleFilter struct {
	CheckoutPageID string
	Status         string
	PaymentMethod  string
	Limit          int
}

// Sales lists sales, newest first; an empty list without a wallet. A bad
// key is 401 unauthorized here (not "Authentication required").
func (c *Client) Sales(ctx context.Context, f SaleFilter, opts ...CallOption) ([]Sale, error) {
	query := url.Values{}
	for k, v := range map[string]string{"checkout_page_id": f.CheckoutPageID, "status": f.Status, "payment_method": f.PaymentMethod} {
		if v != "" {
			query.Set(k, v)
		}
	}
	if f.Limit != 0 {
		query.Set("limit", strconv.Itoa(f.Limit))
	}
	var out struct {
		Sales []Sale `json:"sales"`
	}
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/sales", query: query, token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.Sales, nil
}

// BuyerPayment is a sandbox payment (docs/decisions.md).
type BuyerPayment struct {
	BuyerEmail string `json:"buyer_email"`
	BuyerName  string `json:"buyer_name,omitempty"`
	// Method defaults to the first sandbox method the page allows.
	Method string `json:"method,omitempty"`
	// AmountUSD is for pay-what-you-want pages; nil pays the set amount.
	AmountUSD *USD `json:"amount_usd,omitempty"`
	// Ref pays the invoice with this reference number on the page; Token
	// is the t parameter of the invoice's payment_url, without which the
	// invoice is not found.
	Ref   string `json:"ref,omitempty"`
	Token string `json:"t,omitempty"`
}

// Product is what a digital-product page delivers after payment.
type Product struct {
	URL  string `json:"url"`
	Type string `json:"type"`
}

// Settlement is the answer of a payment.
type Settlement struct {
	Status          string     `json:"status"`
	SaleID          string     `json:"sale_id"`
	TxHash          *string    `json:"tx_hash"`
	AmountUSD       USD        `json:"amount_usd"`
	Product         *Product   `json:"product"`
	InvoiceID       string     `json:"invoice_id,omitempty"`
	ReferenceNumber string     `json:"reference_number,omitempty"`
	PaymentLinkID   string     `json:"payment_link_id,omitempty"`
	PaidAt          *time.Time `json:"paid_at,omitempty"`
}

// PayCheckoutSandbox pays a checkout page (or an invoice on it) through
// the sandbox provider, as a buyer would; it needs no API key.
func (c *Client) PayCheckoutSandbox(ctx context.Context, checkoutPageID string, p BuyerPayment, opts ...CallOption) (*Settlement, error) {
	var out Settlement
	path := "/api/v1/checkout/" + url.PathEscape(checkoutPageID) + "/pay/sandbox"
	if err := c.t.do(ctx, call{method: http.MethodPost, path: path, in: p, out: &out}, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// PayLinkSandbox pays a pending payment link through the sandbox provider;
// 409 payment_link_not_pending once it is completed or expired.
func (c *Client) PayLinkSandbox(ctx context.Context, paymentLinkID string, p BuyerPayment, opts ...CallOption) (*Settlement, error) {
	var out Settlement
	path := "/api/v1/payment-links/" + url.PathEscape(paymentLinkID) + "/pay/sandbox"
	if err := c.t.do(ctx, call{method: http.MethodPost, path: path, in: p, out: &out}, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
