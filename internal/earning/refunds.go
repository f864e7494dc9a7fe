package earning

import (
	"context"
	"fmt"

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
	res, err := s.refundPurchase(ctx, owner.ID, confirmationID, req)
	return res.Refund, err
}

// RefundSale gives (part of) one of the bot's sales back to its buyer: a
// card or sandbox sale from the bot's card wallet, never below zero; a
// live x402 sale on chain from its processor wallet (ChainRefunds).
func (s *Service) RefundSale(ctx context.Context, bot botpay.Bot, saleID string, req botpay.RefundRequest) (botpay.Refund, error) {
	if saleID == "" || !bot.Claimed() {
		return botpay.Refund{}, botpay.ErrNotFound("sale")
	}
	if err := req.Validate(); err != nil {
		return botpay.Refund{}, err
	}
	sale, err := s.SaleForRefund(ctx, bot.ID, saleID)
	if err != nil {
		return botpay.Refund{}, err
	}
	if sale.OnChain {
		return s.chain.RefundSaleOnChain(ctx, bot, saleID, sale, req)
	}
	res, err := s.refundSaleFromWallet(ctx, bot.ID, saleID, req)
	return res.Refund, err
}

// SaleForRefund is what deciding how to refund a sale needs, read before
// any lock: the amounts are read again under the wallet lock.
type SaleForRefund struct {
	Amount   botpay.Money
	Refunded botpay.Money
	Payer    string // the buyer's identifier: a chain address for x402
	// OnChain: the sale was settled by a transaction on a real chain, so
	// its money is in the seller's processor wallet, not the card wallet.
	OnChain bool
}

// SaleForRefund reads one of the bot's sales; another bot's sale is 404.
func (s *Service) SaleForRefund(ctx context.Context, botID, saleID string) (SaleForRefund, error) {
	var out SaleForRefund
	err := s.db.QueryRow(ctx, `SELECT amount_cents, refunded_cents, buyer_identifier,
		EXISTS (SELECT 1 FROM x402_payments p WHERE p.sale_id = sales.id AND p.raw_tx IS NOT NULL)
		FROM sales WHERE id = $1 AND bot_id = $2`, saleID, botID).Scan(&out.Amount, &out.Refunded, &out.Payer, &out.OnChain)
	if isNoRows(err) {
		return out, botpay.ErrNotFound("sale")
	}
	if err != nil {
		return out, fmt.Errorf("read sale %s for refund: %w", saleID, err)
	}
	return out, nil
}
