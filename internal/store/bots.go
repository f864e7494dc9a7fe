package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// ErrClaimTokenTaken means a freshly drawn claim token collided with a live
// one; the caller draws another.
var ErrClaimTokenTaken = errors.New("claim token collision")

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
func (s *Store) RegisterBot(ctx context.Context, nb NewBot) (ownerID string, err error) {
	now := nb.Bot.CreatedAt
	var badCode bool
	err = s.inTx(ctx, func(tx *Tx) error {
		if err := tx.take(ctx, nb.Limit, now); err != nil {
			return err
		}
		if nb.PairingCodeHash != "" {
			err := tx.queryRow(ctx, `SELECT owner_id FROM pairing_codes WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2`+tx.forUpdate(),
				nb.PairingCodeHash, ms(now)).Scan(&ownerID)
			if isNoRows(err) {
				// Commit the rate-limit hit: guessing codes must cost attempts.
				badCode = true
				return nil
			}
			if err != nil {
				return err
			}
			if _, err := tx.exec(ctx, `UPDATE pairing_codes SET used_at = $1, used_by = $2 WHERE code_hash = $3`, ms(now), nb.Bot.ID, nb.PairingCodeHash); err != nil {
				return err
			}
		}
		var n int
		if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM bots WHERE owner_email = $1 AND name = $2`, nb.Bot.OwnerEmail, nb.Bot.Name).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errDuplicateRegistration
		}
		if nb.ClaimTokenHash != "" {
			if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM bots WHERE claim_token_hash = $1`, nb.ClaimTokenHash).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return ErrClaimTokenTaken
			}
		}
		if err := tx.insertBot(ctx, nb, ownerID); err != nil {
			if errors.Is(err, ErrUnique) {
				return errDuplicateRegistration
			}
			return err
		}
		if ownerID != "" {
			return tx.activateWallet(ctx, nb.Bot.ID, now)
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

func (t *Tx) insertBot(ctx context.Context, nb NewBot, ownerID string) error {
	b := nb.Bot
	var claimedAt *int64
	if ownerID != "" {
		v := ms(b.CreatedAt)
		claimedAt = &v
	}
	_, err := t.exec(ctx, `INSERT INTO bots (id, name, owner_email, description, bot_type, api_key_hash, claim_token_hash,
		owner_id, claimed_at, callback_url, webhook_secret_sealed, webhook_status, webhook_fail_count,
		tunnel_token_hash, hooks_token_sealed, local_port, webhook_path, frozen, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $14, $15, $16, $17, $18, $18)`,
		b.ID, b.Name, b.OwnerEmail, b.Description, b.BotType, nb.APIKeyHash, nullString(nb.ClaimTokenHash),
		nullString(ownerID), claimedAt, nullString(b.CallbackURL), nb.WebhookSecretSealed, b.WebhookStatus,
		nullString(nb.TunnelTokenHash), nb.HooksTokenSealed, nullInt(b.LocalPort), nullString(b.WebhookPath), false, ms(b.CreatedAt))
	return err
}

// activateWallet creates the card wallet and default guardrails of a newly
// claimed bot and emits wallet.activated.
func (t *Tx) activateWallet(ctx context.Context, botID string, now time.Time) error {
	walletID := botpay.NewID("wal_")
	if _, err := t.exec(ctx, `INSERT INTO wallets (bot_id, id, balance_cents, held_cents, created_at, updated_at) VALUES ($1, $2, 0, 0, $3, $3)`,
		botID, walletID, ms(now)); err != nil {
		return err
	}
	if err := t.putGuardrails(ctx, botID, botpay.DefaultGuardrails(now)); err != nil {
		return err
	}
	return t.emit(botpay.NewEvent(botID, botpay.WalletActivatedData{
		WalletID: walletID, Rail: botpay.RailCardWallet,
		Message: "Your owner claimed you; the card wallet is active.",
	}, now))
}

const botColumns = `id, name, owner_email, description, bot_type, owner_id, claimed_at, callback_url,
	webhook_status, webhook_fail_count, local_port, webhook_path, frozen, created_at`

func scanBot(row interface{ Scan(...any) error }) (botpay.Bot, error) {
	var b botpay.Bot
	var owner, callback, path sql.NullString
	var claimed, port sql.NullInt64
	var created int64
	err := row.Scan(&b.ID, &b.Name, &b.OwnerEmail, &b.Description, &b.BotType, &owner, &claimed, &callback,
		&b.WebhookStatus, &b.WebhookFailCount, &port, &path, &b.Frozen, &created)
	b.OwnerID, b.CallbackURL, b.WebhookPath = owner.String, callback.String, path.String
	b.ClaimedAt, b.LocalPort, b.CreatedAt = fromNullMS(claimed), int(port.Int64), fromMS(created)
	return b, err
}

// BotByAPIKeyHash authenticates a bot's API key (BotByAPIKey without the
// key's expiry).
func (s *Store) BotByAPIKeyHash(ctx context.Context, keyHash string) (botpay.Bot, error) {
	b, _, err := s.BotByAPIKey(ctx, keyHash)
	return b, wrapErr(err, "bot by api key hash")
}

// Bot loads a bot by ID.
func (s *Store) Bot(ctx context.Context, id string) (botpay.Bot, error) {
	b, err := scanBot(s.queryRow(ctx, `SELECT `+botColumns+` FROM bots WHERE id = $1`, id))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "bot %s", id)
}

// OwnedBot loads a bot only if ownerID owns it; anything else is the same 404.
func (s *Store) OwnedBot(ctx context.Context, ownerID, botID string) (botpay.Bot, error) {
	b, err := scanBot(s.queryRow(ctx, `SELECT `+botColumns+` FROM bots WHERE id = $1 AND owner_id = $2`, botID, ownerID))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "owned bot %s", botID)
}

// OwnerBots pages through an owner's bots, oldest first.
func (s *Store) OwnerBots(ctx context.Context, ownerID string, page botpay.PageRequest) (botpay.Page[botpay.Bot], error) {
	q, args := keyset(`SELECT `+botColumns+`, seq FROM bots WHERE owner_id = $1`, []any{ownerID}, "seq", oldestFirst, page)
	v, err := readPage(ctx, s, q, args, page.Limit, scanBot)
	return v, wrapErr(err, "owner bots %s", ownerID)
}

// SetFrozen freezes or unfreezes an owned bot's wallet and emits
// rails.updated; setting the current value again changes and emits nothing.
func (s *Store) SetFrozen(ctx context.Context, ownerID, botID string, frozen bool) (botpay.Bot, error) {
	now := s.clock.Now()
	err := s.inTx(ctx, func(tx *Tx) error {
		var current bool
		err := tx.queryRow(ctx, `SELECT frozen FROM bots WHERE id = $1 AND owner_id = $2`+tx.forUpdate(), botID, ownerID).Scan(&current)
		if isNoRows(err) {
			return botpay.ErrNotFound("bot")
		}
		if err != nil || current == frozen {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE bots SET frozen = $1, updated_at = $2 WHERE id = $3`, frozen, ms(now), botID); err != nil {
			return err
		}
		action, msg := botpay.ActionWalletUnfrozen, "Your owner unfroze your wallet."
		if frozen {
			action, msg = botpay.ActionWalletFrozen, "Your owner froze your wallet; spending is blocked."
		}
		return tx.emit(railsUpdated(botID, action, msg, now))
	})
	if err != nil {
		return botpay.Bot{}, wrapErr(err, "set frozen %s", botID)
	}
	return s.Bot(ctx, botID)
}

// SetCallbackURL points the bot's webhook at url and resets its health to
// active/0 (docs/api.md recovery). ownerID restricts it to the owner's
// bots when not empty; when empty the bot itself asks, and a frozen bot is
// refused. It returns the bot and the URL it replaced.
func (s *Store) SetCallbackURL(ctx context.Context, ownerID, botID, url string) (botpay.Bot, string, error) {
	now := s.clock.Now()
	var previous sql.NullString
	err := s.inTx(ctx, func(tx *Tx) error {
		var owner sql.NullString
		var frozen bool
		err := tx.queryRow(ctx, `SELECT callback_url, owner_id, frozen FROM bots WHERE id = $1`+tx.forUpdate(), botID).
			Scan(&previous, &owner, &frozen)
		if isNoRows(err) || (err == nil && ownerID != "" && owner.String != ownerID) {
			return botpay.ErrNotFound("bot")
		}
		if err != nil {
			return err
		}
		if ownerID == "" && frozen {
			return errBotFrozen
		}
		_, err = tx.exec(ctx, `UPDATE bots SET callback_url = $1, webhook_status = $2, webhook_fail_count = 0, updated_at = $3 WHERE id = $4`,
			url, botpay.WebhookActive, ms(now), botID)
		return err
	})
	if err != nil {
		return botpay.Bot{}, "", wrapErr(err, "set callback url %s", botID)
	}
	b, err := s.Bot(ctx, botID)
	return b, previous.String, wrapErr(err, "set callback url %s", botID)
}

// PendingMessageCount counts staged, unacknowledged, unexpired messages.
func (s *Store) PendingMessageCount(ctx context.Context, botID string) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM pending_messages WHERE bot_id = $1 AND acked_at IS NULL AND expires_at > $2`,
		botID, ms(s.clock.Now())).Scan(&n)
	return n, wrapErr(err, "pending message count %s", botID)
}

func nullInt(v int) sql.NullInt64 { return sql.NullInt64{Int64: int64(v), Valid: v != 0} }
