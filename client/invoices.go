package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/botpay/botpay/wire"
)

// Invoice statuses (docs/api.md).
const (
	InvoiceDraft     = "draft"
	InvoiceSent      = "sent"
	InvoiceViewed    = "viewed"
	InvoicePaid      = "paid"
	InvoiceCancelled = "cancelled"
)

// LineItemRequest is one line of an InvoiceRequest. Quantity is a
// positive number with at most four decimals, such as "2" or "1.5".
type LineItemRequest = wire.InvoiceRequestLineItem

// InvoiceRequest is the body of CreateInvoice. DueDate (an RFC 3339 time)
// defaults to 30 days after creation.
type InvoiceRequest = wire.InvoiceRequest

// LineItem is an invoice line as the service reports it (camelCase), in
// Invoice.
type LineItem = wire.InvoiceLineItem

// Invoice is a bill, the answer of CreateInvoice and
// OwnerClient.CancelInvoice and the items of Invoices. PaymentURL is
// relative: /pay/{checkout_page_id}?ref={reference_number}&t={token}; the
// unguessable token t is what lets the holder see and pay the invoice.
// RefundedUSD is what refunds of the paying sale gave back.
type Invoice = wire.Invoice

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
	var out wire.ListInvoicesResponse
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

// SentInvoice is the answer of SendInvoice. EmailReason is nil when the
// e-mail went out, else EmailNoRecipient or EmailError; the invoice is sent
// either way.
type SentInvoice = wire.SendInvoiceResponse

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
