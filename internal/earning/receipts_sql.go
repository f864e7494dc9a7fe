package earning

import (
	"context"
	"fmt"

	"github.com/botpay/botpay/internal/botpay"
)

// Receipt is a buyer's proof of payment: the sale, the invoice it paid
// (if any) and the seller.
type Receipt struct {
	Sale    botpay.Sale
	Invoice *botpay.Invoice
	Seller  Seller
}

// ReceiptOf reads sale saleID as paid through payID (a checkout page or a
// payment link); a sale of another page or link is the same not_found as
// a missing one, so a sale ID alone shows nothing.
func (s *Service) ReceiptOf(ctx context.Context, payID, saleID string) (Receipt, error) {
	sale, err := scanSale(s.db.QueryRow(ctx, `SELECT `+saleColumns+` FROM sales
		WHERE id = $1 AND (checkout_page_id = $2 OR payment_link_id = $2)`, saleID, payID))
	if isNoRows(err) {
		return Receipt{}, botpay.ErrNotFound("sale")
	}
	if err != nil {
		return Receipt{}, fmt.Errorf("read sale %s: %w", saleID, err)
	}
	r := Receipt{Sale: sale}
	if sale.InvoiceID != "" {
		inv, err := s.invoice(ctx, sale.InvoiceID)
		if err != nil {
			return r, fmt.Errorf("read invoice %s of sale %s: %w", sale.InvoiceID, saleID, err)
		}
		r.Invoice = &inv
	}
	if r.Seller, err = s.SellerOf(ctx, sale.BotID); err != nil {
		return Receipt{}, err
	}
	return r, nil
}
