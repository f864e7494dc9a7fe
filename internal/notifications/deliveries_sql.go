package notifications

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/botpay/botpay/internal/botpay"
)

// RecentDeliveries lists a bot's most recent outbox events, newest first,
// with when the bot acknowledged the pending message of a staged one.
func (s *Service) RecentDeliveries(ctx context.Context, botID string, limit int) ([]botpay.DeliveryRecord, error) {
	rows, err := s.db.Query(ctx, `SELECT o.event_id, o.event_type, o.attempts, o.done_at, o.outcome, o.created_at, m.acked_at
		FROM outbox o LEFT JOIN pending_messages m ON m.bot_id = o.bot_id AND m.event_id = o.event_id
		WHERE o.bot_id = $1 ORDER BY o.id DESC LIMIT $2`, botID, limit)
	if err != nil {
		return nil, deliveriesErr(err, botID)
	}
	defer rows.Close()
	var out []botpay.DeliveryRecord
	for rows.Next() {
		var d botpay.DeliveryRecord
		var done, acked sql.NullInt64
		var outcome sql.NullString
		var created int64
		if err := rows.Scan(&d.EventID, &d.EventType, &d.Attempts, &done, &outcome, &created, &acked); err != nil {
			return nil, deliveriesErr(err, botID)
		}
		d.Done, d.Outcome, d.CreatedAt = done.Valid, outcome.String, fromMS(created)
		if acked.Valid {
			d.AckedAt = fromMS(acked.Int64)
		}
		out = append(out, d)
	}
	return out, deliveriesErr(rows.Err(), botID)
}

func deliveriesErr(err error, botID string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("notifications: recent deliveries %s: %w", botID, err)
}
