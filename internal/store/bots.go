package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// ActivateWallet creates the card wallet and default guardrails of a newly
// claimed bot and emits wallet.activated, in the caller's transaction
// (registration with a pairing code and the claim, in internal/bots).
func (s *Store) ActivateWallet(ctx context.Context, k *kernel.Tx, botID string, now time.Time) error {
	return (&Tx{k: k, s: s}).activateWallet(ctx, botID, now)
}

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

// errBotFrozen refuses a frozen bot's own changes to its key, profile or
// callback: freezing is how an owner contains a bot, and a leaked key must
// not be able to redirect the bot's events or take the key over meanwhile.
var errBotFrozen = botpay.Errorf(botpay.KindForbidden, botpay.CodeWalletFrozen,
	"your owner froze this bot; its API key, profile and callback cannot be changed by the bot until the owner unfreezes it")

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
	q, args := kernel.Keyset(`SELECT `+botColumns+`, seq FROM bots WHERE owner_id = $1`, []any{ownerID}, "seq", kernel.OldestFirst, page)
	v, err := kernel.ReadPage(ctx, s.db, q, args, page.Limit, scanBot)
	return v, wrapErr(err, "owner bots %s", ownerID)
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
