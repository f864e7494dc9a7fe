package bots

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// setCallbackURL points the bot's webhook at url and resets its health to
// active/0 (docs/api.md recovery). ownerID restricts it to the owner's
// bots when not empty; when empty the bot itself asks, and a frozen bot is
// refused. It returns the bot and the URL it replaced.
func (s *Service) setCallbackURL(ctx context.Context, ownerID, botID, url string) (botpay.Bot, string, error) {
	now := s.clock.Now()
	var previous sql.NullString
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var owner sql.NullString
		var frozen bool
		err := tx.QueryRow(ctx, `SELECT callback_url, owner_id, frozen FROM bots WHERE id = $1`+tx.ForUpdate(), botID).
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
		_, err = tx.Exec(ctx, `UPDATE bots SET callback_url = $1, webhook_status = $2, webhook_fail_count = 0, updated_at = $3 WHERE id = $4`,
			url, botpay.WebhookActive, kernel.MS(now), botID)
		return err
	})
	if err != nil {
		return botpay.Bot{}, "", wrapErr(err, "set callback url %s", botID)
	}
	b, err := s.Bot(ctx, botID)
	return b, previous.String, wrapErr(err, "set callback url %s", botID)
}
