package store

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/kernel"
)

// RenumberCheckoutsAsMigration0008 (tests only) forgets every checkout
// number, then runs migration 0008's backfill statements again, as they ran
// on a database that had checkouts before the numbering existed.
func (s *Store) RenumberCheckoutsAsMigration0008(ctx context.Context) error {
	return s.rerunBackfill(ctx, "0008_checkout_sequence.sql", []string{`UPDATE purchases SET bot_seq = NULL`,
		`UPDATE rail5_checkouts SET bot_seq = NULL`, `UPDATE wallets SET checkout_seq = 0`}, "WITH", "UPDATE")
}

// RecountMonthSpendAsMigration0095 (tests only) forgets every wallet's
// spend of the month, then runs migration 0095's backfill statements
// again, as they ran on a database whose spends were only in the ledger.
func (s *Store) RecountMonthSpendAsMigration0095(ctx context.Context) error {
	return s.rerunBackfill(ctx, "0095_wallet_month_spend.sql", []string{`UPDATE wallets SET month_spent_cents = 0, spent_month = 0`}, "UPDATE")
}

// rerunBackfill runs the forget statements, then the statements of the
// migration named that start with one of kinds, in one transaction.
func (s *Store) rerunBackfill(ctx context.Context, migration string, forget []string, kinds ...string) error {
	body, err := kernel.MigrationFile(s.Dialect(), migration)
	if err != nil {
		return err
	}
	var backfill []string
	for _, q := range strings.Split(string(body), ";\n") {
		q = strings.TrimSpace(q)
		for _, kind := range kinds {
			if strings.HasPrefix(q, kind) {
				backfill = append(backfill, q)
				break
			}
		}
	}
	return s.db.InTx(ctx, func(tx *kernel.Tx) error {
		for _, q := range append(forget, backfill...) {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

// CheckoutNumbers (tests only) lists a bot's checkouts (card and rail5) by
// number with their times, and the wallet's last number.
func (s *Store) CheckoutNumbers(ctx context.Context, botID string) (numbers []int64, times []int64, last int64, err error) {
	rows, err := s.db.Query(ctx, `SELECT bot_seq, created_at FROM (
			SELECT bot_seq, created_at, id FROM purchases WHERE bot_id = $1
			UNION ALL SELECT bot_seq, created_at, id FROM rail5_checkouts WHERE bot_id = $1) c ORDER BY created_at, id`, botID)
	if err != nil {
		return nil, nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var n, at int64
		if err := rows.Scan(&n, &at); err != nil {
			return nil, nil, 0, err
		}
		numbers, times = append(numbers, n), append(times, at)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, 0, err
	}
	err = s.db.QueryRow(ctx, `SELECT checkout_seq FROM wallets WHERE bot_id = $1`, botID).Scan(&last)
	return numbers, times, last, err
}

// HoldWriteGate (tests only) takes every turn of the write gate, as that
// many running transactions would, until release.
func (s *Store) HoldWriteGate() (release func()) { return s.db.HoldWriteGate() }

// PGMigrationLock (tests only) is the statement a replica runs to take the
// migration lock, so a test can hold it as a migrating replica would.
const PGMigrationLock = kernel.PGMigrationLock
