package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
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

// CheckoutPageRequest creates a checkout page (docs/api.md). Zero
// values are left out, so the service's defaults apply.
type CheckoutPageRequest struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// AmountUSD is the price; nil makes a pay-what-you-want page.
	AmountUSD *USD `json:"amount_usd,omitempty"`
	// AmountLocked defaults to true.
	AmountLocked *bool `json:"amount_locked,omitempty"`
	// AllowedMethods defaults to all four methods.
	AllowedMethods []string `json:"allowed_methods,omitempty"`
	SuccessURL     string   `json:"success_url,omitempty"`
	// ContactEmail and RefundPolicy are shown to buyers beside the
	// seller's name.
	ContactEmail      string     `json:"contact_email,omitempty"`
	RefundPolicy      string     `json:"refund_policy,omitempty"`
	ExpiresAt         *time.Time `json:"expires_at,omitempty"`
	PageType          string     `json:"page_type,omitempty"`
	DigitalProductURL string     `json:"digital_product_url,omitempty"`
	ImageURL          string     `json:"image_url,omitempty"`
	CollectBuyerName  bool       `json:"collect_buyer_name,omitempty"`
}

// CheckoutPage is a hosted page where buyers pay the bot (docs/api.md).
type CheckoutPage struct {
	CheckoutPageID string `json:"checkout_page_id"`
	// CheckoutURL is relative to the service's base URL: /pay/cp_….
	CheckoutURL string `json:"checkout_url"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// WalletAddress is the bot's processor-wallet address, nil without one.
	WalletAddress     *string    `json:"wallet_address"`
	AmountUSD         *USD       `json:"amount_usd"`
	AmountLocked      bool       `json:"amount_locked"`
	AllowedMethods    []string   `json:"allowed_methods"`
	Status            string     `json:"status"`
	PageType          string     `json:"page_type"`
	ImageURL          *string    `json:"image_url"`
	CollectBuyerName  bool       `json:"collect_buyer_name"`
	DigitalProductURL *string    `json:"digital_product_url"`
	SuccessURL        *string    `json:"success_url"`
	ContactEmail      *string    `json:"contact_email"`
	RefundPolicy      *string    `json:"refund_policy"`
	ViewCount         int64      `json:"view_count"`
	PaymentCount      int64      `json:"payment_count"`
	TotalReceivedUSD  USD        `json:"total_received_usd"`
	CreatedAt         time.Time  `json:"created_at"`
	ExpiresAt         *time.Time `json:"expires_at"`
}

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
	var out struct {
		CheckoutPages []CheckoutPage `json:"checkout_pages"`
	}
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

// PaymentLink is a one-off request for money that lives 24 hours
// (docs/api.md).
type PaymentLink struct {
	PaymentLinkID string  `json:"payment_link_id"`
	AmountUSD     USD     `json:"amount_usd"`
	Description   string  `json:"description"`
	PayerEmail    *string `json:"payer_email"`
	Status        string  `json:"status"`
	// CheckoutURL (relative) is set only while the link is pending.
	CheckoutURL string     `json:"checkout_url,omitempty"`
	CreatedAt   time.Time  `json:"created_at"`
	ExpiresAt   time.Time  `json:"expires_at"`
	PaidAt      *time.Time `json:"paid_at"`
}

// CreatePaymentLink asks for amountUSD (0.50 to 10,000); payerEmail may be
// empty. 400 wallet_not_active before the owner's claim.
func (c *Client) CreatePaymentLink(ctx context.Context, amountUSD USD, description, payerEmail string, opts ...CallOption) (*PaymentLink, error) {
	in := struct {
		AmountUSD   USD    `json:"amount_usd"`
		Description string `json:"description"`
		PayerEmail  string `json:"payer_email,omitempty"`
	}{amountUSD, description, payerEmail}
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
	var out struct {
		PaymentLinks []PaymentLink `json:"payment_links"`
	}
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/payments/links", query: query, token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.PaymentLinks, nil
}
