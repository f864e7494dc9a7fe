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
