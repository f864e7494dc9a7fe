package earning

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
)

// invoiceHTML is the HTML part of the invoice e-mail. html/template escapes
// every value, so a bot's text cannot become markup in the recipient's mail
// client.
var invoiceHTML = template.Must(template.New("invoice").Funcs(template.FuncMap{"usd": func(m botpay.Money) string { return "$" + m.USD() }}).Parse(`<!doctype html>
<html><body style="font-family: sans-serif; color: #1d2330">
<h1 style="font-size: 20px">Invoice {{.Inv.ReferenceNumber}} from {{.Inv.SenderName}}</h1>
{{with .Inv.RecipientName}}<p>Hello {{.}},</p>{{end}}
<p>Due {{.Due}}. The invoice is attached as a PDF.</p>
<table cellpadding="6" style="border-collapse: collapse">
<tr style="background: #ebeef5"><th align="left">Description</th><th align="right">Qty</th><th align="right">Unit price</th><th align="right">Amount</th></tr>
{{range .Inv.LineItems}}<tr><td>{{.Description}}</td><td align="right">{{.Quantity}}</td><td align="right">{{usd .UnitPrice}}</td><td align="right">{{usd .Amount}}</td></tr>
{{end}}<tr><td colspan="3" align="right">Subtotal</td><td align="right">{{usd .Inv.Subtotal}}</td></tr>
<tr><td colspan="3" align="right">Tax</td><td align="right">{{usd .Inv.Tax}}</td></tr>
<tr><td colspan="3" align="right"><strong>Total</strong></td><td align="right"><strong>{{usd .Inv.Total}}</strong></td></tr>
</table>
{{with .Inv.Notes}}<p style="white-space: pre-wrap">{{.}}</p>{{end}}
<p><a href="{{.PayURL}}">Pay this invoice online</a></p>
</body></html>
`))

// invoiceMail composes the e-mail of a sent invoice: plain text, HTML and
// the PDF attached.
func invoiceMail(inv botpay.Invoice, payURL string, pdf []byte) (mail.Message, error) {
	due := inv.DueDate.UTC().Format("2 January 2006")
	var text strings.Builder
	fmt.Fprintf(&text, "Invoice %s from %s\n\n", inv.ReferenceNumber, inv.SenderName)
	if inv.RecipientName != "" {
		fmt.Fprintf(&text, "Hello %s,\n\n", inv.RecipientName)
	}
	for _, l := range inv.LineItems {
		fmt.Fprintf(&text, "- %s: %s x $%s = $%s\n", l.Description, l.Quantity, l.UnitPrice.USD(), l.Amount.USD())
	}
	fmt.Fprintf(&text, "\nSubtotal: $%s\nTax: $%s\nTotal: $%s\nDue: %s\n", inv.Subtotal.USD(), inv.Tax.USD(), inv.Total.USD(), due)
	if inv.Notes != "" {
		fmt.Fprintf(&text, "\n%s\n", inv.Notes)
	}
	fmt.Fprintf(&text, "\nPay online: %s\nThe invoice is attached as a PDF.\n", payURL)
	var html bytes.Buffer
	if err := invoiceHTML.Execute(&html, struct {
		Inv    botpay.Invoice
		Due    string
		PayURL string
	}{inv, due, payURL}); err != nil {
		return mail.Message{}, err
	}
	return mail.Message{
		To:          inv.RecipientEmail,
		Subject:     fmt.Sprintf("Invoice %s from %s", inv.ReferenceNumber, inv.SenderName),
		Text:        text.String(),
		HTML:        html.String(),
		Attachments: []mail.Attachment{{Name: inv.ReferenceNumber + ".pdf", ContentType: "application/pdf", Data: pdf}},
	}, nil
}
