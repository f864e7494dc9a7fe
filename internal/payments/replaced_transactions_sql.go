package payments

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/kernel"
)

// ErrNotReplaceable is a transaction another replica replaced already, or
// whose payment or refund the chain has decided.
var ErrNotReplaceable = errors.New("payments: the transaction was replaced already or its outcome is recorded")

// Kinds of rows whose relayer transaction can be replaced.
const (
	ReplacedX402Payment = "x402_payment"
	ReplacedRefund      = "refund"
)

// replaceX402Transaction makes next, signed with the same nonce, the
// transaction of submitted payment id in place of old, and keeps old's
// hash: either may be the one mined. Only the first of concurrent
// replacements of old succeeds; the others get ErrNotReplaceable.
func (s *Service) replaceX402Transaction(ctx context.Context, id int64, old string, next SignedSubmission) error {
	return s.replaceTransaction(ctx, `UPDATE x402_payments SET tx_hash = $1, raw_tx = $2, submitted_at = $3
		WHERE id = $4 AND status = 'submitted' AND tx_hash = $5`, id, ReplacedX402Payment, strconv.FormatInt(id, 10), old, next)
}

// replaceRefundTransaction is replaceX402Transaction for a pending
// on-chain refund; the refund's tx_hash becomes next's.
func (s *Service) replaceRefundTransaction(ctx context.Context, id, old string, next SignedSubmission) error {
	return s.replaceTransaction(ctx, `UPDATE refunds SET tx_hash = $1, raw_tx = $2, submitted_at = $3
		WHERE id = $4 AND status = 'pending' AND tx_hash = $5`, id, ReplacedRefund, id, old, next)
}

// replaceTransaction runs update (the row's conditional switch to next)
// and keeps old, in one transaction.
func (s *Service) replaceTransaction(ctx context.Context, update string, id any, kind, ownerID, old string, next SignedSubmission) error {
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		res, err := tx.Exec(ctx, update, strings.ToLower(next.TxHash), next.RawTx, ms(s.clock.Now()), id, strings.ToLower(old))
		if err != nil {
			return fmt.Errorf("store the replacement: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrNotReplaceable
		}
		_, err = tx.Exec(ctx, `INSERT INTO replaced_transactions (tx_hash, kind, owner_id, replaced_by, created_at)
			VALUES ($1, $2, $3, $4, $5)`, strings.ToLower(old), kind, ownerID, strings.ToLower(next.TxHash), ms(s.clock.Now()))
		if err != nil {
			return fmt.Errorf("keep replaced transaction: %w", err)
		}
		return nil
	})
	return wrapErr(err, "replace "+kind+" transaction")
}

// replacedTransactions are the hashes a payment's or refund's current
// transaction replaced, oldest first.
func (s *Service) replacedTransactions(ctx context.Context, kind, ownerID string) ([]string, error) {
	rows, err := s.db.Query(ctx, `SELECT tx_hash FROM replaced_transactions WHERE kind = $1 AND owner_id = $2
		ORDER BY created_at, tx_hash`, kind, ownerID)
	if err != nil {
		return nil, fmt.Errorf("replaced transactions: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, fmt.Errorf("replaced transactions: %w", err)
		}
		out = append(out, h)
	}
	return out, wrapErr(rows.Err(), "replaced transactions")
}
