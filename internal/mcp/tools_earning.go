package mcp

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
)

type checkoutPageInput struct {
	Title             string   `json:"title" jsonschema:"what is sold, 1-200 characters"`
	Description       string   `json:"description,omitempty" jsonschema:"at most 2000 characters"`
	AmountUSD         *float64 `json:"amount_usd,omitempty" jsonschema:"fixed price in US dollars; leave out for pay-what-you-want"`
	AmountLocked      *bool    `json:"amount_locked,omitempty" jsonschema:"whether buyers must pay exactly amount_usd (default true)"`
	AllowedMethods    []string `json:"allowed_methods,omitempty" jsonschema:"payment methods offered; default all"`
	SuccessURL        string   `json:"success_url,omitempty" jsonschema:"where buyers go after paying"`
	ContactEmail      string   `json:"contact_email,omitempty" jsonschema:"an address for buyers' questions, shown beside the seller's name"`
	RefundPolicy      string   `json:"refund_policy,omitempty" jsonschema:"the refund policy buyers see, up to 500 characters"`
	ExpiresAt         string   `json:"expires_at,omitempty" jsonschema:"ISO 8601 time after which the page stops selling"`
	PageType          string   `json:"page_type,omitempty" jsonschema:"default product"`
	DigitalProductURL string   `json:"digital_product_url,omitempty" jsonschema:"required for digital_product: revealed to the buyer only after payment"`
	ImageURL          string   `json:"image_url,omitempty"`
	CollectBuyerName  *bool    `json:"collect_buyer_name,omitempty"`
	IdempotencyKey    string   `json:"idempotency_key,omitempty" jsonschema:"any unique string; a retry with the same key and arguments returns the first page instead of creating another"`
}

type paymentLinkInput struct {
	AmountUSD      float64 `json:"amount_usd" jsonschema:"0.50 to 10000 US dollars"`
	Description    string  `json:"description" jsonschema:"what the payment is for, 1-500 characters"`
	PayerEmail     string  `json:"payer_email,omitempty" jsonschema:"pre-fills the payer's e-mail on the payment page"`
	IdempotencyKey string  `json:"idempotency_key,omitempty" jsonschema:"any unique string; a retry with the same key and arguments returns the first link"`
}

type lineItemInput struct {
	Description  string  `json:"description" jsonschema:"at most 500 characters"`
	Quantity     float64 `json:"quantity" jsonschema:"positive"`
	UnitPriceUSD float64 `json:"unit_price_usd" jsonschema:"US dollars, at least 0"`
}

type invoiceInput struct {
	CheckoutPageID string          `json:"checkout_page_id" jsonschema:"the checkout page the invoice is paid through (create_checkout_page)"`
	RecipientName  string          `json:"recipient_name,omitempty" jsonschema:"at most 200 characters"`
	RecipientEmail string          `json:"recipient_email,omitempty" jsonschema:"send_invoice e-mails the PDF here"`
	RecipientType  string          `json:"recipient_type,omitempty"`
	LineItems      []lineItemInput `json:"line_items" jsonschema:"at least one line; a line's amount is quantity times unit price"`
	TaxUSD         *float64        `json:"tax_usd,omitempty" jsonschema:"added to the subtotal; default 0"`
	DueDate        string          `json:"due_date,omitempty" jsonschema:"ISO 8601; default 30 days from now"`
	Notes          string          `json:"notes,omitempty" jsonschema:"at most 2000 characters"`
	IdempotencyKey string          `json:"idempotency_key,omitempty" jsonschema:"any unique string; a retry with the same key and arguments returns the first invoice"`
}

type sendInvoiceInput struct {
	InvoiceID      string `json:"invoice_id" jsonschema:"the draft invoice to send (inv_...)"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

type listSalesInput struct {
	CheckoutPageID string `json:"checkout_page_id,omitempty" jsonschema:"only the sales of this checkout page"`
	Status         string `json:"status,omitempty" jsonschema:"only sales in this status, for example confirmed"`
	PaymentMethod  string `json:"payment_method,omitempty" jsonschema:"only sales paid this way, for example x402"`
	Limit          int    `json:"limit,omitempty" jsonschema:"1-100, default 50"`
	Cursor         string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page"`
}

var paymentMethods = []string{"x402", "usdc_direct", "processor_onramp", "l2_pay"}

func earningTools() []toolDef {
	return []toolDef{
		endpoint(newTool("create_checkout_page",
			"Creates a hosted checkout page where people and other agents pay this bot: by card or onramp on the page, or with x402 at "+
				"/api/v1/checkout/{checkout_page_id}/x402. Each payment is a sale (list_sales) credited to the bot's wallet, announced by "+
				"wallet.sale.completed. Needs an active wallet (wallet_not_found before the owner claims the bot). Share the service's base URL "+
				"followed by checkout_url with buyers; invoices are paid through a checkout page too.",
			hints{title: "Create a checkout page"},
			inputSchema[checkoutPageInput](enum("page_type", "product", "event", "digital_product"),
				itemsEnum("allowed_methods", paymentMethods...)),
			checkoutPageOutput),
			func(in checkoutPageInput, raw json.RawMessage) (call, error) {
				return relayed(raw, in.IdempotencyKey, (*client.Client).CreateCheckoutPage)
			}),
		endpoint(newTool("create_payment_link",
			"Creates a one-off payment link for a fixed amount, valid for "+span(botpay.PaymentLinkLifetime)+". When someone pays it, the bot's wallet is credited and "+
				"wallet.payment.received arrives in list_messages. Needs an active wallet (wallet_not_active otherwise).",
			hints{title: "Create a payment link"}, inputSchema[paymentLinkInput](), paymentLinkOutput),
			func(in paymentLinkInput, raw json.RawMessage) (call, error) {
				return relayed(raw, in.IdempotencyKey,
					func(bot *client.Client, ctx context.Context, in paymentLinkInput, opts ...client.CallOption) (*client.PaymentLink, error) {
						return bot.CreatePaymentLink(ctx, usd(in.AmountUSD), in.Description, in.PayerEmail, opts...)
					})
			}),
		endpoint(newTool("create_invoice",
			"Creates a draft invoice with line items, payable through one of the bot's checkout pages. It is not sent yet: call send_invoice "+
				"with its invoice_id to e-mail the PDF. When paid, the invoice becomes paid and a sale is recorded.",
			hints{title: "Create an invoice"},
			inputSchema[invoiceInput](enum("recipient_type", "human", "bot", "agent")), invoiceOutput),
			func(in invoiceInput, raw json.RawMessage) (call, error) {
				return relayed(raw, in.IdempotencyKey, (*client.Client).CreateInvoice)
			}),
		endpoint(newTool("send_invoice",
			"Sends a draft invoice: marks it sent and e-mails the recipient the PDF with its payment link (email_sent tells whether the "+
				"e-mail went; without a recipient e-mail, share payment_url yourself). Only drafts can be sent (only_draft_invoices_can_be_sent); "+
				invoiceMailLimitText+".",
			hints{title: "Send an invoice", openWorld: true}, inputSchema[sendInvoiceInput](), sentInvoiceOutput),
			func(in sendInvoiceInput, _ json.RawMessage) (call, error) {
				return answered(func(bot *client.Client, ctx context.Context, opts ...client.CallOption) (*client.SentInvoice, error) {
					return bot.SendInvoice(ctx, in.InvoiceID, append(opts, client.WithIdempotencyKey(in.IdempotencyKey))...)
				}), nil
			}),
		endpoint(newTool("list_sales",
			"Lists what this bot has sold, newest first: checkout-page, invoice and payment-link payments by any method (card, sandbox, x402), "+
				"with amount, buyer, method and status. Filter by checkout_page_id, status or payment_method; page with cursor.",
			hints{title: "List sales", readOnly: true}, inputSchema[listSalesInput](), salesOutput),
			func(in listSalesInput, _ json.RawMessage) (call, error) {
				filter := client.SaleFilter{CheckoutPageID: in.CheckoutPageID, Status: in.Status, PaymentMethod: in.PaymentMethod}
				return answered(func(bot *client.Client, ctx context.Context, opts ...client.CallOption) (*client.Page[client.Sale], error) {
					return bot.SalesPage(ctx, filter, page(in.Limit, in.Cursor), opts...)
				}), nil
			}),
	}
}
