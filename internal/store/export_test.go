package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/kernel"

	"github.com/botpay/botpay/internal/botpay"
)

// RenumberCheckoutsAsMigration0008 (tests only) forgets every checkout
// number, then runs migration 0008's backfill statements again, as they ran
// on a database that had checkouts before the numbering existed.
func (s *Store) RenumberCheckoutsAsMigration0008(ctx context.Context) error {
	body, err := kernel.MigrationFile(s.Dialect(), "0008_checkout_sequence.sql")
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *Tx) error {
		for _, q := range []string{`UPDATE purchases SET bot_seq = NULL`, `UPDATE rail5_checkouts SET bot_seq = NULL`,
			`UPDATE wallets SET checkout_seq = 0`} {
			if _, err := tx.exec(ctx, q); err != nil {
				return err
			}
		}
		for _, q := range strings.Split(string(body), ";\n") {
			if q = strings.TrimSpace(q); strings.HasPrefix(q, "WITH") || strings.HasPrefix(q, "UPDATE") {
				if _, err := tx.exec(ctx, q); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// CheckoutNumbers (tests only) lists a bot's checkouts (card and rail5) by
// number with their times, and the wallet's last number.
func (s *Store) CheckoutNumbers(ctx context.Context, botID string) (numbers []int64, times []int64, last int64, err error) {
	rows, err := s.query(ctx, `SELECT bot_seq, created_at FROM (
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
	err = s.queryRow(ctx, `SELECT checkout_seq FROM wallets WHERE bot_id = $1`, botID).Scan(&last)
	return numbers, times, last, err
}

// LiveReservations (tests only) sums a bot's reservations the plain way:
// every signed or held signing request whose reservation runs past now.
func (s *Store) LiveReservations(ctx context.Context, botID string, now time.Time) (botpay.Micro, error) {
	var sum botpay.Micro
	// Worked out from each request's own terms, not from reserved_until: a
	// signature counts while settlement accepts it, a held request while
	// its approval window is open.
	err := s.queryRow(ctx, `SELECT COALESCE(SUM(amount_micro), 0) FROM signing_requests
		WHERE bot_id = $1 AND ((status = 'signed' AND valid_before * 1000 + $3 > $2) OR (status = 'pending' AND expires_at > $2))`,
		botID, ms(now), botpay.SettlementTolerance.Milliseconds()).Scan(&sum)
	return sum, err
}

// RerunReservedBackfill (tests only) forgets every processor wallet's
// running reserved total, then runs migration 0010's backfill again, as it
// ran on a database whose wallets had signing requests before the total
// existed.
func (s *Store) RerunReservedBackfill(ctx context.Context) error {
	body, err := kernel.MigrationFile(s.Dialect(), "0010_reserved_total.sql")
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec(ctx, `UPDATE processor_wallets SET reserved_micro = 0, reserved_as_of = 0`); err != nil {
			return err
		}
		ran := 0
		for _, q := range strings.Split(string(body), ";\n") {
			if q = strings.TrimSpace(q); strings.HasPrefix(q, "UPDATE") {
				if _, err := tx.exec(ctx, q); err != nil {
					return err
				}
				ran++
			}
		}
		if ran != 1 {
			return fmt.Errorf("migration 0010 has %d backfill statements, want 1", ran)
		}
		return nil
	})
}

// HoldWriteGate (tests only) takes every turn of the write gate, as that
// many running transactions would, until release.
func (s *Store) HoldWriteGate() (release func()) { return s.db.HoldWriteGate() }

// IdempotencyKeyCount (tests only) counts the stored idempotency keys of a
// scope.
func (s *Store) IdempotencyKeyCount(ctx context.Context, scope string) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM idempotency_keys WHERE scope = $1`, scope).Scan(&n)
	return n, err
}

// PGMigrationLock (tests only) is the statement a replica runs to take the
// migration lock, so a test can hold it as a migrating replica would.
const PGMigrationLock = kernel.PGMigrationLock
