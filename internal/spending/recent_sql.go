package spending

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// readAll runs a read of the read pool and scans every row.
func readAll[T any](ctx context.Context, db *kernel.DB, scan func(kernel.Scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (s *Service) recentPurchases(ctx context.Context, botID string, limit int) ([]botpay.Purchase, error) {
	out, err := readAll(ctx, s.db, scanPurchase,
		`SELECT `+purchaseColumns+` FROM purchases WHERE bot_id = $1 ORDER BY bot_seq DESC LIMIT $2`, botID, limit)
	return out, wrapErr(err, "recent purchases %s", botID)
}

func (s *Service) recentTasks(ctx context.Context, botID string, limit int) ([]botpay.Task, error) {
	out, err := readAll(ctx, s.db, func(row kernel.Scanner) (botpay.Task, error) {
		t := botpay.Task{BotID: botID}
		var profile sql.NullInt64
		var created int64
		if err := row.Scan(&t.ID, &t.MerchantName, &t.MerchantURL, &t.ItemName, &t.Amount, &t.Category, &profile, &t.Status, &created); err != nil {
			return t, err
		}
		if profile.Valid {
			n := int(profile.Int64)
			t.ProfileIndex = &n
		}
		t.CreatedAt = fromMS(created)
		return t, nil
	}, `SELECT id, merchant_name, merchant_url, item_name, amount_cents, category, profile_index, status, created_at
		FROM tasks WHERE bot_id = $1 ORDER BY seq DESC LIMIT $2`, botID, limit)
	return out, wrapErr(err, "recent tasks %s", botID)
}

func (s *Service) rail5Cards(ctx context.Context, ownerID, botID string) ([]botpay.Rail5Card, error) {
	out, err := readAll(ctx, s.db, func(row kernel.Scanner) (botpay.Rail5Card, error) {
		c := botpay.Rail5Card{BotID: botID, OwnerID: ownerID}
		var created int64
		err := row.Scan(&c.ID, &c.Name, &c.Last4, &c.Status, &created)
		c.CreatedAt = fromMS(created)
		return c, err
	}, `SELECT id, name, last4, status, created_at FROM rail5_cards
		WHERE owner_id = $1 AND bot_id = $2 ORDER BY seq DESC`, ownerID, botID)
	return out, wrapErr(err, "rail5 cards %s", botID)
}

func (s *Service) spendingByCategory(ctx context.Context, botID string, days int) ([]CategorySpending, error) {
	first := botpay.DayStart(s.clock.Now()).AddDate(0, 0, -(days - 1))
	out, err := readAll(ctx, s.db, func(row kernel.Scanner) (CategorySpending, error) {
		var c CategorySpending
		return c, row.Scan(&c.Category, &c.Approved)
	}, `SELECT category, SUM(amount_cents) FROM purchases
		WHERE bot_id = $1 AND created_at >= $2 AND status = 'approved' AND NOT decoy
		GROUP BY category ORDER BY SUM(amount_cents) DESC, category`, botID, ms(first))
	return out, wrapErr(err, "spending by category %s", botID)
}
