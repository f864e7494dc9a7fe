package bots

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// activateWallet creates the card wallet and default guardrails of a newly
// claimed bot and emits wallet.activated, in the claim's transaction
// (registration with a pairing code, or the claim): a claimed bot always
// has both rows, which the checkout and the wallet reads rely on.
func activateWallet(ctx context.Context, outbox *ledger.Outbox, tx *kernel.Tx, botID string, now time.Time) error {
	walletID := botpay.NewID("wal_")
	if _, err := tx.Exec(ctx, `INSERT INTO wallets (bot_id, id, balance_cents, held_cents, created_at, updated_at) VALUES ($1, $2, 0, 0, $3, $3)`,
		botID, walletID, kernel.MS(now)); err != nil {
		return err
	}
	if err := ledger.PutGuardrails(ctx, tx, botID, botpay.DefaultGuardrails(now)); err != nil {
		return err
	}
	return outbox.Emit(tx, botpay.NewEvent(botID, botpay.WalletActivatedData{
		WalletID: walletID, Rail: botpay.RailCardWallet,
		Message: "Your owner claimed you; the card wallet is active.",
	}, now))
}
