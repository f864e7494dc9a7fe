package notifications

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// stage copies an event into the bot's pending messages. Staging the same
// event twice keeps the first copy (and its acknowledgement), so retries and
// redeliveries never duplicate a message.
func stage(ctx context.Context, t *kernel.Tx, m botpay.PendingMessage) error {
	_, err := t.Exec(ctx, `INSERT INTO pending_messages (bot_id, event_id, event_type, data, event_at, staged_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (bot_id, event_id) DO NOTHING`,
		m.BotID, m.EventID, m.Event, string(m.Data), ms(m.EventAt), ms(m.StagedAt), ms(m.ExpiresAt))
	return err
}

// pendingMessages pages through a bot's unacknowledged, unexpired
// messages in staging order (the message id), oldest first. Staging order
// rather than event time: a keyset on event time would skip a message
// staged late for an early event while the bot pages. Expiry is enforced
// here, not only by the purge, so an expired message is never handed out.
func (s *Service) pendingMessages(ctx context.Context, botID string, page botpay.PageRequest) (botpay.Page[botpay.PendingMessage], error) {
	q, args := kernel.Keyset(`SELECT id, event_id, event_type, data, event_at, staged_at, expires_at, id FROM pending_messages
		WHERE bot_id = $1 AND acked_at IS NULL AND expires_at > $2`, []any{botID, ms(s.db.Clock().Now())}, "id", kernel.OldestFirst, page)
	v, err := kernel.ReadPage(ctx, s.db, q, args, page.Limit, func(row kernel.Scanner) (botpay.PendingMessage, error) {
		m := botpay.PendingMessage{BotID: botID}
		var data string
		var eventAt, stagedAt, expiresAt int64
		if err := row.Scan(&m.ID, &m.EventID, &m.Event, &data, &eventAt, &stagedAt, &expiresAt); err != nil {
			return m, err
		}
		m.Data = json.RawMessage(data)
		m.EventAt, m.StagedAt, m.ExpiresAt = fromMS(eventAt), fromMS(stagedAt), fromMS(expiresAt)
		return m, nil
	})
	if err != nil {
		return v, fmt.Errorf("notifications: pending messages %s: %w", botID, err)
	}
	return v, nil
}

// ackMessages acknowledges the bot's messages among ids. A message already
// acknowledged counts as acknowledged again (a retried ack is harmless);
// ids that are unknown, another bot's, or expired are returned as notFound.
func (s *Service) ackMessages(ctx context.Context, botID string, ids []int64) (acked, notFound []int64, err error) {
	now := ms(s.db.Clock().Now())
	acked, notFound = []int64{}, []int64{}
	err = s.db.InTx(ctx, func(tx *kernel.Tx) error {
		acked, notFound = acked[:0], notFound[:0]
		for _, id := range ids {
			res, err := tx.Exec(ctx, `UPDATE pending_messages SET acked_at = COALESCE(acked_at, $1)
				WHERE id = $2 AND bot_id = $3 AND expires_at > $1`, now, id, botID)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n > 0 {
				acked = append(acked, id)
			} else {
				notFound = append(notFound, id)
			}
		}
		return nil
	})
	return acked, notFound, wrapErr(err, "ack messages %s", botID)
}

// PendingMessageCount counts the bot's staged, unacknowledged, unexpired
// messages (the bot's status shows it).
func (s *Service) PendingMessageCount(ctx context.Context, botID string) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM pending_messages WHERE bot_id = $1 AND acked_at IS NULL AND expires_at > $2`,
		botID, ms(s.db.Clock().Now())).Scan(&n)
	return n, wrapErr(err, "pending message count %s", botID)
}
