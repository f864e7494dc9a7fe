package earning

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// The tests of the SQL read the wallet a refund changed, and list sales
// by bot ID before any claim check.

func (s *Service) RefundPurchaseResult(ctx context.Context, ownerID, purchaseID string, req botpay.RefundRequest) (RefundResult, error) {
	return s.refundPurchase(ctx, ownerID, purchaseID, req)
}

func (s *Service) RefundSaleFromWallet(ctx context.Context, botID, saleID string, req botpay.RefundRequest) (RefundResult, error) {
	return s.refundSaleFromWallet(ctx, botID, saleID, req)
}

func (s *Service) SalesOf(ctx context.Context, botID string, f botpay.SaleFilter, page botpay.PageRequest) (botpay.Page[botpay.Sale], error) {
	return s.salesOf(ctx, botID, f, page)
}

// The tests of invoice sending take the mail limits of their choosing, and
// store drafts and read them back as the use cases do.

func (s *Service) MarkInvoiceSent(ctx context.Context, botID, id string, limits ...Limit) (botpay.Invoice, error) {
	return s.markInvoiceSent(ctx, botID, id, limits...)
}

func (s *Service) InsertInvoice(ctx context.Context, inv *botpay.Invoice) error {
	return s.insertInvoice(ctx, inv)
}

func (s *Service) InvoicesOf(ctx context.Context, botID string, f botpay.InvoiceFilter, page botpay.PageRequest) (botpay.Page[botpay.Invoice], error) {
	return s.invoicesOf(ctx, botID, f, page)
}
