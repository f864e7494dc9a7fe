package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// RefundPurchase records that the merchant of an owner's approved
// purchase gave money back: the bot's card wallet is credited. Refunds do
// not restore budgets (docs/decisions.md, "Refunds").
func (s *Service) RefundPurchase(ctx context.Context, owner botpay.Owner, confirmationID string, req botpay.RefundRequest) (botpay.Refund, error) {
	if confirmationID == "" {
		return botpay.Refund{}, botpay.ErrNotFound("confirmation")
	}
	if err := req.Validate(); err != nil {
		return botpay.Refund{}, err
	}
	res, err := s.store.RefundPurchase(ctx, owner.ID, confirmationID, req)
	return res.Refund, err
}

// RefundSale gives (part of) one of the bot's sales back to its buyer: a
// card or sandbox sale from the bot's card wallet, never below zero; a
// live x402 sale on chain from its processor wallet (refundSaleOnChain).
func (s *Service) RefundSale(ctx context.Context, bot botpay.Bot, saleID string, req botpay.RefundRequest) (botpay.Refund, error) {
	if saleID == "" || !bot.Claimed() {
		return botpay.Refund{}, botpay.ErrNotFound("sale")
	}
	if err := req.Validate(); err != nil {
		return botpay.Refund{}, err
	}
	sale, err := s.store.SaleForRefund(ctx, bot.ID, saleID)
	if err != nil {
		return botpay.Refund{}, err
	}
	if sale.OnChain {
		return s.refundSaleOnChain(ctx, bot, saleID, sale, req)
	}
	res, err := s.store.RefundSaleFromWallet(ctx, bot.ID, saleID, req)
	return res.Refund, err
}
