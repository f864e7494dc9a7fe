package notifications

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// OutboxReader reads the outbox as it stands: for the tests that prove each
// change wrote its event, for tools, and for the operator's metrics
// (ops_stats_sql.go). It changes nothing.
type OutboxReader struct{ db *kernel.DB }

// NewOutboxReader reads db's outbox.
func NewOutboxReader(db *kernel.DB) *OutboxReader { return &OutboxReader{db: db} }

// Events lists a bot's outbox entries, oldest first. An event staged at
// emit keeps its payload only in its pending message, so the data is read
// there; it is nil once that message was purged.
func (r *OutboxReader) Events(ctx context.Context, botID string) ([]botpay.Event, error) {
	rows, err := r.db.Query(ctx, `SELECT o.event_id, o.event_type, COALESCE(o.data, m.data), o.created_at
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
func (r *OutboxReader) OutboxStates(ctx context.Context, botID string) ([]OutboxState, error) {
	rows, err := r.db.Query(ctx, `SELECT event_id, attempts, done_at, outcome FROM outbox WHERE bot_id = $1 ORDER BY id`, botID)
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
func (r *OutboxReader) UndeliveredCount(ctx context.Context) (int, error) {
	var n int
	err := r.db.QueryRow(ctx, `SELECT COUNT(*) FROM outbox WHERE done_at IS NULL`).Scan(&n)
	return n, wrapErr(err, "undelivered count")
}
