package earning

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
)

// A sale whose buyer gave an e-mail address, or that paid an invoice, is
// confirmed by a receipt e-mail, sent once: only by the call that recorded
// the sale (never by a replay or a settlement finished elsewhere), after
// its transaction committed, and tried again like owner notifications when
// the mail server fails. Anyone can name any address on a sandbox page, so
// receipts are limited per recipient and per seller bot over a day; one
// held back is logged, and the receipt page stays the proof of payment.
const receiptMailDay = 24 * time.Hour

// MailReceipt sends the receipt of a newly recorded sale to its buyer and
// to the payer of the invoice it paid (once when they are the same).
// RecordSale calls it; a caller of RecordSaleIn does once it committed.
func (s *Service) MailReceipt(ctx context.Context, res botpay.SaleResult) {
	if s.receipts.Mail == nil {
		return // a service built without mail sends no receipts
	}
	payID := receiptPayID(res)
	if payID == "" {
		return // a sale through the facilitator has no buyer page
	}
	var to []string
	for _, addr := range []string{res.Sale.BuyerEmail, invoicePayer(res.Invoice)} {
		addr = strings.ToLower(strings.TrimSpace(addr))
		if addr != "" && (len(to) == 0 || to[0] != addr) {
			to = append(to, addr)
		}
	}
	if len(to) == 0 {
		return
	}
	seller, err := s.sellers.SellerName(ctx, res.Sale.BotID)
	if err != nil {
		s.log.WarnContext(ctx, "receipt not sent: seller unknown", "sale_id", res.Sale.ID, "err", err)
		return
	}
	for _, addr := range to {
		if s.admitReceipt(ctx, res.Sale.BotID, addr) {
			s.receipts.Mail.Notify(ctx, receiptMail(addr, seller, res, s.receipts.BaseURL+"/pay/"+payID+"/receipt/"+res.Sale.ID))
		}
	}
}

func invoicePayer(inv *botpay.Invoice) string {
	if inv == nil {
		return ""
	}
	return inv.RecipientEmail
}

// receiptPayID is the buyer page a sale was paid through.
func receiptPayID(res botpay.SaleResult) string {
	if res.Sale.CheckoutPageID != "" {
		return res.Sale.CheckoutPageID
	}
	return res.Sale.PaymentLinkID
}

// admitReceipt takes one receipt to address from the daily limits.
func (s *Service) admitReceipt(ctx context.Context, botID, address string) bool {
	err := s.receipts.Limits.TakeMailLimits(ctx, []MailLimit{
		{Bucket: "receipt-mail-bot:" + botID, Max: s.receipts.PerBotPerDay, Window: receiptMailDay},
		{Bucket: "receipt-mail-to:" + botpay.Digest(address), Max: s.receipts.PerAddressPerDay, Window: receiptMailDay},
	})
	if err != nil {
		s.log.WarnContext(ctx, "receipt e-mail held back", "bot_id", botID, "err", err)
		return false
	}
	return true
}

// receiptMail is the receipt of a sale: what was paid, to whom, for what,
// when, how, and the link to the receipt page. The Subject carries no
// text of the seller's.
func receiptMail(to, seller string, res botpay.SaleResult, link string) mail.Message {
	sale := res.Sale
	when := sale.ConfirmedAt
	if when.IsZero() {
		when = sale.CreatedAt
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Thank you for your payment.\n\nAmount: %s\nPaid to: %s\nFor: %s\n", botpay.FormatUSD(sale.Amount), seller, receiptItem(res))
	if res.Invoice != nil {
		fmt.Fprintf(&b, "Invoice: %s\n", res.Invoice.ReferenceNumber)
	}
	fmt.Fprintf(&b, "Date: %s\nMethod: %s\nReceipt number: %s\n", when.UTC().Format("2 January 2006, 15:04 UTC"),
		botpay.MethodLabel(sale.Method), sale.ID)
	if sale.TxHash != "" {
		fmt.Fprintf(&b, "Transaction hash: %s\n", sale.TxHash)
	}
	if res.Page != nil && res.Page.ContactEmail != "" {
		fmt.Fprintf(&b, "Questions about your order: %s\n", res.Page.ContactEmail)
	}
	if res.Page != nil && res.Page.RefundPolicy != "" {
		fmt.Fprintf(&b, "Refund policy: %s\n", res.Page.RefundPolicy)
	}
	fmt.Fprintf(&b, "\nYour receipt: %s\nKeep this e-mail or the receipt page as your proof of payment.\n", link)
	return mail.Message{To: to, Subject: "Your receipt for " + botpay.FormatUSD(sale.Amount), Text: b.String()}
}

// receiptItem names what was bought: the page's title or the link's
// description.
func receiptItem(res botpay.SaleResult) string {
	switch {
	case res.Page != nil:
		return res.Page.Title
	case res.Link != nil:
		return res.Link.Description
	}
	return res.Sale.CheckoutTitle
}
