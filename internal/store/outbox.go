package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/botpay/botpay/internal/botpay"
)

// emit writes an event to the outbox inside the caller's transaction, so the
// event exists exactly when the change that caused it does. The insert
// runs just before COMMIT (atCommit: on PostgreSQL in the same round trip),
// so events keep the order in which they were emitted.
func (t *Tx) emit(e botpay.Event) error {
	data, err := json.Marshal(e.Data)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", e.Type, err)
	}
	t.atCommit(step{query: `INSERT INTO outbox (event_id, bot_id, event_type, data, created_at) VALUES ($1, $2, $3, $4, $5)`,
		args: []any{e.ID, e.BotID, e.Type, string(data), ms(e.CreatedAt)}})
	t.emitted = true
	return nil
}

// Events lists a bot's outbox entries, oldest first (for the dispatcher and
// for tests that prove each change wrote its event).
func (s *Store) Events(ctx context.Context, botID string) ([]botpay.Event, error) {
	rows, err := s.query(ctx, `SELECT event_id, event_type, data, created_at FROM outbox WHERE bot_id = $1 ORDER BY id`, botID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []botpay.Event
	for rows.Next() {
		e := botpay.Event{BotID: botID}
		var data string
		var at int64
		if err := rows.Scan(&e.ID, &e.Type, &data, &at); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(data), &e.Data); err != nil {
			return nil, err
		}
		e.CreatedAt = fromMS(at)
		out = append(out, e)
	}
	return out, rows.Err()
}
