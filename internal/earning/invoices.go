package earning

import (
	"context"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/invoicepdf"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/validate"
)

// LineInput is one line item as sent; Quantity is the JSON number's text.
// Problems found while decoding (wrong types) are already reported by the
// caller; here the values are checked.
type LineInput struct {
	Description string
	Quantity    string
	UnitPrice   botpay.Money
}

// InvoiceInput is a create request (docs/api.md).
type InvoiceInput struct {
	CheckoutPageID string
	RecipientName  string
	RecipientEmail string
	RecipientType  string
	LineItems      []LineInput
	Tax            botpay.Money
	DueDate        string
	Notes          string
}

// MaxLineItems bounds one invoice's lines.
const MaxLineItems = 100

// CreateInvoice validates a draft, computes its amounts and stores it with
// the next reference number.
func (s *Service) CreateInvoice(ctx context.Context, bot botpay.Bot, in InvoiceInput) (botpay.Invoice, error) {
	now := s.clock.Now()
	p := validate.Problems{}
	inv := botpay.Invoice{ID: botpay.NewID("inv_"), BotID: bot.ID, CheckoutPageID: strings.TrimSpace(in.CheckoutPageID),
		Status: botpay.InvoiceDraft, Tax: in.Tax, DueDate: now.Add(botpay.InvoiceDefaultDue), SenderName: bot.Name,
		SenderEmail: bot.OwnerEmail, CreatedAt: now, UpdatedAt: now}
	if inv.CheckoutPageID == "" {
		p.Add("checkout_page_id", "is required")
	}
	inv.RecipientName = p.Text("recipient_name", in.RecipientName, 0, 200, false)
	if strings.TrimSpace(in.RecipientEmail) != "" {
		inv.RecipientEmail = p.Email("recipient_email", in.RecipientEmail)
	}
	switch in.RecipientType {
	case "", "human", "bot", "agent":
		inv.RecipientType = in.RecipientType
	default:
		p.Add("recipient_type", "must be human, bot or agent")
	}
	inv.Notes = p.Text("notes", in.Notes, 0, 2000, true)
	if in.DueDate != "" {
		inv.DueDate = p.Timestamp("due_date", in.DueDate)
	}
	if in.Tax < 0 {
		p.Add("tax_usd", "must not be negative")
	}
	inv.LineItems, inv.Subtotal = lineItems(p, in.LineItems)
	inv.Total = inv.Subtotal + inv.Tax
	switch {
	case inv.Total > botpay.MaxMoney:
		p.Add("total_usd", "is too large")
	case inv.Total <= 0 && len(inv.LineItems) > 0:
		// Nothing to pay would make an invoice only a way to mail a
		// stranger the bot's text.
		p.Add("total_usd", "must be more than $0.00")
	}
	if err := p.Err(); err != nil {
		return inv, err
	}
	if !bot.Claimed() {
		return inv, errWalletNotFound
	}
	if err := s.insertInvoice(ctx, &inv); err != nil {
		return inv, err
	}
	return s.WithPayToken(inv), nil
}

// lineItems checks an invoice's lines and adds up their subtotal.
func lineItems(p validate.Problems, in []LineInput) ([]botpay.LineItem, botpay.Money) {
	switch {
	case len(in) == 0:
		p.Add("line_items", "must contain at least one line item")
		return nil, 0
	case len(in) > MaxLineItems:
		p.Add("line_items", "must contain at most "+strconv.Itoa(MaxLineItems)+" line items")
		return nil, 0
	}
	var subtotal botpay.Money
	out := make([]botpay.LineItem, len(in))
	for k, l := range in {
		field := "line_items[" + strconv.Itoa(k) + "]."
		item := botpay.LineItem{UnitPrice: l.UnitPrice}
		item.Description = p.Text(field+"description", l.Description, 1, 500, true)
		q, err := botpay.ParseQuantity(l.Quantity)
		if err != nil {
			p.Add(field+"quantity", err.Error())
		}
		if l.UnitPrice < 0 {
			p.Add(field+"unit_price_usd", "must not be negative")
		}
		item.Quantity = q
		item.Amount = botpay.LineAmount(q, l.UnitPrice)
		if item.Amount > botpay.MaxMoney {
			p.Add(field+"unit_price_usd", "makes the line amount too large")
		}
		subtotal += item.Amount
		out[k] = item
	}
	return out, subtotal
}

// Invoices pages through a bot's invoices; none without a wallet.
func (s *Service) Invoices(ctx context.Context, bot botpay.Bot, f botpay.InvoiceFilter, page botpay.PageRequest) (botpay.Page[botpay.Invoice], error) {
	switch f.Status {
	case "", botpay.InvoiceDraft, botpay.InvoiceSent, botpay.InvoiceViewed, botpay.InvoicePaid, botpay.InvoiceCancelled:
	default:
		return botpay.Page[botpay.Invoice]{}, botpay.ValidationError(map[string]string{"status": "must be draft, sent, viewed, paid or cancelled"})
	}
	if !bot.Claimed() {
		return botpay.Page[botpay.Invoice]{Items: []botpay.Invoice{}}, nil
	}
	out, err := s.invoicesOf(ctx, bot.ID, f, page)
	for k := range out.Items {
		out.Items[k] = s.WithPayToken(out.Items[k])
	}
	return out, err
}

// Reasons reported in email_reason (docs/api.md).
const (
	EmailNoRecipient = "no_recipient_email"
	EmailError       = "email_error"
)

// SentInvoice is the outcome of SendInvoice.
type SentInvoice struct {
	Invoice     botpay.Invoice
	EmailSent   bool
	EmailReason string // "" when sent
}

// SendInvoice moves a draft to sent, then e-mails the PDF to the recipient
// when there is an address. The status change commits first: a failed
// e-mail leaves the invoice sent and says so in EmailReason.
func (s *Service) SendInvoice(ctx context.Context, bot botpay.Bot, id string) (SentInvoice, error) {
	if strings.TrimSpace(id) == "" {
		return SentInvoice{}, ErrMissingInvoiceID
	}
	if !bot.Claimed() {
		return SentInvoice{}, errWalletNotFound
	}
	if err := s.senders.RequireVerifiedOwner(ctx, bot); err != nil {
		return SentInvoice{}, err
	}
	inv, err := s.markInvoiceSent(ctx, bot.ID, id, s.invoiceMailLimits(bot)...)
	if err != nil {
		return SentInvoice{}, explainMailLimit(err)
	}
	inv = s.WithPayToken(inv)
	out := SentInvoice{Invoice: inv}
	if inv.RecipientEmail == "" {
		out.EmailReason = EmailNoRecipient
		return out, nil
	}
	payURL := s.baseURL + inv.PaymentURL()
	pdf, err := invoicepdf.Render(inv, payURL)
	if err != nil {
		s.log.ErrorContext(ctx, "invoice pdf", "invoice_id", inv.ID, "err", err)
		out.EmailReason = EmailError
		return out, nil
	}
	msg, err := invoiceMail(inv, payURL, pdf)
	if err == nil && s.sendInvoiceMail(ctx, msg) {
		out.EmailSent = true
		return out, nil
	}
	out.EmailReason = EmailError
	return out, nil
}

// ErrMissingInvoiceID is the 400 for a send without an invoice id.
var ErrMissingInvoiceID = botpay.Errorf(botpay.KindInvalid, botpay.CodeMissingInvoiceID, "the path must name an invoice: /api/v1/bot/invoices/{id}/send")

// CancelInvoice lets an owner cancel an unpaid invoice of one of their bots.
func (s *Service) CancelInvoice(ctx context.Context, owner botpay.Owner, id string) (botpay.Invoice, error) {
	inv, err := s.cancelInvoice(ctx, owner.ID, id)
	return s.WithPayToken(inv), err
}

// sendInvoiceMail sends an invoice e-mail outside any transaction and
// reports whether it went. A failure is logged, never fatal to the send,
// and not retried: the caller tells its client.
func (s *Service) sendInvoiceMail(ctx context.Context, m mail.Message) bool {
	if err := s.invoiceMail.Send(ctx, m); err != nil {
		s.log.WarnContext(ctx, "e-mail not sent", "subject", m.Subject, "err", err)
		return false
	}
	return true
}
