package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Invoice statuses (docs/api.md).
const (
	InvoiceDraft     = "draft"
	InvoiceSent      = "sent"
	InvoiceViewed    = "viewed"
	InvoicePaid      = "paid"
	InvoiceCancelled = "cancelled"
)

// LineItemRequest is one line of an invoice to create. Quantity is a
// positive number with at most four decimals, such as "2" or "1.5".
type LineItemRequest struct {
	Description  string      `json:"description"`
	Quantity     json.Number `json:"quantity"`
	UnitPriceUSD USD         `json:"unit_price_usd"`
}

// InvoiceRequest creates a draft invoice (docs/api.md).
type InvoiceRequest struct {
	CheckoutPageID string            `json:"checkout_page_id"`
	RecipientName  string            `json:"recipient_name,omitempty"`
	RecipientEmail string            `json:"recipient_email,omitempty"`
	RecipientType  string            `json:"recipient_type,omitempty"`
	LineItems      []LineItemRequest `json:"line_items"`
	TaxUSD         *USD              `json:"tax_usd,omitempty"`
	// DueDate defaults to 30 days after creation.
	DueDate *time.Time `json:"due_date,omitempty"`
	Notes   string     `json:"notes,omitempty"`
}

// LineItem is an invoice line as the service reports it (camelCase).
type LineItem struct {
	Description  string      `json:"description"`
	Quantity     json.Number `json:"quantity"`
	UnitPriceUSD USD         `json:"unitPriceUsd"`
	AmountUSD    USD         `json:"amountUsd"`
}

// Invoice is a bill (docs/api.md).
type Invoice struct {
	InvoiceID       string     `json:"invoice_id"`
	ReferenceNumber string     `json:"reference_number"`
	CheckoutPageID  string     `json:"checkout_page_id"`
	Status          string     `json:"status"`
	RecipientName   string     `json:"recipient_name"`
	RecipientEmail  string     `json:"recipient_email"`
	LineItems       []LineItem `json:"line_items"`
	SubtotalUSD     USD        `json:"subtotal_usd"`
	TaxUSD          USD        `json:"tax_usd"`
	TotalUSD        USD        `json:"total_usd"`
	// PaymentURL is relative: /pay/{checkout_page_id}?ref={reference_number}&t={token};
	// the unguessable token t is what lets the holder see and pay the invoice.
	PaymentURL  string     `json:"payment_url"`
	DueDate     time.Time  `json:"due_date"`
	SenderName  string     `json:"sender_name"`
	SenderEmail string     `json:"sender_email"`
	Notes       string     `json:"notes"`
	SaleID      *string    `json:"sale_id"`
	SentAt      *time.Time `json:"sent_at"`
	ViewedAt    *time.Time `json:"viewed_at"`
	PaidAt      *time.Time `json:"paid_at"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
	// RefundedUSD is what refunds of the paying sale gave back.
	RefundedUSD USD `json:"refunded_usd"`
}

// CreateInvoice creates a draft on one of the bot's checkout pages.
func (c *Client) CreateInvoice(ctx context.Context, req InvoiceRequest, opts ...CallOption) (*Invoice, error) {
	var out Invoice
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/invoices/create", req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// InvoiceFilter narrows Invoices; zero values do not filter, Limit 0 takes
// the default.
type InvoiceFilter struct {
	Status         string
	CheckoutPageID string
	Limit          int
}

// Invoices lists invoices, newest first; an empty list without a wallet.
func (c *Client) Invoices(ctx context.Context, f InvoiceFilter, opts ...CallOption) ([]Invoice, error) {
	query := url.Values{}
	if f.Status != "" {
		query.Set("status", f.Status)
	}
	if f.CheckoutPageID != "" {
		query.Set("checkout_page_id", f.CheckoutPageID)
	}
	if f.Limit != 0 {
		query.Set("limit", strconv.Itoa(f.Limit))
	}
	var out struct {
		Invoices []Invoice `json:"invoices"`
	}
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/invoices", query: query, token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.Invoices, nil
}

// Reasons in SentInvoice.EmailReason.
const (
	EmailNoRecipient = "no_recipient_email"
	EmailError       = "email_error"
)

// SentInvoice is the answer of a send (docs/api.md).
type SentInvoice struct {
	InvoiceID       string    `json:"invoice_id"`
	ReferenceNumber string    `json:"reference_number"`
	Status          string    `json:"status"`
	SentAt          time.Time `json:"sent_at"`
	PaymentURL      string    `json:"payment_url"`
	EmailSent       bool      `json:"email_sent"`
	// EmailReason is nil when the e-mail went out, else EmailNoRecipient or
	// EmailError; the invoice is sent either way.
	EmailReason *string `json:"email_reason"`
}

// SendInvoice sends a draft: it becomes sent, and the recipient (if any) is
// e-mailed the PDF. 400 only_draft_invoices_can_be_sent otherwise.
func (c *Client) SendInvoice(ctx context.Context, invoiceID string, opts ...CallOption) (*SentInvoice, error) {
	var out SentInvoice
	path := "/api/v1/bot/invoices/" + url.PathEscape(invoiceID) + "/send"
	if err := c.do(ctx, http.MethodPost, path, nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// CancelInvoice cancels an unpaid invoice of one of the owner's bots
// (docs/decisions.md); 409 invoice_already_paid for a paid one.
func (o *OwnerClient) CancelInvoice(ctx context.Context, invoiceID string, opts ...CallOption) (*Invoice, error) {
	var out Invoice
	path := "/api/v1/owner/invoices/" + url.PathEscape(invoiceID) + "/cancel"
	if err := o.do(ctx, http.MethodPost, path, nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
