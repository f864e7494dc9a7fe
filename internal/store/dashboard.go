package store

import (
	"context"
	"database/sql"
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

// RecentPurchases lists a bot's most recent checkouts (declined ones
// included), newest first.
func (s *Store) RecentPurchases(ctx context.Context, botID string, limit int) ([]botpay.Purchase, error) {
	rows, err := s.query(ctx, `SELECT `+purchaseColumns+` FROM purchases WHERE bot_id = $1 ORDER BY bot_seq DESC LIMIT $2`, botID, limit)
	if err != nil {
		return nil, wrapErr(err, "recent purchases %s", botID)
	}
	defer rows.Close()
	var out []botpay.Purchase
	for rows.Next() {
		p, err := scanPurchase(rows)
		if err != nil {
			return nil, wrapErr(err, "recent purchases %s", botID)
		}
		out = append(out, p)
	}
	return out, wrapErr(rows.Err(), "recent purchases %s", botID)
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

// Rail5Cards lists a bot's rail5 cards, newest first.
func (s *Store) Rail5Cards(ctx context.Context, ownerID, botID string) ([]botpay.Rail5Card, error) {
	rows, err := s.query(ctx, `SELECT id, name, last4, status, created_at FROM rail5_cards
		WHERE owner_id = $1 AND bot_id = $2 ORDER BY seq DESC`, ownerID, botID)
	if err != nil {
		return nil, wrapErr(err, "rail5 cards %s", botID)
	}
	defer rows.Close()
	var out []botpay.Rail5Card
	for rows.Next() {
		c := botpay.Rail5Card{BotID: botID, OwnerID: ownerID}
		var created int64
		if err := rows.Scan(&c.ID, &c.Name, &c.Last4, &c.Status, &created); err != nil {
			return nil, wrapErr(err, "rail5 cards %s", botID)
		}
		c.CreatedAt = fromMS(created)
		out = append(out, c)
	}
	return out, wrapErr(rows.Err(), "rail5 cards %s", botID)
}

// RecentTasks lists a bot's most recent tasks, newest first.
func (s *Store) RecentTasks(ctx context.Context, botID string, limit int) ([]botpay.Task, error) {
	rows, err := s.query(ctx, `SELECT id, merchant_name, merchant_url, item_name, amount_cents, category, profile_index, status, created_at
		FROM tasks WHERE bot_id = $1 ORDER BY seq DESC LIMIT $2`, botID, limit)
	if err != nil {
		return nil, wrapErr(err, "recent tasks %s", botID)
	}
	defer rows.Close()
	var out []botpay.Task
	for rows.Next() {
		t := botpay.Task{BotID: botID}
		var profile sql.NullInt64
		var created int64
		if err := rows.Scan(&t.ID, &t.MerchantName, &t.MerchantURL, &t.ItemName, &t.Amount, &t.Category, &profile, &t.Status, &created); err != nil {
			return nil, wrapErr(err, "recent tasks %s", botID)
		}
		if profile.Valid {
			n := int(profile.Int64)
			t.ProfileIndex = &n
		}
		t.CreatedAt = fromMS(created)
		out = append(out, t)
	}
	return out, wrapErr(rows.Err(), "recent tasks %s", botID)
}
