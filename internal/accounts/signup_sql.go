package accounts

import (
	"context"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// createOwner inserts an owner with its first token (a session until
// expires, or with expires zero an API token, as addOwnerToken). A taken e-mail is 409
// email_taken.
func (s *Service) createOwner(ctx context.Context, o botpay.Owner, passwordHash, tokenHash string, expires time.Time) error {
	err := s.inTx(ctx, func(tx *kernel.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO owners (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)`,
			o.ID, o.Email, passwordHash, ms(o.CreatedAt)); err != nil {
			return err
		}
		return insertOwnerToken(ctx, tx, o.ID, tokenHash, o.CreatedAt, expires)
	})
	if errors.Is(err, kernel.ErrUnique) {
		return botpay.Errorf(botpay.KindConflict, botpay.CodeEmailTaken, "an owner account with this e-mail already exists; log in instead")
	}
	return wrapErr(err, "create owner")
}

func insertOwnerToken(ctx context.Context, tx *kernel.Tx, ownerID, tokenHash string, now, expires time.Time) error {
	kind := botpay.OwnerTokenSession
	if expires.IsZero() {
		kind, expires = botpay.OwnerTokenAPIToken, now.Add(OwnerAPITokenLife)
	}
	_, err := tx.Exec(ctx, `INSERT INTO owner_tokens (token_hash, id, kind, owner_id, created_at, expires_at, last_used_at)
		VALUES ($1, $2, $3, $4, $5, $6, $5)`, tokenHash, botpay.NewID("tok_"), kind, ownerID, ms(now), ms(expires))
	return err
}

// OwnerAPITokenLife is how long an owner API token lives after its last
// use: each use renews it (at most once an hour, ownerByTokenHash).
const OwnerAPITokenLife = 90 * 24 * time.Hour

// addOwnerToken issues another bearer token (each login gets its own, so
// logging out of one place revokes only that one): a dashboard session that
// stops authenticating at expires, or with expires zero an API token that
// lives OwnerAPITokenLife after its last use.
func (s *Service) addOwnerToken(ctx context.Context, ownerID, tokenHash string, expires time.Time) error {
	return wrapErr(s.inTx(ctx, func(tx *kernel.Tx) error {
		return insertOwnerToken(ctx, tx, ownerID, tokenHash, s.clock.Now(), expires)
	}), "add owner token %s", ownerID)
}
