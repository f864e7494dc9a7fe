package notifications

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// holdForDigest counts one owner notification to recipient held back by a
// daily limit; the first one held sets when the digest is due (after).
func (o *OwnerMail) holdForDigest(ctx context.Context, recipient string, after time.Duration) error {
	now := o.clock.Now()
	return wrapErr(o.d.DB.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO owner_mail_digests (recipient, held, first_held_at, due_at) VALUES ($1, 1, $2, $3)
			ON CONFLICT (recipient) DO UPDATE SET held = owner_mail_digests.held + 1`, recipient, ms(now), ms(now.Add(after)))
		return err
	}), "hold for digest")
}

// mailDigest is a due summary of the notifications held back for one
// recipient.
type mailDigest struct {
	Recipient   string
	Held        int
	FirstHeldAt time.Time
}

// takeDueDigests removes and returns the digests due by now, at most limit:
// the replica whose DELETE removes a row is the one that sends it.
func (o *OwnerMail) takeDueDigests(ctx context.Context, limit int) ([]mailDigest, error) {
	var out []mailDigest
	err := o.d.DB.InTx(ctx, func(tx *kernel.Tx) error {
		out = nil
		rows, err := tx.Query(ctx, `DELETE FROM owner_mail_digests WHERE recipient IN
			(SELECT recipient FROM owner_mail_digests WHERE due_at <= $1 ORDER BY due_at LIMIT $2)
			RETURNING recipient, held, first_held_at`, ms(o.clock.Now()), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var d mailDigest
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
