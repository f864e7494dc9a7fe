package api

import (
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// JSON shapes of checkout pages, payment links, invoices and sales
// (docs/api.md).

func optText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optTime(t time.Time) *botpay.Timestamp {
	if t.IsZero() {
		return nil
	}
	ts := botpay.Timestamp(t)
	return &ts
}

type checkoutPageView struct {
	CheckoutPageID    string            `json:"checkout_page_id"`
	CheckoutURL       string            `json:"checkout_url"`
	Title             string            `json:"title"`
	Description       string            `json:"description"`
	WalletAddress     *string           `json:"wallet_address"`
	AmountUSD         *botpay.Money     `json:"amount_usd"`
	AmountLocked      bool              `json:"amount_locked"`
	AllowedMethods    []string          `json:"allowed_methods"`
	Status            string            `json:"status"`
	PageType          string            `json:"page_type"`
	ImageURL          *string           `json:"image_url"`
	CollectBuyerName  bool              `json:"collect_buyer_name"`
	DigitalProductURL *string           `json:"digital_product_url"`
	SuccessURL        *string           `json:"success_url"`
	ContactEmail      *string           `json:"contact_email"`
	RefundPolicy      *string           `json:"refund_policy"`
	ViewCount         int64             `json:"view_count"`
	PaymentCount      int64             `json:"payment_count"`
	TotalReceivedUSD  botpay.Money      `json:"total_received_usd"`
	CreatedAt         botpay.Timestamp  `json:"created_at"`
	ExpiresAt         *botpay.Timestamp `json:"expires_at"`
}

func viewCheckoutPage(p botpay.CheckoutPage, walletAddress string, now time.Time) checkoutPageView {
	return checkoutPageView{CheckoutPageID: p.ID, CheckoutURL: "/pay/" + p.ID, Title: p.Title, Description: p.Description,
		WalletAddress: optText(walletAddress), AmountUSD: p.Amount, AmountLocked: p.AmountLocked, AllowedMethods: p.AllowedMethods,
		Status: p.Status(now), PageType: p.PageType, ImageURL: optText(p.ImageURL), CollectBuyerName: p.CollectBuyerName,
		DigitalProductURL: optText(p.DigitalProductURL), SuccessURL: optText(p.SuccessURL),
		ContactEmail: optText(p.ContactEmail), RefundPolicy: optText(p.RefundPolicy), ViewCount: p.ViewCount,
		PaymentCount: p.PaymentCount, TotalReceivedUSD: p.TotalReceived, CreatedAt: botpay.Timestamp(p.CreatedAt),
		ExpiresAt: optTime(p.ExpiresAt)}
}

type paymentLinkView struct {
	PaymentLinkID string            `json:"payment_link_id"`
	AmountUSD     botpay.Money      `json:"amount_usd"`
	Description   string            `json:"description"`
	PayerEmail    *string           `json:"payer_email"`
	Status        string            `json:"status"`
	CheckoutURL   string            `json:"checkout_url,omitempty"`
	CreatedAt     botpay.Timestamp  `json:"created_at"`
	ExpiresAt     botpay.Timestamp  `json:"expires_at"`
	PaidAt        *botpay.Timestamp `json:"paid_at"`
}

func viewPaymentLink(l botpay.PaymentLink, now time.Time) paymentLinkView {
	v := paymentLinkView{PaymentLinkID: l.ID, AmountUSD: l.Amount, Description: l.Description, PayerEmail: optText(l.PayerEmail),
		Status: l.Status(now), CreatedAt: botpay.Timestamp(l.CreatedAt), ExpiresAt: botpay.Timestamp(l.ExpiresAt), PaidAt: optTime(l.PaidAt)}
	if v.Status == botpay.LinkPending {
		v.CheckoutURL = "/pay/" + l.ID
	}
	return v
}

type lineItemView struct {
	Description  string       `json:"description"`
	Quantity     json.Number  `json:"quantity"`
	UnitPriceUSD botpay.Money `json:"unitPriceUsd"`
	AmountUSD    botpay.Money `json:"amountUsd"`
}

type invoiceView struct {
	InvoiceID       string            `json:"invoice_id"`
	ReferenceNumber string            `json:"reference_number"`
	CheckoutPageID  string            `json:"checkout_page_id"`
	Status          string            `json:"status"`
	RecipientName   string            `json:"recipient_name"`
	RecipientEmail  string            `json:"recipient_email"`
	RecipientType   *string           `json:"recipient_type"`
	LineItems       []lineItemView    `json:"line_items"`
	SubtotalUSD     botpay.Money      `json:"subtotal_usd"`
	TaxUSD          botpay.Money      `json:"tax_usd"`
	TotalUSD        botpay.Money      `json:"total_usd"`
	PaymentURL      string            `json:"payment_url"`
	DueDate         botpay.Timestamp  `json:"due_date"`
	SenderName      string            `json:"sender_name"`
	SenderEmail     string            `json:"sender_email"`
	Notes           string            `json:"notes"`
	SaleID          *string           `json:"sale_id"`
	SentAt          *botpay.Timestamp `json:"sent_at"`
	ViewedAt        *botpay.Timestamp `json:"viewed_at"`
	PaidAt          *botpay.Timestamp `json:"paid_at"`
	CreatedAt       botpay.Timestamp  `json:"created_at"`
	UpdatedAt       botpay.Timestamp  `json:"updated_at"`
	RefundedUSD     botpay.Money      `json:"refunded_usd"`
}

func viewInvoice(i botpay.Invoice) invoiceView {
	lines := make([]lineItemView, len(i.LineItems))
	for k, l := range i.LineItems {
		lines[k] = lineItemView{Description: l.Description, Quantity: json.Number(l.Quantity), UnitPriceUSD: l.UnitPrice, AmountUSD: l.Amount}
	}
	return invoiceView{InvoiceID: i.ID, ReferenceNumber: i.ReferenceNumber, CheckoutPageID: i.CheckoutPageID, Status: i.Status,
		RecipientName: i.RecipientName, RecipientEmail: i.RecipientEmail, RecipientType: optText(i.RecipientType), LineItems: lines,
		SubtotalUSD: i.Subtotal, TaxUSD: i.Tax, TotalUSD: i.Total, PaymentURL: i.PaymentURL(), DueDate: botpay.Timestamp(i.DueDate),
		SenderName: i.SenderName, SenderEmail: i.SenderEmail, Notes: i.Notes, SaleID: optText(i.SaleID), SentAt: optTime(i.SentAt),
		ViewedAt: optTime(i.ViewedAt), PaidAt: optTime(i.PaidAt), CreatedAt: botpay.Timestamp(i.CreatedAt),
		UpdatedAt: botpay.Timestamp(i.UpdatedAt), RefundedUSD: i.Refunded}
}

type saleView struct {
	SaleID          string            `json:"sale_id"`
	CheckoutPageID  *string           `json:"checkout_page_id"`
	PaymentLinkID   *string           `json:"payment_link_id,omitempty"`
	InvoiceID       *string           `json:"invoice_id,omitempty"`
	AmountUSD       botpay.Money      `json:"amount_usd"`
	PaymentMethod   string            `json:"payment_method"`
	Status          string            `json:"status"`
	BuyerType       string            `json:"buyer_type"`
	BuyerIdentifier string            `json:"buyer_identifier"`
	BuyerEmail      *string           `json:"buyer_email"`
	TxHash          *string           `json:"tx_hash"`
	CheckoutTitle   string            `json:"checkout_title"`
	ConfirmedAt     *botpay.Timestamp `json:"confirmed_at"`
	CreatedAt       botpay.Timestamp  `json:"created_at"`
	RefundedUSD     botpay.Money      `json:"refunded_usd"`
	ResourceURL     *string           `json:"resource_url,omitempty"`
}

func viewSale(s botpay.Sale) saleView {
	return saleView{SaleID: s.ID, CheckoutPageID: optText(s.CheckoutPageID), PaymentLinkID: optText(s.PaymentLinkID),
		InvoiceID: optText(s.InvoiceID), AmountUSD: s.Amount, PaymentMethod: s.Method, Status: s.Status, BuyerType: s.BuyerType,
		BuyerIdentifier: s.BuyerIdentifier, BuyerEmail: optText(s.BuyerEmail), TxHash: optText(s.TxHash),
		CheckoutTitle: s.CheckoutTitle, ConfirmedAt: optTime(s.ConfirmedAt), CreatedAt: botpay.Timestamp(s.CreatedAt),
		RefundedUSD: s.Refunded, ResourceURL: optText(s.ResourceURL)}
}
