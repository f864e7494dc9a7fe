package store

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// NewJob is a background job to run at RunAt (package jobs runs it). A job
// with a Key exists at most once: enqueueing it again while it exists does
// nothing, which is how a periodic pass keeps one row for every replica.
type NewJob struct {
	Kind      string
	Key       string
	Payload   []byte
	Attempts  int // attempts already made (a first one made inline and failed)
	RunAt     time.Time
	LastError string
}

// Job is a job as a claim hands it out.
type Job struct {
	ID       int64
	Kind     string
	Key      string
	Payload  []byte
	Attempts int // attempts made before this one
}

const insertJob = `INSERT INTO jobs (kind, job_key, payload, attempts, run_at, last_error, created_at)
	VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (job_key) DO NOTHING`

func (s *Store) jobArgs(j NewJob) []any {
	var key any
	if j.Key != "" {
		key = j.Key
	}
	return []any{j.Kind, key, payloadOf(j.Payload), j.Attempts, ms(j.RunAt), j.LastError, ms(s.clock.Now())}
}

func payloadOf(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// enqueueJob writes j in the caller's transaction, on PostgreSQL in the
// round trip of COMMIT; the local runner is woken once it has committed.
func (t *Tx) enqueueJob(j NewJob) {
	t.atCommit(step{Query: insertJob, Args: t.s.jobArgs(j)})
	t.jobs = true
}

// EnqueueJob writes j in a transaction of its own.
func (s *Store) EnqueueJob(ctx context.Context, j NewJob) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		tx.enqueueJob(j)
		return nil
	}), "enqueue job "+j.Kind)
}

// OnJob registers f to run after every commit that enqueued a job, so the
// local runner need not wait for its next poll. f must not block. Set it
// before serving.
func (s *Store) OnJob(f func()) { s.onJob = f }

// ClaimJobs takes up to limit due jobs of the given kinds for lease: they
// are not due again, on any replica, until the lease has passed, so a job
// runs on one replica at a time and one whose replica dies mid-run comes
// round again. Jobs are taken in the order they fell due.
func (s *Store) ClaimJobs(ctx context.Context, kinds []string, limit int, lease time.Duration) ([]Job, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	now := s.clock.Now()
	args := []any{ms(now.Add(lease)), ms(now), limit}
	marks := make([]string, len(kinds))
	for i, k := range kinds {
		args = append(args, k)
		marks[i] = "$" + strconv.Itoa(i+4)
	}
	var out []Job
	err := s.inTx(ctx, func(tx *Tx) error {
		// The due rows are picked once in a materialized CTE: PostgreSQL may
		// run a LIMIT … SKIP LOCKED subquery of an IN more than once and so
		// claim more rows than the limit.
		rows, err := tx.query(ctx, `WITH due AS MATERIALIZED (
				SELECT id FROM jobs WHERE run_at <= $2 AND kind IN (`+strings.Join(marks, ", ")+`)
				ORDER BY run_at, id LIMIT $3`+s.driver.SkipLocked()+`)
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
	return out, wrapErr(err, "claim jobs")
}

// FinishJob forgets a job: done, or given up on.
func (s *Store) FinishJob(ctx context.Context, id int64) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `DELETE FROM jobs WHERE id = $1`, id)
		return err
	}), "finish job")
}

// RetryJob records a failed attempt and when to try again.
func (s *Store) RetryJob(ctx context.Context, id int64, next time.Time, errText string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE jobs SET attempts = attempts + 1, run_at = $1, last_error = $2 WHERE id = $3`,
			ms(next), errText, id)
		return err
	}), "retry job")
}

// RescheduleJob sets a periodic job's next pass, its attempts counted
// afresh.
func (s *Store) RescheduleJob(ctx context.Context, id int64, next time.Time, errText string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE jobs SET attempts = 0, run_at = $1, last_error = $2 WHERE id = $3`,
			ms(next), errText, id)
		return err
	}), "reschedule job")
}
