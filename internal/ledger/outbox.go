package ledger

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Outbox writes events in the transaction of their change and, after the
// commit, wakes the local dispatcher when one of them is waiting for
// delivery (other replicas poll).
type Outbox struct{ wake atomic.Pointer[func()] }

// OnEvent sets what wakes the local dispatcher.
func (o *Outbox) OnEvent(f func()) { o.wake.Store(&f) }

// eventsOfTx is the key of a transaction's note of the events it wrote.
type eventsOfTx struct{ o *Outbox }

// NoteEvent records an event the transaction wrote; staged, known once its
// statement has run, says whether it was staged at once as a pending
// message. After the commit the dispatcher is woken once if any was not.
func (o *Outbox) NoteEvent(tx *kernel.Tx, staged func() bool) {
	noted := tx.Local(eventsOfTx{o}, func() any {
		var all []func() bool
		p := &all
		tx.AfterCommit(func() { o.wakeUnlessStaged(*p) })
		return p
	}).(*[]func() bool)
	*noted = append(*noted, staged)
}

func (o *Outbox) wakeUnlessStaged(noted []func() bool) {
	wake := o.wake.Load()
	if wake == nil {
		return
	}
	for _, staged := range noted {
		if !staged() {
			(*wake)()
			return
		}
	}
}

// Emit writes an event to the outbox inside the caller's transaction, so the
// event exists exactly when the change that caused it does. The insert
// runs just before COMMIT (atCommit: on PostgreSQL in the same round trip),
// so events keep the order in which they were emitted.
//
// The central-dispatch rule (botpay.AttemptsDelivery) is applied here
// already when it needs no attempt: for a bot whose webhook is unreachable
// or none, or that has neither a callback URL nor a tunnel, the event is staged as a
// pending message in this transaction and its outbox row is written done
// ("staged"), so the dispatcher never claims it. That row carries no
// payload (data is NULL): the pending message holds the one copy a reader
// needs, and the dispatcher reads the data only of rows it claims; a
// second copy cost heap and WAL on every staged event. Staging through
// the dispatcher cost two more writes of the outbox row and a transaction
// per batch (about a sixth of a checkout's processor time).
func (o *Outbox) Emit(tx *kernel.Tx, e botpay.Event) error {
	w, err := WriteEvent(e, 1)
	if err != nil {
		return err
	}
	// The pending message's row comes back when the event was staged: the
	// dispatcher is not woken for it (NoteEvent).
	wasStaged, one := new(bool), new(int)
	if tx.Driver().InsertInsideWith() {
		tx.AtCommit(kernel.Step{Query: `WITH ` + w.Staged + `, o AS (` + w.Outbox + `) ` + w.Pending, Args: w.Args, Dest: []any{one}, Found: wasStaged})
	} else { // SQLite has no INSERT inside WITH: the same rule in two statements
		tx.AtCommit(kernel.Step{Query: `WITH ` + w.Staged + ` ` + w.Outbox, Args: w.Args})
		tx.AtCommit(kernel.Step{Query: `WITH ` + w.Staged + ` ` + w.Pending, Args: w.Args, Dest: []any{one}, Found: wasStaged})
	}
	o.NoteEvent(tx, func() bool { return *wasStaged })
	return nil
}

// EventWrite is the SQL that writes one event (emit): the staged CTE, which
// applies the central-dispatch rule, the outbox insert and the
// pending-message insert (which returns a row when the event was staged),
// with placeholders numbered from the first given to WriteEvent, so that a
// caller can put them in a statement of its own (the one-statement
// checkout), then tells NoteEvent whether it was staged.
type EventWrite struct {
	Staged, Outbox, Pending string
	Args                    []any
}

// WriteEvent is the SQL that writes e, its placeholders numbered from first.
func WriteEvent(e botpay.Event, first int) (EventWrite, error) {
	if e.Payload == nil || e.Payload.EventType() != e.Type {
		return EventWrite{}, fmt.Errorf("encode %s event: no typed data of its type", e.Type)
	}
	data, err := json.Marshal(e.Payload)
	if err != nil {
		return EventWrite{}, fmt.Errorf("encode %s event: %w", e.Type, err)
	}
	at := kernel.MS(e.CreatedAt)
	// $e1 event, $e2 bot, $e3 type, $e4 data, $e5 time, $e6 message expiry,
	// $e7 the staged outcome.
	args := []any{e.ID, e.BotID, e.Type, string(data), at, at + botpay.MessageLife(e.Type).Milliseconds(), OutcomeStaged}
	w := eventStatements(first, len(args))
	w.Args = args
	return w, nil
}

// eventSQL holds WriteEvent's statements by their first placeholder, the
// only thing their text depends on: numbering them on every write cost a
// fifth of a checkout's allocations.
var eventSQL sync.Map // first placeholder → EventWrite without Args

func eventStatements(first, args int) EventWrite {
	if w, ok := eventSQL.Load(first); ok {
		return w.(EventWrite)
	}
	var pairs []string
	for i := args; i >= 1; i-- {
		pairs = append(pairs, "$e"+strconv.Itoa(i), "$"+strconv.Itoa(first+i-1))
	}
	number := strings.NewReplacer(pairs...).Replace
	w := EventWrite{
		Staged: number(`staged AS (SELECT EXISTS (SELECT 1 FROM bots WHERE id = $e2 AND ` + stagedWhen + `) AS yes)`),
		Outbox: number(`INSERT INTO outbox (event_id, bot_id, event_type, data, created_at, done_at, outcome)
		SELECT $e1, $e2, $e3, CASE WHEN NOT yes THEN $e4 END, CAST($e5 AS BIGINT), CASE WHEN yes THEN CAST($e5 AS BIGINT) END, CASE WHEN yes THEN $e7 END FROM staged`),
		Pending: number(`INSERT INTO pending_messages (bot_id, event_id, event_type, data, event_at, staged_at, expires_at)
		SELECT $e2, $e1, $e3, $e4, CAST($e5 AS BIGINT), CAST($e5 AS BIGINT), CAST($e6 AS BIGINT) FROM staged WHERE yes
		ON CONFLICT (bot_id, event_id) DO NOTHING RETURNING 1`),
	}
	eventSQL.Store(first, w)
	return w
}

// OutcomeStaged is the outcome of an event staged at once as a pending
// message (notifications.OutcomeStaged; the ledger does not import notifications).
const OutcomeStaged = "staged"
