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
//
// The central-dispatch rule (DESIGN.md section 8) is applied here already
// when it needs no attempt: for a bot whose webhook is unreachable or none,
// or that has neither a callback URL nor a tunnel, the event is staged as a
// pending message in this transaction and its outbox row is written done
// ("staged"), so the dispatcher never claims it. Staging through the
// dispatcher cost two more writes of the outbox row and a transaction per
// batch (about a sixth of a checkout's processor time).
func (t *Tx) emit(e botpay.Event) error {
	data, err := json.Marshal(e.Data)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", e.Type, err)
	}
	at := ms(e.CreatedAt)
	// $1 event, $2 bot, $3 type, $4 data, $5 time, $6 message expiry,
	// $7 and $8 the statuses that stage, $9 the staged outcome.
	args := []any{e.ID, e.BotID, e.Type, string(data), at, at + botpay.MessageLife(e.Type).Milliseconds(),
		botpay.WebhookUnreachable, botpay.WebhookNone, outcomeStaged}
	const outbox = `INSERT INTO outbox (event_id, bot_id, event_type, data, created_at, done_at, outcome)
		SELECT $1, $2, $3, $4, CAST($5 AS BIGINT), CASE WHEN yes THEN CAST($5 AS BIGINT) END, CASE WHEN yes THEN $9 END FROM staged`
	const pending = `INSERT INTO pending_messages (bot_id, event_id, event_type, data, event_at, staged_at, expires_at)
		SELECT $2, $1, $3, $4, CAST($5 AS BIGINT), CAST($5 AS BIGINT), CAST($6 AS BIGINT) FROM staged WHERE yes ON CONFLICT (bot_id, event_id) DO NOTHING
		RETURNING 1`
	const staged = `staged AS (SELECT EXISTS (SELECT 1 FROM bots WHERE id = $2 AND (webhook_status IN ($7, $8)
		OR (COALESCE(callback_url, '') = '' AND tunnel_token_hash IS NULL))) AS yes)`
	// The pending message's row comes back when the event was staged: the
	// dispatcher is not woken for it (Store.committed).
	wasStaged, one := new(bool), new(int)
	if t.s.dialect == Postgres {
		t.atCommit(step{query: `WITH ` + staged + `, o AS (` + outbox + `) ` + pending, args: args, dest: []any{one}, found: wasStaged})
	} else { // SQLite has no INSERT inside WITH: the same rule in two statements
		t.atCommit(step{query: `WITH ` + staged + ` ` + outbox, args: args})
		t.atCommit(step{query: `WITH ` + staged + ` ` + pending, args: args, dest: []any{one}, found: wasStaged})
	}
	t.staged = append(t.staged, wasStaged)
	return nil
}

// outcomeStaged is events.OutcomeStaged (the store does not import events).
const outcomeStaged = "staged"

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
