package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/botpay/botpay/wire"
)

// Sale is one payment the bot received, the items of Sales. CheckoutPageID
// is nil for payment-link and facilitator sales; RefundedUSD is what refunds
// of this sale have given back so far.
type Sale = wire.Sale

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
	var out wire.ListSalesResponse
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/sales", query: query, token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.Sales, nil
}

// BuyerPayment is the body of PayCheckoutSandbox and PayLinkSandbox: a
// sandbox payment. Method defaults to the first sandbox method the page
// allows; AmountUSD is for pay-what-you-want pages (nil pays the set
// amount); Ref pays the invoice with this reference number on the page, and
// Token is the t parameter of the invoice's payment_url, without which the
// invoice is not found.
type BuyerPayment = wire.BuyerPayment

// Product is what a digital-product page delivers after payment, in
// Settlement.
type Product = wire.Product

// Settlement is the answer of PayCheckoutSandbox and PayLinkSandbox.
type Settlement = wire.Settlement

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
