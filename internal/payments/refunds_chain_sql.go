package payments

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// ChainRefund is a refund of a live x402 sale paid back on chain, with the
// relayer transaction that carries it.
type ChainRefund struct {
	Refund      botpay.Refund
	RawTx       string
	Relayer     string
	Nonce       uint64
	Failure     string
	SubmittedAt time.Time // when its newest transaction was stored
}

// submitSaleRefund records an on-chain refund of a sale as pending, in one
// transaction: the bot's wallet locks, the remainder check, the check that
// balance (the processor wallet's tokens on chain) still covers it beside
// the outstanding signatures and the other refunds not yet final, the
// relayer's next nonce taken, the transaction signed with it, and the
// refund stored with the signed bytes before anything is sent; the sale's
// refunded total rises with it, so racing refunds never exceed the sale.
// The refund's rows are internal/earning's (SaleRefunds).
func (s *Service) submitSaleRefund(ctx context.Context, rf botpay.Refund, r RelayerAccount, chainNonce uint64, balance chainBalance,
	sign func(nonce uint64) (SignedSubmission, error)) (ChainRefund, error) {
	out := ChainRefund{Refund: rf, Relayer: strings.ToLower(r.Address)}
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if err := s.refunds.LockSaleForChainRefund(ctx, tx, rf.BotID, rf.SaleID, rf.Amount); err != nil {
			return err
		}
		available, err := lockChainAvailable(ctx, tx, rf.BotID, balance, s.clock.Now())
		if err != nil {
			return err
		}
		if botpay.MicroOf(rf.Amount) > available {
			return botpay.Errorf(botpay.KindPaymentRequired, botpay.CodeInsufficientFunds,
				"the processor wallet's tokens on chain are promised to signatures or refunds already; %s USDC is free", max(available, 0).USD())
		}
		if out.Nonce, err = takeRelayerNonce(ctx, tx, r, chainNonce); err != nil {
			return err
		}
		signed, err := sign(out.Nonce)
		if err != nil {
			return fmt.Errorf("sign refund transaction: %w", err)
		}
		now := s.clock.Now()
		out.Refund.Status, out.Refund.TxHash, out.Refund.CreatedAt, out.RawTx = botpay.RefundPending, strings.ToLower(signed.TxHash), now, signed.RawTx
		if err := s.refunds.OpenChainRefund(ctx, tx, out.Refund); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE refunds SET raw_tx = $1, relayer = $2, relayer_nonce = $3, submitted_at = $4 WHERE id = $5`,
			out.RawTx, out.Relayer, int64(out.Nonce), ms(now), rf.ID)
		if err != nil {
			return fmt.Errorf("record refund transaction: %w", err)
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("submit refund of sale %s: %w", rf.SaleID, err)
	}
	return out, nil
}

// lockChainAvailable locks the bot's processor wallet (after its card
// wallet, as signing does) and answers what of balance, its token balance
// on chain, is not yet promised by a signature or an on-chain refund.
func lockChainAvailable(ctx context.Context, tx *kernel.Tx, botID string, balance chainBalance, now time.Time) (botpay.Micro, error) {
	var refunds botpay.Money
	var f signingFacts
	err := lockProcessorWallet(ctx, tx, botID, now, &f, nil, []kernel.Step{chainRefundsStep(botID, balance.ReadAt, &refunds)})
	if err != nil {
		return 0, err
	}
	return balance.Micro - f.locked.reserved() - botpay.MicroOf(refunds), nil
}

// pendingChainRefunds lists on-chain refunds submitted before cutoff that
// the chain has not decided yet, oldest first: the resume worker's queue.
func (s *Service) pendingChainRefunds(ctx context.Context, cutoff time.Time, limit int) ([]ChainRefund, error) {
	rows, err := s.db.Query(ctx, `SELECT `+chainRefundColumns+` FROM refunds
		WHERE status = $1 AND submitted_at < $2 ORDER BY submitted_at LIMIT $3`, botpay.RefundPending, ms(cutoff), limit)
	if err != nil {
		return nil, fmt.Errorf("list pending refunds: %w", err)
	}
	defer rows.Close()
	var out []ChainRefund
	for rows.Next() {
		c, err := scanChainRefund(rows)
		if err != nil {
			return nil, fmt.Errorf("scan pending refund: %w", err)
		}
		out = append(out, c)
	}
	return out, wrapErr(rows.Err(), "pending chain refunds")
}

// ChainRefundByID reads one refund with its transaction.
func (s *Service) ChainRefundByID(ctx context.Context, id string) (ChainRefund, error) {
	c, err := scanChainRefund(s.db.QueryRow(ctx, `SELECT `+chainRefundColumns+` FROM refunds WHERE id = $1`, id))
	if isNoRows(err) {
		return c, botpay.ErrNotFound("refund")
	}
	if err != nil {
		return c, fmt.Errorf("read refund %s: %w", id, err)
	}
	return c, nil
}

const chainRefundColumns = `id, bot_id, purchase_id, sale_id, amount_cents, reason, status, tx_hash, created_at, completed_at,
	raw_tx, relayer, relayer_nonce, failure, submitted_at`

func scanChainRefund(row scanner) (ChainRefund, error) {
	var c ChainRefund
	rf := &c.Refund
	var purchase, sale, hash, raw, relayer, failure sql.NullString
	var created int64
	var completed, nonce, submitted sql.NullInt64
	err := row.Scan(&rf.ID, &rf.BotID, &purchase, &sale, &rf.Amount, &rf.Reason, &rf.Status, &hash, &created, &completed,
		&raw, &relayer, &nonce, &failure, &submitted)
	rf.PurchaseID, rf.SaleID, rf.TxHash, rf.CreatedAt = purchase.String, sale.String, hash.String, fromMS(created)
	if completed.Valid {
		rf.CompletedAt = fromMS(completed.Int64)
	}
	c.RawTx, c.Relayer, c.Nonce, c.Failure = raw.String, relayer.String, uint64(nonce.Int64), failure.String
	if submitted.Valid {
		c.SubmittedAt = fromMS(submitted.Int64)
	}
	return c, err
}
