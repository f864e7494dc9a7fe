package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
)

// lockedWallet is a claimed bot's wallet row, locked for this transaction
// (ledger.LockWallet).
type lockedWallet = ledger.Wallet

// lockWallet takes the wallet lock that orders every change to the bot's
// money (ledger.LockWallet).
func (t *Tx) lockWallet(ctx context.Context, botID string) (w lockedWallet, ok bool, err error) {
	return ledger.LockWallet(ctx, t.k, botID)
}

// walletStep is lockWallet as a pipeline step.
func walletStep(t *Tx, botID string, w *lockedWallet, found *bool) step {
	return ledger.LockWalletStep(t.k, botID, w, found)
}

// LowBalance says that a change took the available balance below the bot's
// low-balance threshold.
type LowBalance = ledger.LowBalance

// lowBalance emits wallet.balance.low when the change crossed the
// threshold.
func (t *Tx) lowBalance(w lockedWallet, before, after botpay.Money, now time.Time) (*LowBalance, error) {
	return t.s.outbox.CrossLowBalance(t.k, w, before, after, now)
}

// checkoutRateLimit refuses a checkout (card wallet or rail5, decided or
// declined ones all count) when the bot already made l.Max of them in the
// rolling window. The checkouts themselves are the hits: no counter rows
// are written, and the caller's wallet lock serialises the bot's checkouts.
// w is the bot's locked wallet. (Card checkouts read the same probe with
// their usage, in usageStep.)
func (t *Tx) checkoutRateLimit(ctx context.Context, w lockedWallet, l Limit, now time.Time) error {
	if l.Max <= 0 {
		return nil
	}
	var at *int64
	err := t.queryRow(ctx, `SELECT `+maxthLatestCheckout("$1", "$2"), w.BotID, w.Seq+1-int64(l.Max)).Scan(&at)
	if err != nil {
		return err
	}
	return botpay.CheckoutRateLimit(l.Max, l.Window, fromNullableMS(at), now)
}

// numberCheckout records, with COMMIT, seq as the number of the bot's latest
// checkout (the caller holds the wallet lock and inserted that checkout).
func (t *Tx) numberCheckout(botID string, seq int64) {
	t.atCommit(step{Query: `UPDATE wallets SET checkout_seq = $1 WHERE bot_id = $2`, Args: []any{seq, botID}})
}
