package store

import (
	"context"
	"time"
)

// MailRetry is an owner notification whose last attempt failed, as a
// retry pass claims it. The message is sealed by the app.
type MailRetry struct {
	ID       int64
	Sealed   []byte
	Attempts int // attempts made so far
}

// QueueMailRetry keeps a message whose first attempt failed for another at
// next.
func (s *Store) QueueMailRetry(ctx context.Context, sealed []byte, next time.Time, errText string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO mail_retries (message_sealed, attempts, next_attempt_at, last_error, created_at)
			VALUES ($1, 1, $2, $3, $4)`, sealed, ms(next), errText, ms(s.clock.Now()))
		return err
	}), "queue mail retry")
}

// ClaimMailRetries takes up to limit due messages for lease: they are not
// due again, on any replica, until the lease has passed, so a message is
// attempted by one replica at a time and a replica that dies mid-attempt
// leaves it to the next pass.
func (s *Store) ClaimMailRetries(ctx context.Context, limit int, lease time.Duration) ([]MailRetry, error) {
	now := s.clock.Now()
	skipLocked := s.driver.SkipLocked()
	var out []MailRetry
	err := s.inTx(ctx, func(tx *Tx) error {
		// The due rows are picked once in a materialized CTE: PostgreSQL may
		// run a LIMIT … SKIP LOCKED subquery of an IN more than once and so
		// claim more rows than the limit.
		rows, err := tx.query(ctx, `WITH due AS MATERIALIZED (
				SELECT id FROM mail_retries WHERE next_attempt_at <= $2 ORDER BY next_attempt_at, id LIMIT $3`+skipLocked+`)
			UPDATE mail_retries SET next_attempt_at = $1 FROM due WHERE mail_retries.id = due.id
			RETURNING mail_retries.id, message_sealed, attempts`, ms(now.Add(lease)), ms(now), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m MailRetry
			if err := rows.Scan(&m.ID, &m.Sealed, &m.Attempts); err != nil {
				return err
			}
			out = append(out, m)
		}
		return rows.Err()
	})
	return out, wrapErr(err, "claim mail retries")
}

// ForgetMailRetry forgets a message: sent, or given up on.
func (s *Store) ForgetMailRetry(ctx context.Context, id int64) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `DELETE FROM mail_retries WHERE id = $1`, id)
		return err
	}), "forget mail retry")
}

// MailRetryFailed records another failed attempt and when to try next.
func (s *Store) MailRetryFailed(ctx context.Context, id int64, next time.Time, errText string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE mail_retries SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2 WHERE id = $3`,
			ms(next), errText, id)
		return err
	}), "mail retry failed")
}
