package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNotReplaceable is a transaction another replica replaced already, or
// whose payment or refund the chain has decided.
var ErrNotReplaceable = errors.New("store: the transaction was replaced already or its outcome is recorded")

// Kinds of rows whose relayer transaction can be replaced.
const (
	ReplacedX402Payment = "x402_payment"
	ReplacedRefund      = "refund"
)

// ReplaceX402Transaction makes next, signed with the same nonce, the
// transaction of submitted payment id in place of old, and keeps old's
// hash: either may be the one mined. Only the first of concurrent
// replacements of old succeeds; the others get ErrNotReplaceable.
func (s *Store) ReplaceX402Transaction(ctx context.Context, id int64, old string, next SignedSubmission) error {
	return s.replaceTransaction(ctx, `UPDATE x402_payments SET tx_hash = $1, raw_tx = $2, submitted_at = $3
		WHERE id = $4 AND status = 'submitted' AND tx_hash = $5`, id, ReplacedX402Payment, strconv.FormatInt(id, 10), old, next)
}

// ReplaceRefundTransaction is ReplaceX402Transaction for a pending
// on-chain refund; the refund's tx_hash becomes next's.
func (s *Store) ReplaceRefundTransaction(ctx context.Context, id, old string, next SignedSubmission) error {
	return s.replaceTransaction(ctx, `UPDATE refunds SET tx_hash = $1, raw_tx = $2, submitted_at = $3
		WHERE id = $4 AND status = 'pending' AND tx_hash = $5`, id, ReplacedRefund, id, old, next)
}

// replaceTransaction runs update (the row's conditional switch to next)
// and keeps old, in one transaction.
func (s *Store) replaceTransaction(ctx context.Context, update string, id any, kind, ownerID, old string, next SignedSubmission) error {
	err := s.inTx(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, update, strings.ToLower(next.TxHash), next.RawTx, ms(s.clock.Now()), id, strings.ToLower(old))
		if err != nil {
			return fmt.Errorf("store the replacement: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrNotReplaceable
		}
		return tx.keepReplaced(ctx, kind, ownerID, old, next.TxHash)
	})
	return wrapErr(err, "replace "+kind+" transaction")
}

// keepReplaced records that old was replaced by next.
func (tx *Tx) keepReplaced(ctx context.Context, kind, ownerID, old, next string) error {
	_, err := tx.exec(ctx, `INSERT INTO replaced_transactions (tx_hash, kind, owner_id, replaced_by, created_at)
		VALUES ($1, $2, $3, $4, $5)`, strings.ToLower(old), kind, ownerID, strings.ToLower(next), ms(tx.s.clock.Now()))
	if err != nil {
		return fmt.Errorf("keep replaced transaction: %w", err)
	}
	return nil
}

// ReplacedTransactions are the hashes a payment's or refund's current
// transaction replaced, oldest first.
func (s *Store) ReplacedTransactions(ctx context.Context, kind, ownerID string) ([]string, error) {
	rows, err := s.query(ctx, `SELECT tx_hash FROM replaced_transactions WHERE kind = $1 AND owner_id = $2
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
