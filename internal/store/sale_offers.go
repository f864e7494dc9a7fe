package store

import (
	"context"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// SaleRecorder records a sale along the one sale path inside the caller's
// transaction (earning.Service.RecordSaleIn): x402 settlement records it
// together with its claim on the authorization.
type SaleRecorder func(ctx context.Context, tx *kernel.Tx, in botpay.SaleInput) (botpay.SaleResult, error)

// SaleOffers gives the sale path of internal/earning what is paid for —
// checkout pages, invoices and payment links — inside the sale's kernel
// transaction, for as long as the store still keeps them.
type SaleOffers struct{ s *Store }

// SaleOffers is the store's side of the sale path (earning.Offers).
func (s *Store) SaleOffers() SaleOffers { return SaleOffers{s: s} }

func (o SaleOffers) tx(k *kernel.Tx) *Tx { return &Tx{k: k, s: o.s} }

// LockPage locks a checkout page for the sale.
func (o SaleOffers) LockPage(ctx context.Context, k *kernel.Tx, id string) (botpay.CheckoutPage, error) {
	return o.tx(k).lockPage(ctx, id)
}

// LockInvoiceByRef locks the invoice with reference ref on page pageID.
func (o SaleOffers) LockInvoiceByRef(ctx context.Context, k *kernel.Tx, pageID, ref string) (botpay.Invoice, error) {
	return o.tx(k).lockInvoiceByRef(ctx, pageID, ref)
}

// MarkInvoicePaid marks an invoice paid by sale saleID.
func (o SaleOffers) MarkInvoicePaid(ctx context.Context, k *kernel.Tx, id, saleID string, now time.Time) error {
	return o.tx(k).markInvoicePaid(ctx, id, saleID, now)
}

// LockLink locks a payment link for the sale.
func (o SaleOffers) LockLink(ctx context.Context, k *kernel.Tx, id string) (botpay.PaymentLink, error) {
	return o.tx(k).lockLink(ctx, id)
}

// LinkBeingPaid reports whether an x402 claim holds the link.
func (o SaleOffers) LinkBeingPaid(ctx context.Context, k *kernel.Tx, id string) (bool, error) {
	return o.tx(k).linkBeingPaid(ctx, id)
}

// CompleteLink marks a link paid by sale saleID.
func (o SaleOffers) CompleteLink(ctx context.Context, k *kernel.Tx, id, saleID string, now time.Time) error {
	return o.tx(k).completeLink(ctx, id, saleID, now)
}

// Invoice reads an invoice by ID (the invoice a receipt's sale paid).
func (o SaleOffers) Invoice(ctx context.Context, id string) (botpay.Invoice, error) {
	inv, err := scanInvoice(o.s.queryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1`, id))
	if err != nil {
		return inv, fmt.Errorf("read invoice %s: %w", id, err)
	}
	return inv, nil
}
