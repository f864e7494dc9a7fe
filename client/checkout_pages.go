package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/botpay/botpay/wire"
)

// Payment methods a checkout page may allow (docs/api.md).
const (
	MethodX402            = "x402"
	MethodUSDCDirect      = "usdc_direct"
	MethodProcessorOnramp = "processor_onramp"
	MethodL2Pay           = "l2_pay"
)

// Checkout page types (docs/api.md).
const (
	PageProduct        = "product"
	PageEvent          = "event"
	PageDigitalProduct = "digital_product"
)

// Error codes of the earning endpoints (docs/api.md, docs/decisions.md).
const (
	CodeWalletNotFound           = "wallet_not_found"
	CodeCheckoutPageNotFound     = "checkout_page_not_found"
	CodeCheckoutPageExpired      = "checkout_page_expired"
	CodeMissingInvoiceID         = "missing_invoice_id"
	CodeOnlyDraftInvoicesCanSend = "only_draft_invoices_can_be_sent"
	CodeSendFailed               = "send_failed"
	CodeUnauthorized             = "unauthorized"
	CodePaymentLinkNotPending    = "payment_link_not_pending"
	CodeInvoiceNotPayable        = "invoice_not_payable"
	CodeInvoiceAlreadyPaid       = "invoice_already_paid"
	CodeMethodNotAllowedOnPage   = "method_not_allowed_on_page"
)

// CheckoutPageRequest is the body of CreateCheckoutPage. Nil members are
// left out, so the service's defaults apply: a nil AmountUSD makes a
// pay-what-you-want page, AmountLocked defaults to true, AllowedMethods to
// all four methods; ContactEmail and RefundPolicy are shown to buyers beside
// the seller's name. ExpiresAt is an RFC 3339 time.
type CheckoutPageRequest = wire.CheckoutPageRequest

// CheckoutPage is a hosted page where buyers pay the bot, the answer of
// CreateCheckoutPage and the items of CheckoutPages. CheckoutURL is relative
// to the service's base URL (/pay/cp_…); WalletAddress is the bot's
// processor-wallet address, nil without one.
type CheckoutPage = wire.CheckoutPage

// CreateCheckoutPage publishes a page; 400 wallet_not_found before the
// owner's claim.
func (c *Client) CreateCheckoutPage(ctx context.Context, req CheckoutPageRequest, opts ...CallOption) (*CheckoutPage, error) {
	var out CheckoutPage
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/checkout-pages/create", req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// CheckoutPages lists the bot's pages with their counters, newest first.
func (c *Client) CheckoutPages(ctx context.Context, opts ...CallOption) ([]CheckoutPage, error) {
	var out wire.ListCheckoutPagesResponse
	if err := c.do(ctx, http.MethodGet, "/api/v1/bot/checkout-pages", nil, &out, opts); err != nil {
		return nil, err
	}
	return out.CheckoutPages, nil
}

// Payment link statuses (docs/api.md).
const (
	LinkPending   = "pending"
	LinkCompleted = "completed"
	LinkExpired   = "expired"
)

// PaymentLink is a one-off request for money that lives 24 hours, the
// answer of CreatePaymentLink and the items of PaymentLinks; CheckoutURL
// (relative) is set only while the link is pending.
type PaymentLink = wire.PaymentLink

// CreatePaymentLink asks for amountUSD (0.50 to 10,000); payerEmail may be
// empty. 400 wallet_not_active before the owner's claim.
func (c *Client) CreatePaymentLink(ctx context.Context, amountUSD USD, description, payerEmail string, opts ...CallOption) (*PaymentLink, error) {
	in := wire.CreatePaymentLinkRequest{AmountUSD: amountUSD, Description: description, PayerEmail: optional(payerEmail)}
	var out PaymentLink
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/payments/create-link", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// PaymentLinks lists links, newest first. status ("" for all) is
// LinkPending, LinkCompleted or LinkExpired; limit is 1-100, 0 for the
// default 20.
func (c *Client) PaymentLinks(ctx context.Context, status string, limit int, opts ...CallOption) ([]PaymentLink, error) {
	query := url.Values{}
	if status != "" {
		query.Set("status", status)
	}
	if limit != 0 {
		query.Set("limit", strconv.Itoa(limit))
	}
	var out wire.ListPaymentLinksResponse
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/payments/links", query: query, token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.PaymentLinks, nil
}
