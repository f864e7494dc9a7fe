package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// Reads for the owner's pages: the charts of the bot pages and the
// processor wallet's ledger. None of them changes anything.

// CategorySpending is the approved spend of one category.
type CategorySpending struct {
	Category string // empty for purchases that named none
	Approved botpay.Money
}

// SpendingByCategory sums a bot's approved real purchases of the last days
// days (today included) per category, largest first.
func (s *Store) SpendingByCategory(ctx context.Context, botID string, days int) ([]CategorySpending, error) {
	first := botpay.DayStart(s.clock.Now()).AddDate(0, 0, -(days - 1))
	rows, err := s.query(ctx, `SELECT category, SUM(amount_cents) FROM purchases
		WHERE bot_id = $1 AND created_at >= $2 AND status = 'approved' AND NOT decoy
		GROUP BY category ORDER BY SUM(amount_cents) DESC, category`, botID, ms(first))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []CategorySpending
	for rows.Next() {
		var c CategorySpending
		if err := rows.Scan(&c.Category, &c.Approved); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ProcessorTransaction is one movement of a bot's processor wallet (USDC).
type ProcessorTransaction struct {
	ID           int64
	Type         string
	Amount       botpay.Micro
	BalanceAfter botpay.Micro
	Description  string
	CreatedAt    time.Time
}

// ProcessorTransactions lists a bot's most recent processor wallet
// movements, newest first.
func (s *Store) ProcessorTransactions(ctx context.Context, botID string, limit int) ([]ProcessorTransaction, error) {
	rows, err := s.query(ctx, `SELECT id, type, amount_micro, balance_after_micro, description, created_at
		FROM processor_ledger WHERE bot_id = $1 ORDER BY id DESC LIMIT $2`, botID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ProcessorTransaction
	for rows.Next() {
		var t ProcessorTransaction
		var created int64
		if err := rows.Scan(&t.ID, &t.Type, &t.Amount, &t.BalanceAfter, &t.Description, &created); err != nil {
			return nil, err
		}
		t.CreatedAt = fromMS(created)
		out = append(out, t)
	}
	return out, rows.Err()
}
