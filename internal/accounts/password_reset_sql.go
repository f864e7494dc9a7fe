package accounts

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// issuePasswordReset records a password-reset link for the owner whose
// e-mail is email, if there is one, after taking limit (the per-address
// mail budget). An existing and a missing account run the same statements
// in one write transaction, the lookup folded into the writes, so the
// time an answer takes does not tell whether the account exists. found
// reports whether a link was stored; a spent limit is a rate_limited
// error either way.
func (s *Service) issuePasswordReset(ctx context.Context, email string, limit Limit, tokenHash string, expires time.Time) (found bool, err error) {
	now := s.clock.Now()
	err = s.inTx(ctx, func(tx *kernel.Tx) error {
		if err := s.rates.TakeIn(ctx, tx, limit, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE owner_links SET used_at = $1 WHERE purpose = $2 AND used_at IS NULL
			AND owner_id = (SELECT id FROM owners WHERE email = $3)`, ms(now), linkPasswordReset, email); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `INSERT INTO owner_links (token_hash, owner_id, purpose, created_at, expires_at)
			SELECT $1, id, $2, $3, $4 FROM owners WHERE email = $5`, tokenHash, linkPasswordReset, ms(now), ms(expires), email)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		found = n == 1
		return err
	})
	return found, wrapErr(err, "issue password reset")
}
