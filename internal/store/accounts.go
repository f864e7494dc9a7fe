package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// tokenUseEvery bounds how often a token's use is written: last_used_at
// (and an API token's sliding expiry) move at most once an hour, so an
// owner's requests do not each cost a write.
const tokenUseEvery = time.Hour

// OwnerTokens lists an owner's live tokens, newest first; currentHash
// marks the caller's own.
func (s *Store) OwnerTokens(ctx context.Context, ownerID, currentHash string) ([]botpay.OwnerToken, error) {
	rows, err := s.query(ctx, `SELECT id, kind, created_at, last_used_at, expires_at, token_hash FROM owner_tokens
		WHERE owner_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id`, ownerID, ms(s.clock.Now()))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []botpay.OwnerToken
	for rows.Next() {
		var t botpay.OwnerToken
		var created, expires int64
		var used sql.NullInt64
		var hash string
		if err := rows.Scan(&t.ID, &t.Kind, &created, &used, &expires, &hash); err != nil {
			return nil, err
		}
		t.CreatedAt, t.LastUsedAt, t.ExpiresAt = fromMS(created), fromNullMS(used), fromMS(expires)
		t.Current = botpay.DigestsEqual(hash, currentHash)
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeOwnerTokenByID ends one of the owner's tokens; another owner's or
// an ended one is not found.
func (s *Store) RevokeOwnerTokenByID(ctx context.Context, ownerID, id string) error {
	now := ms(s.clock.Now())
	return s.inTx(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `UPDATE owner_tokens SET revoked_at = $1 WHERE id = $2 AND owner_id = $3
			AND revoked_at IS NULL AND expires_at > $1`, now, id, ownerID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return botpay.ErrNotFound("session")
		}
		return nil
	})
}

// touchOwnerToken records a token's use and renews an API token for
// another OwnerAPITokenLife.
func (s *Store) touchOwnerToken(ctx context.Context, tokenHash, kind string) error {
	now := s.clock.Now()
	q := `UPDATE owner_tokens SET last_used_at = $1 WHERE token_hash = $2`
	args := []any{ms(now), tokenHash}
	if kind == botpay.OwnerTokenAPIToken {
		q = `UPDATE owner_tokens SET last_used_at = $1, expires_at = $3 WHERE token_hash = $2`
		args = append(args, ms(now.Add(OwnerAPITokenLife)))
	}
	return s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, q, args...)
		return err
	})
}

// Owner link purposes (owner_links.purpose).
const (
	LinkPasswordReset = "password_reset"
	LinkVerifyEmail   = "verify_email"
)

// CreateOwnerLink stores the digest of a single-use link token for the
// owner. A new link of a purpose ends the owner's earlier ones.
func (s *Store) CreateOwnerLink(ctx context.Context, ownerID, purpose, tokenHash string, expires time.Time) error {
	now := ms(s.clock.Now())
	return s.inTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec(ctx, `UPDATE owner_links SET used_at = $1 WHERE owner_id = $2 AND purpose = $3 AND used_at IS NULL`,
			now, ownerID, purpose); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO owner_links (token_hash, owner_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
			tokenHash, ownerID, purpose, now, ms(expires))
		return err
	})
}

var errInvalidLink = botpay.Errorf(botpay.KindNotFound, botpay.CodeInvalidLink,
	"this link is not valid: it was already used, has expired or was replaced by a newer one; ask for a new one")

// useOwnerLink consumes a live link of purpose and returns its owner.
func (t *Tx) useOwnerLink(ctx context.Context, purpose, tokenHash string, now time.Time) (string, error) {
	var ownerID string
	err := t.queryRow(ctx, `UPDATE owner_links SET used_at = $1 WHERE token_hash = $2 AND purpose = $3
		AND used_at IS NULL AND expires_at > $1 RETURNING owner_id`, ms(now), tokenHash, purpose).Scan(&ownerID)
	if isNoRows(err) {
		return "", errInvalidLink
	}
	return ownerID, err
}

// ResetPassword consumes a reset link and sets the owner's password hash;
// every token and session of the owner ends, and the address counts as
// verified (the link reached it).
func (s *Store) ResetPassword(ctx context.Context, tokenHash, passwordHash string) (botpay.Owner, error) {
	now := s.clock.Now()
	var ownerID string
	err := s.inTx(ctx, func(tx *Tx) error {
		var err error
		if ownerID, err = tx.useOwnerLink(ctx, LinkPasswordReset, tokenHash, now); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE owners SET password_hash = $1, email_verified_at = COALESCE(email_verified_at, $2) WHERE id = $3`,
			passwordHash, ms(now), ownerID); err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE owner_tokens SET revoked_at = $1 WHERE owner_id = $2 AND revoked_at IS NULL`, ms(now), ownerID)
		return err
	})
	if err != nil {
		return botpay.Owner{}, err
	}
	return s.OwnerByID(ctx, ownerID)
}

// VerifyEmail consumes a verification link and marks the owner's address
// verified.
func (s *Store) VerifyEmail(ctx context.Context, tokenHash string) (botpay.Owner, error) {
	now := s.clock.Now()
	var ownerID string
	err := s.inTx(ctx, func(tx *Tx) error {
		var err error
		if ownerID, err = tx.useOwnerLink(ctx, LinkVerifyEmail, tokenHash, now); err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE owners SET email_verified_at = COALESCE(email_verified_at, $1) WHERE id = $2`, ms(now), ownerID)
		return err
	})
	if err != nil {
		return botpay.Owner{}, err
	}
	return s.OwnerByID(ctx, ownerID)
}

// OwnerByLink reads the owner of a live link without consuming it (the
// reset form checks the new password before the link is spent).
func (s *Store) OwnerByLink(ctx context.Context, purpose, tokenHash string) (botpay.Owner, error) {
	o, err := scanOwner(s.queryRow(ctx, `SELECT `+ownerColumns+` FROM owner_links l JOIN owners o ON o.id = l.owner_id
		WHERE l.token_hash = $1 AND l.purpose = $2 AND l.used_at IS NULL AND l.expires_at > $3`, tokenHash, purpose, ms(s.clock.Now())))
	if isNoRows(err) {
		return o, errInvalidLink
	}
	return o, err
}
