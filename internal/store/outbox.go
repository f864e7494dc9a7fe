package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
)

// emit writes an event to the outbox inside the caller's transaction
// (ledger.Outbox.Emit).
func (t *Tx) emit(e botpay.Event) error { return t.s.outbox.Emit(t.k, e) }

// Events lists a bot's outbox entries, oldest first (for tests that prove
// each change wrote its event, and tools). An event staged at emit keeps
// its payload only in its pending message, so the data is read there; it
// is nil once that message was purged.
func (s *Store) Events(ctx context.Context, botID string) ([]botpay.Event, error) {
	rows, err := s.query(ctx, `SELECT o.event_id, o.event_type, COALESCE(o.data, m.data), o.created_at
		FROM outbox o LEFT JOIN pending_messages m ON o.data IS NULL AND m.bot_id = o.bot_id AND m.event_id = o.event_id
		WHERE o.bot_id = $1 ORDER BY o.id`, botID)
	if err != nil {
		return nil, wrapErr(err, "events %s", botID)
	}
	defer rows.Close()
	var out []botpay.Event
	for rows.Next() {
		e := botpay.Event{BotID: botID}
		var data sql.NullString
		var at int64
		if err := rows.Scan(&e.ID, &e.Type, &data, &at); err != nil {
			return nil, wrapErr(err, "events %s", botID)
		}
		if data.Valid {
			if err := json.Unmarshal([]byte(data.String), &e.Data); err != nil {
				return nil, wrapErr(err, "events %s", botID)
			}
		}
		e.CreatedAt = fromMS(at)
		out = append(out, e)
	}
	return out, wrapErr(rows.Err(), "events %s", botID)
}

// OutboxState is one outbox row's delivery bookkeeping, for tests and
// operators.
type OutboxState struct {
	EventID  string
	Attempts int
	Done     bool
	Outcome  string
}

// OutboxStates lists every outbox row of a bot, oldest first.
func (s *Store) OutboxStates(ctx context.Context, botID string) ([]OutboxState, error) {
	rows, err := s.query(ctx, `SELECT event_id, attempts, done_at, outcome FROM outbox WHERE bot_id = $1 ORDER BY id`, botID)
	if err != nil {
		return nil, wrapErr(err, "outbox states %s", botID)
	}
	defer rows.Close()
	var out []OutboxState
	for rows.Next() {
		var o OutboxState
		var done sql.NullInt64
		var outcome sql.NullString
		if err := rows.Scan(&o.EventID, &o.Attempts, &done, &outcome); err != nil {
			return nil, wrapErr(err, "outbox states %s", botID)
		}
		o.Done, o.Outcome = done.Valid, outcome.String
		out = append(out, o)
	}
	return out, wrapErr(rows.Err(), "outbox states %s", botID)
}

// UndeliveredCount counts outbox rows not yet done (for tests and metrics).
func (s *Store) UndeliveredCount(ctx context.Context) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM outbox WHERE done_at IS NULL`).Scan(&n)
	return n, wrapErr(err, "undelivered count")
}
