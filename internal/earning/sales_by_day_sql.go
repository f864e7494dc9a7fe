package earning

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// SalesByDay sums a bot's confirmed sales per UTC day over the last days
// days (today included), oldest first, one entry per day.
func (s *Service) SalesByDay(ctx context.Context, botID string, days int) ([]botpay.DayAmount, error) {
	first := botpay.DayStart(s.clock.Now()).AddDate(0, 0, -(days - 1))
	out := make([]botpay.DayAmount, days)
	for i := range out {
		out[i].Day = first.AddDate(0, 0, i)
	}
	rows, err := s.db.Query(ctx, `SELECT amount_cents, created_at FROM sales
		WHERE bot_id = $1 AND created_at >= $2 AND status = $3`, botID, ms(first), botpay.SaleConfirmed)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var amount botpay.Money
		var created int64
		if err := rows.Scan(&amount, &created); err != nil {
			return nil, err
		}
		if i := int(fromMS(created).Sub(first) / (24 * time.Hour)); i >= 0 && i < days {
			out[i].Amount += amount
		}
	}
	return out, rows.Err()
}
