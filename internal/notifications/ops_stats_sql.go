package notifications

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// OpsStats is what an operator watches that only the database knows: the
// outbox backlog, how the bots' webhooks fare, and the pools.
type OpsStats struct {
	OutboxDepth   int64
	OutboxOldest  time.Duration // age of the oldest undelivered event; 0 when none
	WebhookHealth map[string]int64
	Pools         map[string]sql.DBStats // "read" and "write"
	// Settlements counts x402 settlements still in flight by state
	// (settling, submitted): the ones an operator must see move. They are
	// counted here, beside the delivery backlog, so that one scrape reads
	// every figure of the database in one place.
	Settlements map[string]int64
}

// OpsStats reads the figures behind the metrics of outbox depth, oldest
// age and webhook health. Both counts use indexed predicates (outbox_due,
// bots by status), so a scrape stays cheap as the tables grow.
func (r *OutboxReader) OpsStats(ctx context.Context) (OpsStats, error) {
	st := OpsStats{WebhookHealth: map[string]int64{}, Settlements: map[string]int64{},
		Pools: map[string]sql.DBStats{}}
	write, read := r.db.Pools()
	st.Pools["write"] = write.Stats()
	if read != write {
		st.Pools["read"] = read.Stats()
	}
	var oldest sql.NullInt64
	err := r.db.QueryRow(ctx, `SELECT COUNT(*), MIN(created_at) FROM outbox WHERE done_at IS NULL`).Scan(&st.OutboxDepth, &oldest)
	if err != nil {
		return st, fmt.Errorf("outbox depth: %w", err)
	}
	if oldest.Valid {
		st.OutboxOldest = max(0, r.db.Clock().Now().Sub(fromMS(oldest.Int64)))
	}
	if err := r.countBy(ctx, st.WebhookHealth, `SELECT webhook_status, COUNT(*) FROM bots GROUP BY webhook_status`); err != nil {
		return st, fmt.Errorf("webhook health counts: %w", err)
	}
	err = r.countBy(ctx, st.Settlements, `SELECT status, COUNT(*) FROM x402_payments WHERE status IN ('settling', 'submitted') GROUP BY status`)
	if err != nil {
		return st, fmt.Errorf("settlement counts: %w", err)
	}
	for _, status := range []string{botpay.WebhookActive, botpay.WebhookDegraded, botpay.WebhookUnreachable, botpay.WebhookNone} {
		if _, seen := st.WebhookHealth[status]; !seen {
			st.WebhookHealth[status] = 0 // every state is reported, zero included
		}
	}
	return st, nil
}

// countBy fills into from a query of (label, count) rows.
func (r *OutboxReader) countBy(ctx context.Context, into map[string]int64, query string) error {
	rows, err := r.db.Query(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var label string
		var n int64
		if err := rows.Scan(&label, &n); err != nil {
			return err
		}
		into[label] = n
	}
	return rows.Err()
}
