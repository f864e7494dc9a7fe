package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// Reads for the owner dashboard. None of them changes anything.

// TopupRequests lists a bot's most recent top-up requests, newest first.
func (s *Store) TopupRequests(ctx context.Context, botID string, limit int) ([]botpay.TopupRequest, error) {
	rows, err := s.query(ctx, `SELECT id, amount_cents, reason, status, owner_notified, created_at FROM topup_requests
		WHERE bot_id = $1 ORDER BY id DESC LIMIT $2`, botID, limit)
	if err != nil {
		return nil, wrapErr(err, "topup requests %s", botID)
	}
	defer rows.Close()
	var out []botpay.TopupRequest
	for rows.Next() {
		r := botpay.TopupRequest{BotID: botID}
		var created int64
		if err := rows.Scan(&r.ID, &r.Amount, &r.Reason, &r.Status, &r.OwnerNotified, &created); err != nil {
			return nil, wrapErr(err, "topup requests %s", botID)
		}
		r.CreatedAt = fromMS(created)
		out = append(out, r)
	}
	return out, wrapErr(rows.Err(), "topup requests %s", botID)
}

// SpendingByDay sums a bot's checkouts per UTC day over the last days days
// (today included), oldest first, one entry per day.
func (s *Store) SpendingByDay(ctx context.Context, botID string, days int) ([]botpay.DaySpending, error) {
	today := botpay.DayStart(s.clock.Now())
	first := today.AddDate(0, 0, -(days - 1))
	out := make([]botpay.DaySpending, days)
	for i := range out {
		out[i].Day = first.AddDate(0, 0, i)
	}
	rows, err := s.query(ctx, `SELECT status, amount_cents, created_at FROM purchases
		WHERE bot_id = $1 AND created_at >= $2 AND status IN ('approved', 'declined', 'denied')`, botID, ms(first))
	if err != nil {
		return nil, wrapErr(err, "spending by day %s", botID)
	}
	defer rows.Close()
	for rows.Next() {
		var status string
		var amount botpay.Money
		var created int64
		if err := rows.Scan(&status, &amount, &created); err != nil {
			return nil, wrapErr(err, "spending by day %s", botID)
		}
		i := int(fromMS(created).Sub(first) / (24 * time.Hour))
		if i < 0 || i >= days {
			continue
		}
		if status == botpay.PurchaseApproved {
			out[i].Approved += amount
		} else {
			out[i].Declined += amount
		}
	}
	return out, wrapErr(rows.Err(), "spending by day %s", botID)
}
