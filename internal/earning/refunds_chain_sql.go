package earning

import (
	"context"
	"fmt"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// A live x402 sale is refunded on chain by internal/payments, which signs
// and sends the transaction; the refund's rows stay this package's, written
// inside payments' transaction or in their own.

// LockSaleForChainRefund takes the bot's wallet lock, reads its sale under
// it and checks that amount is within what is left to refund.
func (s *Service) LockSaleForChainRefund(ctx context.Context, tx *kernel.Tx, botID, saleID string, amount botpay.Money) error {
	_, o, err := lockSaleForRefund(ctx, tx, botID, saleID)
	if err != nil {
		return err
	}
	_, err = botpay.RefundAmount(o.Amount, o.Refunded, &amount)
	return err
}

// OpenChainRefund raises the sale's refunded total by rf (so racing
// refunds never exceed the sale) and stores rf as it is, pending.
func (s *Service) OpenChainRefund(ctx context.Context, tx *kernel.Tx, rf botpay.Refund) error {
	if err := raiseRefunded(ctx, tx, "sales", rf.SaleID, rf.Amount); err != nil {
		return err
	}
	return insertRefund(ctx, tx, rf, 0)
}

// CompleteChainRefund records that the chain confirmed a pending refund
// (minedTx, its transaction that was mined): succeeded, the invoice
// marked, and wallet.refund.completed written with newBalance (the
// processor wallet's token balance after it, in cents) — one transaction,
// and only for the first caller; done is false for the others.
func (s *Service) CompleteChainRefund(ctx context.Context, id, minedTx string, newBalance botpay.Money) (done bool, err error) {
	err = s.db.InTx(ctx, func(tx *kernel.Tx) error {
		now := s.clock.Now()
		// The hash mined may be one the current transaction replaced.
		rf, err := scanRefund(tx.QueryRow(ctx, `UPDATE refunds SET status = $1, completed_at = $2, tx_hash = $5
			WHERE id = $3 AND status = $4 RETURNING `+refundColumns, botpay.RefundSucceeded, ms(now), id, botpay.RefundPending,
			strings.ToLower(minedTx)))
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("mark refund succeeded: %w", err)
		}
		done = true
		if err := markInvoiceRefunded(ctx, tx, rf.SaleID, rf.Amount, now); err != nil {
			return err
		}
		return s.outbox.Emit(tx, refundEvent(rf, newBalance, now))
	})
	if err != nil {
		return false, fmt.Errorf("complete refund %s: %w", id, err)
	}
	return done, nil
}

// FailChainRefund records that the chain refused a pending refund's
// transaction: failed with the reason, and the sale's refunded total
// lowered again so the amount can be refunded anew. Only the first caller
// changes anything; done is false for the others.
func (s *Service) FailChainRefund(ctx context.Context, id, reason string) (done bool, err error) {
	err = s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var saleID string
		var amount botpay.Money
		err := tx.QueryRow(ctx, `UPDATE refunds SET status = $1, failure = $2, completed_at = $3
			WHERE id = $4 AND status = $5 RETURNING sale_id, amount_cents`,
			botpay.RefundFailed, reason, ms(s.clock.Now()), id, botpay.RefundPending).Scan(&saleID, &amount)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("mark refund failed: %w", err)
		}
		done = true
		_, err = tx.Exec(ctx, `UPDATE sales SET refunded_cents = refunded_cents - $1 WHERE id = $2`, int64(amount), saleID)
		if err != nil {
			return fmt.Errorf("give back the refunded total: %w", err)
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("fail refund %s: %w", id, err)
	}
	return done, nil
}
