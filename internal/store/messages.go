package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// stage copies an event into the bot's pending messages. Staging the same
// event twice keeps the first copy (and its acknowledgement), so retries and
// redeliveries never duplicate a message.
func (t *Tx) stage(ctx context.Context, m botpay.PendingMessage) error {
	_, err := t.exec(ctx, `INSERT INTO pending_messages (bot_id, event_id, event_type, data, event_at, staged_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (bot_id, event_id) DO NOTHING`,
		m.BotID, m.EventID, m.Event, string(m.Data), ms(m.EventAt), ms(m.StagedAt), ms(m.ExpiresAt))
	return err
}

// PendingMessages lists a bot's unacknowledged, unexpired messages, oldest
// event first (staging order can differ by a few milliseconds), at most
// limit of them. Expiry is enforced here, not only by the purge, so an
// expired message is never handed out.
func (s *Store) PendingMessages(ctx context.Context, botID string, limit int) ([]botpay.PendingMessage, error) {
	rows, err := s.query(ctx, `SELECT id, event_id, event_type, data, event_at, staged_at, expires_at FROM pending_messages
		WHERE bot_id = $1 AND acked_at IS NULL AND expires_at > $2 ORDER BY event_at, id LIMIT $3`, botID, ms(s.clock.Now()), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []botpay.PendingMessage{}
	for rows.Next() {
		m := botpay.PendingMessage{BotID: botID}
		var data string
		var eventAt, stagedAt, expiresAt int64
		if err := rows.Scan(&m.ID, &m.EventID, &m.Event, &data, &eventAt, &stagedAt, &expiresAt); err != nil {
			return nil, err
		}
		m.Data = json.RawMessage(data)
		m.EventAt, m.StagedAt, m.ExpiresAt = fromMS(eventAt), fromMS(stagedAt), fromMS(expiresAt)
		out = append(out, m)
	}
	return out, rows.Err()
}

// AckMessages acknowledges the bot's messages among ids. A message already
// acknowledged counts as acknowledged again (a retried ack is harmless);
// ids that are unknown, another bot's, or expired are returned as notFound.
func (s *Store) AckMessages(ctx context.Context, botID string, ids []int64) (acked, notFound []int64, err error) {
	now := ms(s.clock.Now())
	acked, notFound = []int64{}, []int64{}
	err = s.inTx(ctx, func(tx *Tx) error {
		acked, notFound = acked[:0], notFound[:0]
		for _, id := range ids {
			res, err := tx.exec(ctx, `UPDATE pending_messages SET acked_at = COALESCE(acked_at, $1)
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
	return acked, notFound, err
}

// PurgeMessages deletes expired messages and those acknowledged more than
// ackedFor ago, plus finished outbox rows older than outboxFor. It returns
// how many messages went.
func (s *Store) PurgeMessages(ctx context.Context, ackedFor, outboxFor time.Duration) (int64, error) {
	now := s.clock.Now()
	var n int64
	err := s.inTx(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `DELETE FROM pending_messages WHERE expires_at <= $1 OR acked_at <= $2`,
			ms(now), ms(now.Add(-ackedFor)))
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		_, err = tx.exec(ctx, `DELETE FROM outbox WHERE done_at <= $1`, ms(now.Add(-outboxFor)))
		if err != nil {
			return err
		}
		_, err = tx.exec(ctx, `DELETE FROM tunnel_requests WHERE expires_at <= $1`, ms(now.Add(-time.Hour)))
		return err
	})
	return n, err
}

// StoredMessageCount counts every pending-message row of a bot, expired and
// acknowledged ones included (to see what the purge removed).
func (s *Store) StoredMessageCount(ctx context.Context, botID string) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM pending_messages WHERE bot_id = $1`, botID).Scan(&n)
	return n, err
}
