package api

import (
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// Checkout pages, payment links, invoices and sales as the API writes them.

func viewCheckoutPage(p botpay.CheckoutPage, walletAddress string, now time.Time) wire.CheckoutPage {
	return wire.CheckoutPage{CheckoutPageID: p.ID, CheckoutURL: "/pay/" + p.ID, Title: p.Title, Description: p.Description,
		WalletAddress: optText(walletAddress), AmountUSD: optUSD(p.Amount), AmountLocked: p.AmountLocked,
		AllowedMethods: p.AllowedMethods, Status: p.Status(now), PageType: p.PageType, ImageURL: optText(p.ImageURL),
		CollectBuyerName: p.CollectBuyerName, DigitalProductURL: optText(p.DigitalProductURL), SuccessURL: optText(p.SuccessURL),
		ContactEmail: optText(p.ContactEmail), RefundPolicy: optText(p.RefundPolicy), ViewCount: int(p.ViewCount),
		PaymentCount: int(p.PaymentCount), TotalReceivedUSD: usd(p.TotalReceived), CreatedAt: at(p.CreatedAt),
		ExpiresAt: optTime(p.ExpiresAt)}
}

// viewPaymentLink names checkout_url only while the link can be paid.
func viewPaymentLink(l botpay.PaymentLink, now time.Time) wire.PaymentLink {
	v := wire.PaymentLink{PaymentLinkID: l.ID, AmountUSD: usd(l.Amount), Description: l.Description,
		PayerEmail: optText(l.PayerEmail), Status: l.Status(now), CreatedAt: at(l.CreatedAt), ExpiresAt: at(l.ExpiresAt),
		PaidAt: optTime(l.PaidAt)}
	if v.Status == botpay.LinkPending {
		v.CheckoutURL = wire.Ptr("/pay/" + l.ID)
	}
	return v
}

// viewInvoice always writes refunded_usd, 0.00 when nothing was refunded.
func viewInvoice(i botpay.Invoice) wire.Invoice {
	lines := make([]wire.InvoiceLineItem, len(i.LineItems))
	for k, l := range i.LineItems {
		lines[k] = wire.InvoiceLineItem{Description: l.Description, Quantity: json.Number(l.Quantity),
			UnitPriceUSD: usd(l.UnitPrice), AmountUSD: usd(l.Amount)}
	}
	return wire.Invoice{InvoiceID: i.ID, ReferenceNumber: i.ReferenceNumber, CheckoutPageID: i.CheckoutPageID, Status: i.Status,
		RecipientName: i.RecipientName, RecipientEmail: i.RecipientEmail, RecipientType: optText(i.RecipientType),
		LineItems: lines, SubtotalUSD: usd(i.Subtotal), TaxUSD: usd(i.Tax), TotalUSD: usd(i.Total),
		PaymentURL: i.PaymentURL(), DueDate: at(i.DueDate), SenderName: i.SenderName, SenderEmail: i.SenderEmail,
		Notes: i.Notes, SaleID: optText(i.SaleID), SentAt: optTime(i.SentAt), ViewedAt: optTime(i.ViewedAt),
		PaidAt: optTime(i.PaidAt), CreatedAt: at(i.CreatedAt), UpdatedAt: at(i.UpdatedAt),
		RefundedUSD: wire.Ptr(usd(i.Refunded))}
}

// viewSale always writes refunded_usd, 0.00 when nothing was refunded.
func viewSale(s botpay.Sale) wire.Sale {
	return wire.Sale{SaleID: s.ID, CheckoutPageID: optText(s.CheckoutPageID), PaymentLinkID: optText(s.PaymentLinkID),
		InvoiceID: optText(s.InvoiceID), AmountUSD: usd(s.Amount), PaymentMethod: s.Method, Status: s.Status,
		BuyerType: s.BuyerType, BuyerIdentifier: s.BuyerIdentifier, BuyerEmail: optText(s.BuyerEmail),
		TXHash: optText(s.TxHash), CheckoutTitle: s.CheckoutTitle, ConfirmedAt: optTime(s.ConfirmedAt),
		CreatedAt: at(s.CreatedAt), RefundedUSD: wire.Ptr(usd(s.Refunded)), ResourceURL: optText(s.ResourceURL)}
}
