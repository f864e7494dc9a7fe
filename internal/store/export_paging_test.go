package store

import (
	"context"
	"fmt"
)

// SeedLedger (tests and benchmarks only) adds n ledger rows to a bot in
// one statement (dialect.series). Ids follow insertion as for real rows.
func (s *Store) SeedLedger(ctx context.Context, botID string, n int) error {
	series := s.db.Driver().Seeding().Series(n)
	return s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO ledger (bot_id, type, amount_cents, balance_after_cents, description, created_at)
			SELECT $1, 'fund', 100, 100 * g.i, 'seed', 1795000000000 + g.i`+series, botID)
		if err != nil {
			return fmt.Errorf("seed ledger: %w", err)
		}
		return nil
	})
}

// OldestLedgerID (benchmarks only) is the smallest ledger id of a bot.
func (s *Store) OldestLedgerID(ctx context.Context, botID string) (int64, error) {
	var id int64
	err := s.queryRow(ctx, `SELECT MIN(id) FROM ledger WHERE bot_id = $1`, botID).Scan(&id)
	return id, err
}

// TransactionsAtOffset (benchmarks only) reads a page the way lists did
// not page before cursors, with OFFSET, for comparison.
func (s *Store) TransactionsAtOffset(ctx context.Context, botID string, offset, limit int) (int, error) {
	rows, err := s.query(ctx, `SELECT id, type, amount_cents, balance_after_cents, description, created_at
		FROM ledger WHERE bot_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, botID, limit, offset)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}
