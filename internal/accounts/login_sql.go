package accounts

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// revokeOwnerToken ends a token.
func (s *Service) revokeOwnerToken(ctx context.Context, tokenHash string) error {
	return wrapErr(s.inTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE owner_tokens SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL`, ms(s.clock.Now()), tokenHash)
		return err
	}), "revoke owner token")
}

// ownerColumns are an owner's columns in the order scanOwner reads them.
const ownerColumns = `o.id, o.email, o.created_at, o.email_verified_at`

func scanOwner(row interface{ Scan(...any) error }, extra ...any) (botpay.Owner, error) {
	var o botpay.Owner
	var created int64
	var verified sql.NullInt64
	err := row.Scan(append([]any{&o.ID, &o.Email, &created, &verified}, extra...)...)
	o.CreatedAt, o.EmailVerifiedAt = fromMS(created), fromNullMS(verified)
	return o, err
}

// ownerCredentials returns an owner and its password hash by e-mail.
func (s *Service) ownerCredentials(ctx context.Context, email string) (botpay.Owner, string, error) {
	var hash string
	o, err := scanOwner(s.queryRow(ctx, `SELECT `+ownerColumns+`, o.password_hash FROM owners o WHERE o.email = $1`, email), &hash)
	if isNoRows(err) {
		return o, "", botpay.ErrNotFound("owner")
	}
	return o, hash, wrapErr(err, "owner credentials")
}

// ownerByTokenHash authenticates an owner token that is neither revoked
// nor past its expiry. A use more than tokenUseEvery after the last one
// recorded is written down, and renews an API token (sliding expiry).
func (s *Service) ownerByTokenHash(ctx context.Context, tokenHash string) (botpay.Owner, error) {
	var stored, kind string
	var used sql.NullInt64
	now := s.clock.Now()
	o, err := scanOwner(s.queryRow(ctx, `SELECT `+ownerColumns+`, t.token_hash, t.kind, t.last_used_at FROM owner_tokens t
		JOIN owners o ON o.id = t.owner_id WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2`,
		tokenHash, ms(now)), &stored, &kind, &used)
	if isNoRows(err) || (err == nil && !botpay.DigestsEqual(stored, tokenHash)) {
		return o, botpay.ErrNotFound("owner token")
	}
	if err == nil && now.Sub(fromNullMS(used)) >= tokenUseEvery {
		err = s.touchOwnerToken(ctx, tokenHash, kind)
	}
	return o, wrapErr(err, "owner by token hash")
}

// OwnerByID loads an owner (the use cases of other capabilities read the
// owner of a bot through it).
func (s *Service) OwnerByID(ctx context.Context, id string) (botpay.Owner, error) {
	o, err := scanOwner(s.queryRow(ctx, `SELECT `+ownerColumns+` FROM owners o WHERE o.id = $1`, id))
	if isNoRows(err) {
		return o, botpay.ErrNotFound("owner")
	}
	return o, wrapErr(err, "owner by id %s", id)
}
