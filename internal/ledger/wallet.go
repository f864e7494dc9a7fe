package ledger

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Wallet is a claimed bot's wallet row, locked for this transaction.
type Wallet struct {
	ID        string
	BotID     string
	OwnerID   string
	Frozen    bool
	Balance   botpay.Money
	Held      botpay.Money
	Threshold botpay.Money
	Seq       int64 // the number of the bot's latest checkout (card or rail5)
	// ConfigVersion is the version of the bot's spending configuration.
	ConfigVersion int64
}

// Available is the balance less what is held.
func (w Wallet) Available() botpay.Money { return w.Balance - w.Held }

// LockWallet locks the bot's wallet for the rest of the transaction: every
// change to a bot's money or purchases takes this lock first, so
// concurrent checkouts, decisions and expiries of one bot run one after
// another and budgets and balances are read exactly. ok is false when the
// bot has no wallet (not claimed).
func LockWallet(ctx context.Context, tx *kernel.Tx, botID string) (w Wallet, ok bool, err error) {
	err = tx.Pipeline(ctx, LockWalletStep(tx, botID, &w, &ok))
	return w, ok, err
}

// LockWalletStep is LockWallet as a pipeline step. It locks only the
// wallet row, and in the mode an UPDATE of its balance takes: the bot row
// stays free for the foreign-key checks of inserts that reference the bot
// (the dispatcher's pending messages, other requests' rows), which FOR
// UPDATE on it would make wait.
func LockWalletStep(tx *kernel.Tx, botID string, w *Wallet, found *bool) kernel.Step {
	w.BotID = botID
	return kernel.Step{Query: `SELECT w.id, b.owner_id, b.frozen, w.balance_cents, w.held_cents, w.low_balance_cents, w.checkout_seq,
			w.config_version FROM wallets w JOIN bots b ON b.id = w.bot_id WHERE w.bot_id = $1` + tx.Driver().LockForNoKeyUpdate("w"),
		Args: []any{botID},
		Dest: []any{&w.ID, &w.OwnerID, &w.Frozen, &w.Balance, &w.Held, &w.Threshold, &w.Seq, &w.ConfigVersion}, Found: found}
}

// LowBalance says that a change took the available balance below the bot's
// low-balance threshold.
type LowBalance struct{ Available, Threshold botpay.Money }

// CrossLowBalance emits wallet.balance.low when the available balance
// falls below the bot's threshold: once per crossing, not on every later
// debit.
func (o *Outbox) CrossLowBalance(tx *kernel.Tx, w Wallet, before, after botpay.Money, now time.Time) (*LowBalance, error) {
	if before < w.Threshold || after >= w.Threshold {
		return nil, nil
	}
	err := o.Emit(tx, botpay.NewEvent(w.BotID, botpay.BalanceLowData{
		WalletID: w.ID, CurrentBalance: after, Currency: "USD",
		Message: "Your available balance is below $" + w.Threshold.USD() + "; ask your owner for a top-up (POST /api/v1/bot/wallet/topup-request).",
	}, now))
	return &LowBalance{Available: after, Threshold: w.Threshold}, err
}

// NumberCheckout records, with COMMIT, seq as the number of the bot's
// latest checkout, card or rail5 (the caller holds the wallet lock and
// inserted that checkout).
func NumberCheckout(tx *kernel.Tx, botID string, seq int64) {
	tx.AtCommit(kernel.Step{Query: `UPDATE wallets SET checkout_seq = $1 WHERE bot_id = $2`, Args: []any{seq, botID}})
}

// MaxthLatestCheckout is the time of the bot's checkout (card or rail5)
// number seq, or NULL: with seq the latest number + 1 - the limit, it is
// the limit-th most recent one, and a single probe of each table's
// (bot_id, bot_seq) index answers the rate limit whatever the limit is.
// The arguments are SQL expressions.
func MaxthLatestCheckout(bot, seq string) string {
	return `MAX(created_at) FROM (
		SELECT created_at FROM purchases WHERE bot_id = ` + bot + ` AND bot_seq = ` + seq + `
		UNION ALL
		SELECT created_at FROM rail5_checkouts WHERE bot_id = ` + bot + ` AND bot_seq = ` + seq + `) maxth`
}

// MonthSpendSet is the SET fragment of the debit that writes a spend ledger
// row: it adds amount (an SQL expression) to the wallet's spend of the month
// starting at month (an SQL expression, Unix milliseconds), starting the
// month's sum afresh when month is newer than the one kept. A debit whose
// month is older than the one kept (its clock read before a month change
// that another debit already recorded) changes nothing there: its spend row
// belongs to the older month, which no reader asks for any more.
func MonthSpendSet(amount, month string) string {
	return `month_spent_cents = CASE WHEN spent_month < ` + month + ` THEN ` + amount +
		` WHEN spent_month = ` + month + ` THEN month_spent_cents + ` + amount + ` ELSE month_spent_cents END, ` +
		`spent_month = CASE WHEN spent_month < ` + month + ` THEN ` + month + ` ELSE spent_month END`
}

// MonthSpent is the SQL expression of what the bot of wallet alias w spent
// in the month starting at month (Unix milliseconds): the sum of that
// month's spend ledger rows, kept by MonthSpendSet. A month kept later than
// month (a reader whose clock is behind the writer's) counts too, as a sum
// of rows created since month would.
func MonthSpent(w, month string) string {
	return `CASE WHEN ` + w + `.spent_month >= ` + month + ` THEN ` + w + `.month_spent_cents ELSE 0 END`
}
