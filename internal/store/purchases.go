package store

import (
	"context"

	"github.com/botpay/botpay/internal/ledger"
)

// lockedWallet is a claimed bot's wallet row, locked for this transaction
// (ledger.LockWallet).
type lockedWallet = ledger.Wallet

// lockWallet takes the wallet lock that orders every change to the bot's
// money (ledger.LockWallet).
func (t *Tx) lockWallet(ctx context.Context, botID string) (w lockedWallet, ok bool, err error) {
	return ledger.LockWallet(ctx, t.k, botID)
}
