package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// apiKeyMatch selects the bot (alias b) whose current key is $1, or whose
// previous key is $1 and still inside its grace period at $2.
const apiKeyMatch = `(b.api_key_hash = $1 OR (b.previous_api_key_hash = $1 AND b.previous_api_key_expires_at > $2))`

// BotByAPIKey authenticates an API key digest: the bot's current key, or
// its previous one until the grace period of a rotation ends. keyExpires is
// when the key stops working (zero for the current key, which does not).
func (s *Store) BotByAPIKey(ctx context.Context, keyHash string) (b botpay.Bot, keyExpires time.Time, err error) {
	var expires sql.NullInt64
	row := s.queryRow(ctx, `SELECT `+prefixedBotColumns+`,
		CASE WHEN b.api_key_hash = $1 THEN NULL ELSE b.previous_api_key_expires_at END
		FROM bots b WHERE `+apiKeyMatch, keyHash, ms(s.clock.Now()))
	b, err = scanBot(withExtra{row: row, extra: []any{&expires}})
	if isNoRows(err) {
		return b, time.Time{}, botpay.ErrNotFound("bot")
	}
	return b, fromNullMS(expires), wrapErr(err, "bot by api key")
}

// KeyRotation is a committed API key rotation.
type KeyRotation struct {
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

// RotateAPIKey gives the bot the key whose digest is NewKeyHash. The key it
// replaces keeps working for grace (zero: it stops at once, a revocation);
// a key that was itself still in a grace period stops at once, so a bot has
// at most two live keys. In the same transaction it bumps api_key_epoch, which tells
// every replica's in-memory authentication to read keys again, and emits
// rails.updated (api_key_rotated).
func (s *Store) RotateAPIKey(ctx context.Context, k RotateKey) (KeyRotation, error) {
	now := s.clock.Now()
	expires := now.Add(k.Grace)
	err := s.inTx(ctx, func(tx *Tx) error {
		var current string
		var owner sql.NullString
		var frozen bool
		err := tx.queryRow(ctx, `SELECT api_key_hash, owner_id, frozen FROM bots WHERE id = $1`+tx.forUpdate(), k.BotID).
			Scan(&current, &owner, &frozen)
		if isNoRows(err) || (err == nil && k.OwnerID != "" && owner.String != k.OwnerID) {
			return botpay.ErrNotFound("bot")
		}
		if err != nil {
			return err
		}
		if k.OwnerID == "" {
			if !botpay.DigestsEqual(current, k.PresentedKeyHash) {
				return botpay.ErrKeySuperseded
			}
			if frozen {
				return errBotFrozen
			}
		}
		var previous any
		if k.Grace > 0 {
			previous = current
		}
		if _, err := tx.exec(ctx, `UPDATE bots SET api_key_hash = $1, previous_api_key_hash = $2,
			previous_api_key_expires_at = $3, updated_at = $4 WHERE id = $5`,
			k.NewKeyHash, previous, ms(expires), ms(now), k.BotID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE api_key_epoch SET epoch = epoch + 1 WHERE id = 1`); err != nil {
			return err
		}
		msg := "Your API key was rotated; the previous key stopped working."
		if k.Grace > 0 {
			msg = "Your API key was rotated; the previous key works until " + botpay.FormatTime(expires) + "."
		}
		previousExpires := botpay.Timestamp(expires)
		return tx.emit(botpay.NewEvent(k.BotID, botpay.RailsUpdatedData{
			Action: botpay.ActionAPIKeyRotated, Rail: nil, BotID: k.BotID, Message: msg,
			PreviousKeyExpiresAt: &previousExpires,
		}, now))
	})
	if err != nil {
		return KeyRotation{}, wrapErr(err, "rotate api key")
	}
	b, err := s.Bot(ctx, k.BotID)
	return KeyRotation{Bot: b, PreviousKeyExpiresAt: expires}, wrapErr(err, "rotate api key")
}

// errBotFrozen refuses a frozen bot's own changes to its key, profile or
// callback: freezing is how an owner contains a bot, and a leaked key must
// not be able to redirect the bot's events or take the key over meanwhile.
var errBotFrozen = botpay.Errorf(botpay.KindForbidden, botpay.CodeWalletFrozen,
	"your owner froze this bot; its API key, profile and callback cannot be changed by the bot until the owner unfreezes it")

// APIKeyEpoch is the number of API key rotations so far, service-wide.
func (s *Store) APIKeyEpoch(ctx context.Context) (int64, error) {
	var epoch int64
	err := s.queryRow(ctx, `SELECT epoch FROM api_key_epoch WHERE id = 1`).Scan(&epoch)
	return epoch, wrapErr(err, "api key epoch")
}
