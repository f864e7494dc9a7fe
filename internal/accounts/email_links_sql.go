package accounts

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Owner link purposes (owner_links.purpose).
const (
	linkPasswordReset = "password_reset"
	linkVerifyEmail   = "verify_email"
)

// createOwnerLink stores the digest of a single-use link token for the
// owner. A new link of a purpose ends the owner's earlier ones.
func (s *Service) createOwnerLink(ctx context.Context, ownerID, purpose, tokenHash string, expires time.Time) error {
	now := ms(s.clock.Now())
	return wrapErr(s.inTx(ctx, func(tx *kernel.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE owner_links SET used_at = $1 WHERE owner_id = $2 AND purpose = $3 AND used_at IS NULL`,
			now, ownerID, purpose); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO owner_links (token_hash, owner_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
			tokenHash, ownerID, purpose, now, ms(expires))
		return err
	}), "create owner link %s", ownerID)
}

// useOwnerLink consumes a live link of purpose and returns its owner.
func useOwnerLink(ctx context.Context, t *kernel.Tx, purpose, tokenHash string, now time.Time) (string, error) {
	var ownerID string
	err := t.QueryRow(ctx, `UPDATE owner_links SET used_at = $1 WHERE token_hash = $2 AND purpose = $3
		AND used_at IS NULL AND expires_at > $1 RETURNING owner_id`, ms(now), tokenHash, purpose).Scan(&ownerID)
	if isNoRows(err) {
		return "", errInvalidLink
	}
	return ownerID, err
}

// resetPassword consumes a reset link and sets the owner's password hash;
// every token and session of the owner ends, and the address counts as
// verified (the link reached it).
func (s *Service) resetPassword(ctx context.Context, tokenHash, passwordHash string) (botpay.Owner, error) {
	now := s.clock.Now()
	var ownerID string
	err := s.inTx(ctx, func(tx *kernel.Tx) error {
		var err error
		if ownerID, err = useOwnerLink(ctx, tx, linkPasswordReset, tokenHash, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE owners SET password_hash = $1, email_verified_at = COALESCE(email_verified_at, $2) WHERE id = $3`,
			passwordHash, ms(now), ownerID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE owner_tokens SET revoked_at = $1 WHERE owner_id = $2 AND revoked_at IS NULL`, ms(now), ownerID)
		return err
	})
	if err != nil {
		return botpay.Owner{}, wrapErr(err, "reset password")
	}
	return s.OwnerByID(ctx, ownerID)
}

// markEmailVerified consumes a verification link and marks the owner's address
// verified.
func (s *Service) markEmailVerified(ctx context.Context, tokenHash string) (botpay.Owner, error) {
	now := s.clock.Now()
	var ownerID string
	err := s.inTx(ctx, func(tx *kernel.Tx) error {
		var err error
		if ownerID, err = useOwnerLink(ctx, tx, linkVerifyEmail, tokenHash, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE owners SET email_verified_at = COALESCE(email_verified_at, $1) WHERE id = $2`, ms(now), ownerID)
		return err
	})
	if err != nil {
		return botpay.Owner{}, wrapErr(err, "verify email")
	}
	return s.OwnerByID(ctx, ownerID)
}

// ownerByLink reads the owner of a live link without consuming it (the
// reset form checks the new password before the link is spent).
func (s *Service) ownerByLink(ctx context.Context, purpose, tokenHash string) (botpay.Owner, error) {
	o, err := scanOwner(s.queryRow(ctx, `SELECT `+ownerColumns+` FROM owner_links l JOIN owners o ON o.id = l.owner_id
		WHERE l.token_hash = $1 AND l.purpose = $2 AND l.used_at IS NULL AND l.expires_at > $3`, tokenHash, purpose, ms(s.clock.Now())))
	if isNoRows(err) {
		return o, errInvalidLink
	}
	return o, wrapErr(err, "owner by link")
}
