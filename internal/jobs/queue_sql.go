package jobs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

const insertJob = `INSERT INTO jobs (kind, job_key, payload, attempts, run_at, last_error, created_at)
	VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (job_key) DO NOTHING`

func jobArgs(j NewJob, now time.Time) []any {
	var key any
	if j.Key != "" {
		key = j.Key
	}
	payload := j.Payload
	if payload == nil {
		payload = []byte{}
	}
	return []any{j.Kind, key, payload, j.Attempts, kernel.MS(j.RunAt), j.LastError, kernel.MS(now)}
}

// Claim takes up to limit due jobs of the given kinds for lease: they are
// not due again, on any replica, until the lease has passed, so a job runs
// on one replica at a time and one whose replica dies mid-run comes round
// again. Jobs are taken in the order they fell due.
func (q *Queue) Claim(ctx context.Context, kinds []string, limit int, lease time.Duration) ([]Job, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	now := q.db.Clock().Now()
	args := []any{kernel.MS(now.Add(lease)), kernel.MS(now), limit}
	marks := make([]string, len(kinds))
	for i, k := range kinds {
		args = append(args, k)
		marks[i] = "$" + strconv.Itoa(i+4)
	}
	var out []Job
	err := q.db.InTx(ctx, func(tx *kernel.Tx) error {
		// The due rows are picked once in a materialized CTE: PostgreSQL may
		// run a LIMIT … SKIP LOCKED subquery of an IN more than once and so
		// claim more rows than the limit.
		rows, err := tx.Query(ctx, `WITH due AS MATERIALIZED (
				SELECT id FROM jobs WHERE run_at <= $2 AND kind IN (`+strings.Join(marks, ", ")+`)
				ORDER BY run_at, id LIMIT $3`+tx.Driver().SkipLocked()+`)
			UPDATE jobs SET run_at = $1 FROM due WHERE jobs.id = due.id
			RETURNING jobs.id, kind, COALESCE(job_key, ''), payload, attempts`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var j Job
			if err := rows.Scan(&j.ID, &j.Kind, &j.Key, &j.Payload, &j.Attempts); err != nil {
				return err
			}
			out = append(out, j)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("jobs: claim: %w", err)
	}
	return out, nil
}

// finish forgets a job: done, or given up on.
func (q *Queue) finish(ctx context.Context, id int64) error {
	return q.exec(ctx, "finish", `DELETE FROM jobs WHERE id = $1`, id)
}

// retry records a failed attempt and when to try again.
func (q *Queue) retry(ctx context.Context, id int64, next time.Time, errText string) error {
	return q.exec(ctx, "retry", `UPDATE jobs SET attempts = attempts + 1, run_at = $1, last_error = $2 WHERE id = $3`,
		kernel.MS(next), errText, id)
}

// reschedule sets a periodic job's next pass, its attempts counted afresh.
func (q *Queue) reschedule(ctx context.Context, id int64, next time.Time, errText string) error {
	return q.exec(ctx, "reschedule", `UPDATE jobs SET attempts = 0, run_at = $1, last_error = $2 WHERE id = $3`,
		kernel.MS(next), errText, id)
}

func (q *Queue) exec(ctx context.Context, what, query string, args ...any) error {
	err := q.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, query, args...)
		return err
	})
	if err != nil {
		return fmt.Errorf("jobs: %s job %v: %w", what, args[len(args)-1], err)
	}
	return nil
}
