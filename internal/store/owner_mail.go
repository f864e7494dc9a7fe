package store

import (
	"context"
	"time"
)

// TakeAll admits one hit under every limit, in one transaction, or
// refuses with the first exhausted one's rate_limited and counts nothing.
func (s *Store) TakeAll(ctx context.Context, limits []Limit) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		return tx.takeMailLimits(ctx, limits, s.clock.Now())
	}), "take all")
}

// HoldForDigest counts one owner notification to recipient held back by a
// daily limit; the first one held sets when the digest is due (after).
func (s *Store) HoldForDigest(ctx context.Context, recipient string, after time.Duration) error {
	now := s.clock.Now()
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO owner_mail_digests (recipient, held, first_held_at, due_at) VALUES ($1, 1, $2, $3)
			ON CONFLICT (recipient) DO UPDATE SET held = owner_mail_digests.held + 1`, recipient, ms(now), ms(now.Add(after)))
		return err
	}), "hold for digest")
}

// MailDigest is a due summary of the notifications held back for one
// recipient.
type MailDigest struct {
	Recipient   string
	Held        int
	FirstHeldAt time.Time
}

// TakeDueDigests removes and returns the digests due by now, at most limit:
// the replica whose DELETE removes a row is the one that sends it.
func (s *Store) TakeDueDigests(ctx context.Context, limit int) ([]MailDigest, error) {
	var out []MailDigest
	err := s.inTx(ctx, func(tx *Tx) error {
		out = nil
		rows, err := tx.query(ctx, `DELETE FROM owner_mail_digests WHERE recipient IN
			(SELECT recipient FROM owner_mail_digests WHERE due_at <= $1 ORDER BY due_at LIMIT $2)
			RETURNING recipient, held, first_held_at`, ms(s.clock.Now()), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var d MailDigest
			var first int64
			if err := rows.Scan(&d.Recipient, &d.Held, &first); err != nil {
				return err
			}
			d.FirstHeldAt = fromMS(first)
			out = append(out, d)
		}
		return rows.Err()
	})
	return out, wrapErr(err, "take due digests")
}
