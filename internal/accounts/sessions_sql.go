package accounts

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// tokenUseEvery bounds how often a token's use is written: last_used_at
// (and an API token's sliding expiry) move at most once an hour, so an
// owner's requests do not each cost a write.
const tokenUseEvery = time.Hour

// ownerTokens lists an owner's live tokens, newest first; currentHash
// marks the caller's own.
func (s *Service) ownerTokens(ctx context.Context, ownerID, currentHash string) ([]botpay.OwnerToken, error) {
	rows, err := s.db.Query(ctx, `SELECT id, kind, created_at, last_used_at, expires_at, token_hash FROM owner_tokens
		WHERE owner_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id`, ownerID, ms(s.clock.Now()))
	if err != nil {
		return nil, wrapErr(err, "owner tokens %s", ownerID)
	}
	defer rows.Close()
	var out []botpay.OwnerToken
	for rows.Next() {
		var t botpay.OwnerToken
		var created, expires int64
		var used sql.NullInt64
		var hash string
		if err := rows.Scan(&t.ID, &t.Kind, &created, &used, &expires, &hash); err != nil {
			return nil, wrapErr(err, "owner tokens %s", ownerID)
		}
		t.CreatedAt, t.LastUsedAt, t.ExpiresAt = fromMS(created), fromNullMS(used), fromMS(expires)
		t.Current = botpay.DigestsEqual(hash, currentHash)
		out = append(out, t)
	}
	return out, wrapErr(rows.Err(), "owner tokens %s", ownerID)
}

// revokeOwnerTokenByID ends one of the owner's tokens; another owner's or
// an ended one is not found.
func (s *Service) revokeOwnerTokenByID(ctx context.Context, ownerID, id string) error {
	now := ms(s.clock.Now())
	return wrapErr(s.inTx(ctx, func(tx *kernel.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE owner_tokens SET revoked_at = $1 WHERE id = $2 AND owner_id = $3
			AND revoked_at IS NULL AND expires_at > $1`, now, id, ownerID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return botpay.ErrNotFound("session")
		}
		return nil
	}), "revoke owner token by id %s", id)
}

// touchOwnerToken records a token's use and renews an API token for
// another OwnerAPITokenLife.
func (s *Service) touchOwnerToken(ctx context.Context, tokenHash, kind string) error {
	now := s.clock.Now()
	q := `UPDATE owner_tokens SET last_used_at = $1 WHERE token_hash = $2`
	args := []any{ms(now), tokenHash}
	if kind == botpay.OwnerTokenAPIToken {
		q = `UPDATE owner_tokens SET last_used_at = $1, expires_at = $3 WHERE token_hash = $2`
		args = append(args, ms(now.Add(OwnerAPITokenLife)))
	}
	return s.inTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, q, args...)
		return err
	})
}
