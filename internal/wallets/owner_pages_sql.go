package wallets

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// Reads of the wallet for the owner's dashboard. None of them changes
// anything.

// TopupRequests lists a bot's most recent top-up requests, newest first.
func (s *Service) TopupRequests(ctx context.Context, botID string, limit int) ([]botpay.TopupRequest, error) {
	rows, err := s.db.Query(ctx, `SELECT id, amount_cents, reason, status, owner_notified, created_at FROM topup_requests
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
func (s *Service) SpendingByDay(ctx context.Context, botID string, days int) ([]botpay.DaySpending, error) {
	today := botpay.DayStart(s.clock.Now())
	first := today.AddDate(0, 0, -(days - 1))
	out := make([]botpay.DaySpending, days)
	for i := range out {
		out[i].Day = first.AddDate(0, 0, i)
	}
	rows, err := s.db.Query(ctx, `SELECT status, amount_cents, created_at FROM purchases
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

// LowBalanceThresholds maps each claimed bot of the owner to its
// low-balance threshold.
func (s *Service) LowBalanceThresholds(ctx context.Context, ownerID string) (map[string]botpay.Money, error) {
	rows, err := s.db.Query(ctx, `SELECT w.bot_id, w.low_balance_cents FROM wallets w JOIN bots b ON b.id = w.bot_id
		WHERE b.owner_id = $1`, ownerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]botpay.Money{}
	for rows.Next() {
		var id string
		var low botpay.Money
		if err := rows.Scan(&id, &low); err != nil {
			return nil, err
		}
		out[id] = low
	}
	return out, rows.Err()
}
