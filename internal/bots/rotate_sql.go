package bots

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// committedRotation is a committed API key rotation.
type committedRotation struct {
	Bot                  botpay.Bot
	PreviousKeyExpiresAt time.Time
}

// RotateKey is one API key rotation. OwnerID restricts it to the owner's
// bots; when empty the bot itself asks with PresentedKeyHash, which must be
// its current key (a previous key in its grace period cannot rotate), and a
// frozen bot is refused.
type RotateKey struct {
	OwnerID          string
	BotID            string
	PresentedKeyHash string
	NewKeyHash       string
	Grace            time.Duration
}

// commitRotation gives the bot the key whose digest is NewKeyHash. The key it
// replaces keeps working for grace (zero: it stops at once, a revocation);
// a key that was itself still in a grace period stops at once, so a bot has
// at most two live keys. In the same transaction it bumps api_key_epoch, which tells
// every replica's in-memory authentication to read keys again, and emits
// rails.updated (api_key_rotated).
func (s *Service) commitRotation(ctx context.Context, k RotateKey) (committedRotation, error) {
	now := s.clock.Now()
	expires := now.Add(k.Grace)
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var f keyFacts
		var owner sql.NullString
		err := tx.QueryRow(ctx, `SELECT api_key_hash, owner_id, frozen FROM bots WHERE id = $1`+tx.ForUpdate(), k.BotID).
			Scan(&f.current, &owner, &f.frozen)
		if err != nil && !isNoRows(err) {
			return err
		}
		f.found, f.owner = err == nil, owner.String
		if err := rotationRefusal(k, f); err != nil {
			return err
		}
		var previous any
		if k.Grace > 0 {
			previous = f.current
		}
		if _, err := tx.Exec(ctx, `UPDATE bots SET api_key_hash = $1, previous_api_key_hash = $2,
			previous_api_key_expires_at = $3, updated_at = $4 WHERE id = $5`,
			k.NewKeyHash, previous, kernel.MS(expires), kernel.MS(now), k.BotID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE api_key_epoch SET epoch = epoch + 1 WHERE id = 1`); err != nil {
			return err
		}
		msg := "Your API key was rotated; the previous key stopped working."
		if k.Grace > 0 {
			msg = "Your API key was rotated; the previous key works until " + botpay.FormatTime(expires) + "."
		}
		previousExpires := botpay.Timestamp(expires)
		return s.outbox.Emit(tx, botpay.NewEvent(k.BotID, botpay.RailsUpdatedData{
			Action: botpay.ActionAPIKeyRotated, Rail: nil, BotID: k.BotID, Message: msg,
			PreviousKeyExpiresAt: &previousExpires,
		}, now))
	})
	if err != nil {
		return committedRotation{}, wrapErr(err, "rotate api key")
	}
	b, err := s.Bot(ctx, k.BotID)
	return committedRotation{Bot: b, PreviousKeyExpiresAt: expires}, wrapErr(err, "rotate api key")
}

// errBotFrozen refuses a frozen bot's own changes to its key, profile or
// callback: freezing is how an owner contains a bot, and a leaked key must
// not be able to redirect the bot's events or take the key over meanwhile.
var errBotFrozen = botpay.Errorf(botpay.KindForbidden, botpay.CodeWalletFrozen,
	"your owner froze this bot; its API key, profile and callback cannot be changed by the bot until the owner unfreezes it")
