package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// lockedWallet is a claimed bot's wallet row, locked for this transaction.
type lockedWallet struct {
	id        string
	botID     string
	ownerID   string
	frozen    bool
	balance   botpay.Money
	held      botpay.Money
	threshold botpay.Money
	seq       int64 // the number of the bot's latest checkout (card or rail5)
	// configVersion is the version of the bot's spending configuration
	// (checkoutConfig).
	configVersion int64
}

func (w lockedWallet) available() botpay.Money { return w.balance - w.held }

// lockWallet locks the bot's wallet for the rest of the
// transaction: every change to a bot's money or purchases takes this lock
// first, so concurrent checkouts, decisions and expiries of one bot run one
// after another and budgets and balances are read exactly. ok is false when
// the bot has no wallet (not claimed).
func (t *Tx) lockWallet(ctx context.Context, botID string) (w lockedWallet, ok bool, err error) {
	err = t.pipeline(ctx, walletStep(t, botID, &w, &ok))
	return w, ok, err
}

// lockWalletRow locks only the wallet row, and in the mode an UPDATE of its
// balance takes: the bot row stays free for the foreign-key checks of
// inserts that reference the bot (the dispatcher's pending messages, other
// requests' rows), which FOR UPDATE on it would make wait.
func (t *Tx) lockWalletRow() string { return t.s.dialect.lockForNoKeyUpdate("w") }

// walletStep is lockWallet as a pipeline step.
func walletStep(t *Tx, botID string, w *lockedWallet, found *bool) step {
	w.botID = botID
	return step{query: `SELECT w.id, b.owner_id, b.frozen, w.balance_cents, w.held_cents, w.low_balance_cents, w.checkout_seq,
			w.config_version FROM wallets w JOIN bots b ON b.id = w.bot_id WHERE w.bot_id = $1` + t.lockWalletRow(), args: []any{botID},
		dest: []any{&w.id, &w.ownerID, &w.frozen, &w.balance, &w.held, &w.threshold, &w.seq, &w.configVersion}, found: found}
}

// LowBalance says that a change took the available balance below the bot's
// low-balance threshold.
type LowBalance struct{ Available, Threshold botpay.Money }

// lowBalance emits wallet.balance.low when the available balance falls
// below the bot's threshold: once per crossing, not on every later debit.
func (t *Tx) lowBalance(w lockedWallet, before, after botpay.Money, now time.Time) (*LowBalance, error) {
	if before < w.threshold || after >= w.threshold {
		return nil, nil
	}
	err := t.emit(botpay.NewEvent(w.botID, botpay.BalanceLowData{
		WalletID: w.id, CurrentBalance: after, Currency: "USD",
		Message: "Your available balance is below $" + w.threshold.USD() + "; ask your owner for a top-up (POST /api/v1/bot/wallet/topup-request).",
	}, now))
	return &LowBalance{Available: after, Threshold: w.threshold}, err
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
	err := t.queryRow(ctx, `SELECT `+maxthLatestCheckout("$1", "$2"), w.botID, w.seq+1-int64(l.Max)).Scan(&at)
	if err != nil {
		return err
	}
	return botpay.CheckoutRateLimit(l.Max, l.Window, fromNullableMS(at), now)
}

// numberCheckout records, with COMMIT, seq as the number of the bot's latest
// checkout (the caller holds the wallet lock and inserted that checkout).
func (t *Tx) numberCheckout(botID string, seq int64) {
	t.atCommit(step{query: `UPDATE wallets SET checkout_seq = $1 WHERE bot_id = $2`, args: []any{seq, botID}})
}
