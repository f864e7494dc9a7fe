package mcp

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// checkoutPageInput is the body of a new checkout page and the
// idempotency key.
type checkoutPageInput struct {
	wire.CheckoutPageRequest
	idempotency
}

// paymentLinkInput is the body of a new payment link and the idempotency
// key.
type paymentLinkInput struct {
	wire.CreatePaymentLinkRequest
	idempotency
}

// invoiceInput is the body of a new invoice and the idempotency key.
type invoiceInput struct {
	wire.InvoiceRequest
	idempotency
}

// sendInvoiceInput names the draft (a path parameter) and the
// idempotency key.
type sendInvoiceInput struct {
	InvoiceID string `json:"invoice_id" jsonschema:"the draft invoice to send (inv_...)"`
	idempotency
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
						return bot.CreatePaymentLink(ctx, in.AmountUSD, in.Description, deref(in.PayerEmail), opts...)
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
