package wallets

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// setFrozen freezes or unfreezes an owned bot's wallet and emits
// rails.updated; setting the current value again changes and emits nothing.
// It answers the bot as it stands after the change, read under the lock.
func (s *Service) setFrozen(ctx context.Context, ownerID, botID string, frozen bool) (botpay.Bot, error) {
	now := s.clock.Now()
	var b botpay.Bot
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		b, err = ledger.ScanBot(tx.QueryRow(ctx, `SELECT `+ledger.BotColumns+` FROM bots WHERE id = $1 AND owner_id = $2`+tx.ForUpdate(), botID, ownerID))
		if isNoRows(err) {
			return botpay.ErrNotFound("bot")
		}
		if err != nil || b.Frozen == frozen {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE bots SET frozen = $1, updated_at = $2 WHERE id = $3`, frozen, ms(now), botID); err != nil {
			return err
		}
		b.Frozen = frozen
		action, msg := botpay.ActionWalletUnfrozen, "Your owner unfroze your wallet."
		if frozen {
			action, msg = botpay.ActionWalletFrozen, "Your owner froze your wallet; spending is blocked."
		}
		return s.outbox.Emit(tx, railsUpdated(botID, action, msg, now))
	})
	if err != nil {
		return botpay.Bot{}, wrapErr(err, "set frozen %s", botID)
	}
	return b, nil
}

// railsUpdated is the rails.updated event of an owner's change to the
// card wallet.
func railsUpdated(botID, action, message string, now time.Time) botpay.Event {
	rail := botpay.RailCardWallet
	return botpay.NewEvent(botID, botpay.RailsUpdatedData{
		Action: action, Rail: &rail, BotID: botID, Message: message,
	}, now)
}
