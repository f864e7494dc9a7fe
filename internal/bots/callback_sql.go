package bots

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// setCallbackURL points the bot's webhook at url and resets its health to
// active/0 (docs/api.md recovery). ownerID restricts it to the owner's
// bots when not empty; when empty the bot itself asks, and a frozen bot is
// refused. It returns the bot, read under the lock and changed, and the
// URL it replaced.
func (s *Service) setCallbackURL(ctx context.Context, ownerID, botID, url string) (botpay.Bot, string, error) {
	now := s.clock.Now()
	var b botpay.Bot
	var previous string
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		b, err = scanBot(tx.QueryRow(ctx, `SELECT `+ledger.BotColumns+` FROM bots WHERE id = $1`+tx.ForUpdate(), botID))
		if isNoRows(err) || (err == nil && ownerID != "" && b.OwnerID != ownerID) {
			return botpay.ErrNotFound("bot")
		}
		if err != nil {
			return err
		}
		if ownerID == "" && b.Frozen {
			return errBotFrozen
		}
		_, err = tx.Exec(ctx, `UPDATE bots SET callback_url = $1, webhook_status = $2, webhook_fail_count = 0, updated_at = $3 WHERE id = $4`,
			url, botpay.WebhookActive, kernel.MS(now), botID)
		previous, b.CallbackURL, b.WebhookStatus, b.WebhookFailCount = b.CallbackURL, url, botpay.WebhookActive, 0
		return err
	})
	if err != nil {
		return botpay.Bot{}, "", wrapErr(err, "set callback url %s", botID)
	}
	return b, previous, nil
}
