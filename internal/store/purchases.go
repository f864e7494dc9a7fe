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

// checkoutRateLimit refuses a rail5 checkout when the bot already made
// l.Max checkouts (card wallet or rail5, decided or declined ones all
// count) in the rolling window. The checkouts themselves are the hits: no
// counter rows are written, and the caller's wallet lock serialises the
// bot's checkouts. w is the bot's locked wallet. (Card checkouts read the
// same probe with their usage, in internal/spending.)
func (t *Tx) checkoutRateLimit(ctx context.Context, w lockedWallet, l Limit, now time.Time) error {
	if l.Max <= 0 {
		return nil
	}
	var at *int64
	err := t.queryRow(ctx, `SELECT `+ledger.MaxthLatestCheckout("$1", "$2"), w.BotID, w.Seq+1-int64(l.Max)).Scan(&at)
	if err != nil {
		return err
	}
	var latest *time.Time
	if at != nil {
		v := fromMS(*at)
		latest = &v
	}
	return botpay.CheckoutRateLimit(l.Max, l.Window, latest, now)
}
