package store

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

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
