package notifications

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Delivery is an outbox row claimed by one dispatcher until its lease ends.
type Delivery struct {
	OutboxID int64
	EventID  string
	BotID    string
	Type     string
	Data     json.RawMessage
	EventAt  time.Time
	Attempts int // HTTP attempts made before this claim
	// Target is the bot's delivery settings and health as of the claim;
	// nil when the bot is gone.
	Target *Target
}

// claimDeliveries leases up to max due outbox rows to owner until now+lease.
// On PostgreSQL, FOR UPDATE SKIP LOCKED lets replicas claim side by side
// without waiting on or taking each other's rows; on SQLite the single
// writer serialises claims. A row whose lease ran out (its dispatcher died)
// is due again.
func claimDeliveries(ctx context.Context, db *kernel.DB, owner string, lease time.Duration, max int) ([]Delivery, error) {
	now := db.Clock().Now()
	skipLocked := db.Driver().SkipLocked()
	var out []Delivery
	err := db.InTx(ctx, func(tx *kernel.Tx) error {
		out = out[:0]
		rows, err := tx.Query(ctx, `UPDATE outbox SET next_attempt_at = $1, lease_owner = $2
			WHERE id IN (SELECT id FROM outbox WHERE done_at IS NULL AND next_attempt_at <= $3 ORDER BY next_attempt_at, id LIMIT $4`+skipLocked+`)
			RETURNING id, event_id, bot_id, event_type, data, created_at, attempts`,
			ms(now.Add(lease)), owner, ms(now), max)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var d Delivery
			var data string
			var at int64
			if err := rows.Scan(&d.OutboxID, &d.EventID, &d.BotID, &d.Type, &data, &at, &d.Attempts); err != nil {
				return err
			}
			d.Data, d.EventAt = json.RawMessage(data), fromMS(at)
			out = append(out, d)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		return attachTargets(ctx, tx, out)
	})
	return out, wrapErr(err, "claim deliveries")
}

// attachTargets reads the delivery settings of the claimed rows' bots in
// one query.
func attachTargets(ctx context.Context, t *kernel.Tx, ds []Delivery) error {
	if len(ds) == 0 {
		return nil
	}
	var ids []any
	seen := map[string]bool{}
	for _, d := range ds {
		if !seen[d.BotID] {
			seen[d.BotID] = true
			ids = append(ids, d.BotID)
		}
	}
	rows, err := t.Query(ctx, `SELECT `+targetColumns+` FROM bots WHERE id IN (`+placeholders(1, len(ids))+`)`, ids...)
	if err != nil {
		return err
	}
	defer rows.Close()
	targets := map[string]*Target{}
	for rows.Next() {
		tg, err := scanTarget(rows)
		if err != nil {
			return err
		}
		targets[tg.BotID] = &tg
	}
	for i := range ds {
		ds[i].Target = targets[ds[i].BotID]
	}
	return rows.Err()
}

const targetColumns = `id, callback_url, webhook_status, webhook_fail_count, webhook_secret_sealed,
	hooks_token_sealed, webhook_path, tunnel_token_hash`

func scanTarget(row interface{ Scan(...any) error }) (Target, error) {
	var t Target
	var callback, path, tunnelHash sql.NullString
	err := row.Scan(&t.BotID, &callback, &t.WebhookStatus, &t.WebhookFailCount, &t.SecretSealed, &t.HooksSealed, &path, &tunnelHash)
	t.CallbackURL, t.WebhookPath = callback.String, path.String
	t.Tunnel = t.CallbackURL == "" && tunnelHash.Valid
	t.tunnelToken = tunnelHash.Valid
	return t, err
}

// deliveryTarget is what the central-dispatch rule reads of t.
func (t Target) deliveryTarget() botpay.DeliveryTarget {
	return botpay.DeliveryTarget{WebhookStatus: t.WebhookStatus, CallbackURL: t.CallbackURL != "", TunnelToken: t.tunnelToken}
}

// Target is where and how a bot's events are delivered.
type Target struct {
	BotID            string
	CallbackURL      string // empty for a managed-tunnel bot
	Tunnel           bool
	WebhookStatus    string
	WebhookFailCount int
	SecretSealed     []byte
	HooksSealed      []byte
	WebhookPath      string
	tunnelToken      bool // a tunnel token is set, whether or not a callback URL replaces it
}

// Health is what one attempt tells about a webhook's health.
type Health int

const (
	HealthUnchanged Health = iota // no attempt, or a retry (retries never change health)
	HealthSuccess                 // a first attempt succeeded
	HealthFailure                 // a first attempt failed
)

// Finished is the result of handling one claimed delivery.
type Finished struct {
	Delivery   Delivery
	LeaseOwner string
	Attempted  bool   // an attempt was made (counts toward 1 + retries)
	Health     Health // applied only while the bot's webhook is still URL
	URL        string // the callback URL attempted; empty for a tunnel
	Stage      *botpay.PendingMessage
	RetryAt    time.Time // zero: the row is done
	Outcome    string    // delivered, staged, failed
}

// finishDeliveries records a batch of results in one transaction: the outbox
// row (done, or due again at RetryAt), the health change as an atomic
// increment or reset, and the staged message. A row whose lease passed to
// another dispatcher is left to that one; its health and staging still
// apply, since the attempt really happened.
func finishDeliveries(ctx context.Context, db *kernel.DB, results []Finished) error {
	now := ms(db.Clock().Now())
	// Results arrive in the order their attempts ended; staging them in
	// outbox order keeps a bot's pending messages in event order.
	results = slices.Clone(results)
	slices.SortFunc(results, func(a, b Finished) int { return cmp.Compare(a.Delivery.OutboxID, b.Delivery.OutboxID) })
	return wrapErr(db.InTx(ctx, func(tx *kernel.Tx) error {
		var plain, staged []Finished
		for _, f := range results {
			switch {
			case f.plainSuccess():
				plain = append(plain, f)
			case f.plainStaged():
				staged = append(staged, f)
			default:
				if err := finish(ctx, tx, f, now); err != nil {
					return err
				}
			}
		}
		if err := finishStaged(ctx, tx, staged, now); err != nil {
			return err
		}
		return finishDelivered(ctx, tx, plain, now)
	}), "finish deliveries")
}

// plainStaged is the common case for a bot without a reachable webhook:
// not attempted, kept as a pending message, nothing else to record.
func (f Finished) plainStaged() bool {
	return !f.Attempted && f.Stage != nil && f.RetryAt.IsZero() && f.Health == HealthUnchanged && f.Outcome != ""
}

// finishStaged closes plain staged rows and writes their pending messages
// with two statements per chunk instead of two per row.
func finishStaged(ctx context.Context, t *kernel.Tx, staged []Finished, now int64) error {
	for len(staged) > 0 {
		chunk := staged[:min(len(staged), 100)]
		staged = staged[len(chunk):]
		msgs := make([]any, 0, 7*len(chunk))
		values := make([]string, 0, len(chunk))
		for i, f := range chunk {
			m := f.Stage
			values = append(values, "("+placeholders(7*i+1, 7)+")")
			msgs = append(msgs, m.BotID, m.EventID, m.Event, string(m.Data), ms(m.EventAt), ms(m.StagedAt), ms(m.ExpiresAt))
		}
		if err := closeRows(ctx, t, chunk, now); err != nil {
			return err
		}
		if _, err := t.Exec(ctx, `INSERT INTO pending_messages (bot_id, event_id, event_type, data, event_at, staged_at, expires_at)
			VALUES `+strings.Join(values, ", ")+` ON CONFLICT (bot_id, event_id) DO NOTHING`, msgs...); err != nil {
			return err
		}
	}
	return nil
}

// plainSuccess is the common case: delivered at once, nothing to stage.
func (f Finished) plainSuccess() bool {
	return f.Outcome == "delivered" && f.Attempted && f.Stage == nil && f.RetryAt.IsZero()
}

// finishDelivered closes plain successes with one statement per chunk
// instead of one per row, and applies each bot's success once.
func finishDelivered(ctx context.Context, t *kernel.Tx, done []Finished, now int64) error {
	type target struct{ bot, url string }
	healthy := map[target]bool{}
	for len(done) > 0 {
		chunk := done[:min(len(done), 200)]
		done = done[len(chunk):]
		for _, f := range chunk {
			if f.Health == HealthSuccess {
				healthy[target{f.Delivery.BotID, f.URL}] = true
			}
		}
		if err := closeRows(ctx, t, chunk, now); err != nil {
			return err
		}
	}
	for h := range healthy {
		if err := applyHealth(ctx, t, h.bot, h.url, HealthSuccess); err != nil {
			return err
		}
	}
	return nil
}

// closeRows marks finished outbox rows done with their outcome and attempt,
// one statement per lease owner and outcome instead of one per row. A row
// whose lease passed to another dispatcher is left to that one.
func closeRows(ctx context.Context, t *kernel.Tx, done []Finished, now int64) error {
	type group struct {
		owner, outcome string
		attempted      bool
	}
	ids := map[group][]any{}
	var order []group // map order would vary the statements' lock order
	for _, f := range done {
		g := group{f.LeaseOwner, f.Outcome, f.Attempted}
		if _, seen := ids[g]; !seen {
			order = append(order, g)
		}
		ids[g] = append(ids[g], f.Delivery.OutboxID)
	}
	for _, g := range order {
		attempts := 0
		if g.attempted {
			attempts = 1
		}
		q := `UPDATE outbox SET attempts = attempts + $1, lease_owner = NULL, done_at = $2, outcome = $3
			WHERE lease_owner = $4 AND id IN (` + placeholders(5, len(ids[g])) + `)`
		if _, err := t.Exec(ctx, q, append([]any{attempts, now, g.outcome, g.owner}, ids[g]...)...); err != nil {
			return err
		}
	}
	return nil
}

func finish(ctx context.Context, t *kernel.Tx, f Finished, now int64) error {
	attempts := 0
	if f.Attempted {
		attempts = 1
	}
	var err error
	if f.RetryAt.IsZero() {
		_, err = t.Exec(ctx, `UPDATE outbox SET attempts = attempts + $1, lease_owner = NULL, done_at = $2, outcome = $3
			WHERE id = $4 AND lease_owner = $5`, attempts, now, f.Outcome, f.Delivery.OutboxID, f.LeaseOwner)
	} else {
		_, err = t.Exec(ctx, `UPDATE outbox SET attempts = attempts + $1, lease_owner = NULL, next_attempt_at = $2
			WHERE id = $3 AND lease_owner = $4`, attempts, ms(f.RetryAt), f.Delivery.OutboxID, f.LeaseOwner)
	}
	if err != nil {
		return err
	}
	if err := applyHealth(ctx, t, f.Delivery.BotID, f.URL, f.Health); err != nil {
		return err
	}
	if f.Stage != nil {
		return stage(ctx, t, *f.Stage)
	}
	return nil
}

// applyHealth moves a webhook along the API reference (docs/api.md) in one statement, so
// concurrent results count every failure (atomic increment). It applies only
// while the bot still points where the attempt went: a result from before a
// callback update does not degrade the new URL.
func applyHealth(ctx context.Context, t *kernel.Tx, botID, url string, h Health) error {
	var err error
	switch h {
	case HealthSuccess:
		// Success recovers a degraded webhook; unreachable is left to the
		// explicit recoveries (callback update), so a receiver marked unreachable
		// stays so until one of them (webhook health, docs/api.md).
		_, err = t.Exec(ctx, `UPDATE bots SET webhook_status = $1, webhook_fail_count = 0
			WHERE id = $2 AND COALESCE(callback_url, '') = $3 AND webhook_status IN ($1, $4) AND webhook_fail_count > 0`,
			botpay.WebhookActive, botID, url, botpay.WebhookDegraded)
	case HealthFailure:
		_, err = t.Exec(ctx, `UPDATE bots SET webhook_fail_count = webhook_fail_count + 1,
			webhook_status = CASE WHEN webhook_fail_count + 1 >= 2 THEN $1 ELSE $2 END
			WHERE id = $3 AND COALESCE(callback_url, '') = $4 AND webhook_status IN ($5, $2)`,
			botpay.WebhookUnreachable, botpay.WebhookDegraded, botID, url, botpay.WebhookActive)
	}
	return err
}

// nextDue is when the earliest unfinished outbox row falls due (a retry, or
// the end of a lease); ok is false when nothing is left.
func nextDue(ctx context.Context, db *kernel.DB) (at time.Time, ok bool, err error) {
	var v sql.NullInt64
	err = db.QueryRow(ctx, `SELECT MIN(next_attempt_at) FROM outbox WHERE done_at IS NULL`).Scan(&v)
	return fromMS(v.Int64), v.Valid, wrapErr(err, "next due")
}
