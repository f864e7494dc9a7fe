package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// emit writes an event to the outbox inside the caller's transaction, so the
// event exists exactly when the change that caused it does. The insert
// runs just before COMMIT (atCommit: on PostgreSQL in the same round trip),
// so events keep the order in which they were emitted.
//
// The central-dispatch rule (docs/decisions.md) is applied here already
// when it needs no attempt: for a bot whose webhook is unreachable or none,
// or that has neither a callback URL nor a tunnel, the event is staged as a
// pending message in this transaction and its outbox row is written done
// ("staged"), so the dispatcher never claims it. Staging through the
// dispatcher cost two more writes of the outbox row and a transaction per
// batch (about a sixth of a checkout's processor time).
func (t *Tx) emit(e botpay.Event) error {
	w, err := writeEvent(e, 1)
	if err != nil {
		return err
	}
	// The pending message's row comes back when the event was staged: the
	// dispatcher is not woken for it (Store.committed).
	wasStaged, one := new(bool), new(int)
	if t.s.dialect.insertInsideWith {
		t.atCommit(step{query: `WITH ` + w.staged + `, o AS (` + w.outbox + `) ` + w.pending, args: w.args, dest: []any{one}, found: wasStaged})
	} else { // SQLite has no INSERT inside WITH: the same rule in two statements
		t.atCommit(step{query: `WITH ` + w.staged + ` ` + w.outbox, args: w.args})
		t.atCommit(step{query: `WITH ` + w.staged + ` ` + w.pending, args: w.args, dest: []any{one}, found: wasStaged})
	}
	t.staged = append(t.staged, func() bool { return *wasStaged })
	return nil
}

// eventWrite is the SQL that writes one event (emit): the staged CTE, which
// applies the central-dispatch rule, the outbox insert and the
// pending-message insert (which returns a row when the event was staged),
// with placeholders numbered from the first given to writeEvent, so that a
// caller can put them in a statement of its own (recordApprovedInOne).
type eventWrite struct {
	staged, outbox, pending string
	args                    []any
}

func writeEvent(e botpay.Event, first int) (eventWrite, error) {
	if e.Payload == nil || e.Payload.EventType() != e.Type {
		return eventWrite{}, fmt.Errorf("encode %s event: no typed data of its type", e.Type)
	}
	data, err := json.Marshal(e.Payload)
	if err != nil {
		return eventWrite{}, fmt.Errorf("encode %s event: %w", e.Type, err)
	}
	at := ms(e.CreatedAt)
	// $e1 event, $e2 bot, $e3 type, $e4 data, $e5 time, $e6 message expiry,
	// $e7 and $e8 the statuses that stage, $e9 the staged outcome.
	args := []any{e.ID, e.BotID, e.Type, string(data), at, at + botpay.MessageLife(e.Type).Milliseconds(),
		botpay.WebhookUnreachable, botpay.WebhookNone, outcomeStaged}
	var pairs []string
	for i := 9; i >= 1; i-- {
		pairs = append(pairs, "$e"+strconv.Itoa(i), "$"+strconv.Itoa(first+i-1))
	}
	number := strings.NewReplacer(pairs...).Replace
	return eventWrite{
		staged: number(`staged AS (SELECT EXISTS (SELECT 1 FROM bots WHERE id = $e2 AND (webhook_status IN ($e7, $e8)
		OR (COALESCE(callback_url, '') = '' AND tunnel_token_hash IS NULL))) AS yes)`),
		outbox: number(`INSERT INTO outbox (event_id, bot_id, event_type, data, created_at, done_at, outcome)
		SELECT $e1, $e2, $e3, $e4, CAST($e5 AS BIGINT), CASE WHEN yes THEN CAST($e5 AS BIGINT) END, CASE WHEN yes THEN $e9 END FROM staged`),
		pending: number(`INSERT INTO pending_messages (bot_id, event_id, event_type, data, event_at, staged_at, expires_at)
		SELECT $e2, $e1, $e3, $e4, CAST($e5 AS BIGINT), CAST($e5 AS BIGINT), CAST($e6 AS BIGINT) FROM staged WHERE yes
		ON CONFLICT (bot_id, event_id) DO NOTHING RETURNING 1`),
		args: args,
	}, nil
}

// outcomeStaged is events.OutcomeStaged (the store does not import events).
const outcomeStaged = "staged"

// Events lists a bot's outbox entries, oldest first (for the dispatcher and
// for tests that prove each change wrote its event).
func (s *Store) Events(ctx context.Context, botID string) ([]botpay.Event, error) {
	rows, err := s.query(ctx, `SELECT event_id, event_type, data, created_at FROM outbox WHERE bot_id = $1 ORDER BY id`, botID)
	if err != nil {
		return nil, wrapErr(err, "events %s", botID)
	}
	defer rows.Close()
	var out []botpay.Event
	for rows.Next() {
		e := botpay.Event{BotID: botID}
		var data string
		var at int64
		if err := rows.Scan(&e.ID, &e.Type, &data, &at); err != nil {
			return nil, wrapErr(err, "events %s", botID)
		}
		if err := json.Unmarshal([]byte(data), &e.Data); err != nil {
			return nil, wrapErr(err, "events %s", botID)
		}
		e.CreatedAt = fromMS(at)
		out = append(out, e)
	}
	return out, wrapErr(rows.Err(), "events %s", botID)
}
