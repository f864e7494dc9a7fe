package bots

import (
	"context"
	"errors"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// errClaimTokenTaken means a freshly drawn claim token collided with a live
// one; the caller draws another.
var errClaimTokenTaken = errors.New("claim token collision")

// NewBot is everything registration stores. Secrets come as digests (for
// those checked like passwords) or sealed bytes (for those the service must
// use later, such as the webhook secret).
type NewBot struct {
	Bot                 botpay.Bot
	APIKeyHash          string
	ClaimTokenHash      string // empty when a pairing code is used
	PairingCodeHash     string // empty without a pairing code
	WebhookSecretSealed []byte
	TunnelTokenHash     string
	HooksTokenSealed    []byte
	Limit               Limit // registrations per client IP
}

// RegisterBot stores a new bot after taking a slot of its rate limit. With a
// pairing code the bot is claimed at once: the code is consumed, the wallet
// and guardrails created and wallet.activated emitted, all in one
// transaction. It returns the owner ID when paired.
func (s *Service) RegisterBot(ctx context.Context, nb NewBot) (ownerID string, err error) {
	now := nb.Bot.CreatedAt
	var badCode bool
	err = s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if err := s.take(ctx, tx, nb.Limit, now); err != nil {
			return err
		}
		if nb.PairingCodeHash != "" {
			err := tx.QueryRow(ctx, `SELECT owner_id FROM pairing_codes WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2`+tx.ForUpdate(),
				nb.PairingCodeHash, kernel.MS(now)).Scan(&ownerID)
			if isNoRows(err) {
				// Commit the rate-limit hit: guessing codes must cost attempts.
				badCode = true
				return nil
			}
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE pairing_codes SET used_at = $1, used_by = $2 WHERE code_hash = $3`, kernel.MS(now), nb.Bot.ID, nb.PairingCodeHash); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bots WHERE owner_email = $1 AND name = $2`, nb.Bot.OwnerEmail, nb.Bot.Name).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errDuplicateRegistration
		}
		if nb.ClaimTokenHash != "" {
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bots WHERE claim_token_hash = $1`, nb.ClaimTokenHash).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return errClaimTokenTaken
			}
		}
		if err := insertBot(ctx, tx, nb, ownerID); err != nil {
			if errors.Is(err, kernel.ErrUnique) {
				return errDuplicateRegistration
			}
			return err
		}
		if ownerID != "" {
			return activateWallet(ctx, s.outbox, tx, nb.Bot.ID, now)
		}
		return nil
	})
	if err == nil && badCode {
		return "", botpay.Errorf(botpay.KindInvalid, botpay.CodeInvalidPairingCode, "the pairing code is invalid, expired or already used")
	}
	return ownerID, wrapErr(err, "register bot")
}

var errDuplicateRegistration = botpay.Errorf(botpay.KindConflict, botpay.CodeDuplicateRegistration,
	"a bot with this name is already registered for this owner e-mail")

func insertBot(ctx context.Context, t *kernel.Tx, nb NewBot, ownerID string) error {
	b := nb.Bot
	var claimedAt *int64
	if ownerID != "" {
		v := kernel.MS(b.CreatedAt)
		claimedAt = &v
	}
	_, err := t.Exec(ctx, `INSERT INTO bots (id, name, owner_email, description, bot_type, api_key_hash, claim_token_hash,
		owner_id, claimed_at, callback_url, webhook_secret_sealed, webhook_status, webhook_fail_count,
		tunnel_token_hash, hooks_token_sealed, local_port, webhook_path, frozen, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $14, $15, $16, $17, $18, $18)`,
		b.ID, b.Name, b.OwnerEmail, b.Description, b.BotType, nb.APIKeyHash, nullString(nb.ClaimTokenHash),
		nullString(ownerID), claimedAt, nullString(b.CallbackURL), nb.WebhookSecretSealed, b.WebhookStatus,
		nullString(nb.TunnelTokenHash), nb.HooksTokenSealed, nullInt(b.LocalPort), nullString(b.WebhookPath), false, kernel.MS(b.CreatedAt))
	return err
}
