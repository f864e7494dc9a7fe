package store

import (
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// debitAndRecordPG is, on PostgreSQL, the whole write of an auto-approved
// real purchase in one statement: the debit with the bot's new checkout
// number (numberCheckout), its spend ledger row, its count in the running
// totals (countSpend), the purchase row with the ledger id and that number,
// and its wallet.spend.authorized event as emit writes it. Each statement
// costs the server more than most of the rows it writes. The caller holds
// the wallet lock, so the balance after the debit is known beforehand. It
// writes exactly what capture, emit, insertPurchase, numberCheckout and
// countSpend write on SQLite. The statement travels with COMMIT.
func (t *Tx) debitAndRecordPG(w lockedWallet, p botpay.Purchase, now time.Time) (*LowBalance, error) {
	balance := w.balance - p.Amount
	args := []any{int64(p.Amount), ms(now), p.BotID, -int64(p.Amount), purchaseDescription(p),
		p.ID, p.OwnerID, p.CardID, p.ProfileIndex, p.Decoy, p.MerchantName, p.MerchantURL, p.ItemName, p.Category,
		nullString(p.TaskID), p.Status, w.seq + 1}
	days, daysArgs := countDeltaSQL("cents", purchaseScopes(p), len(args)+1, ms(now), int64(p.Amount))
	args = append(args, daysArgs...)
	ev, err := writeEvent(botpay.NewEvent(p.BotID, botpay.EventSpendAuthorized, map[string]any{
		"amount": p.Amount, "currency": "USD", "vendor": p.MerchantName, "description": purchaseDescription(p),
		"remaining_balance": balance - w.held,
	}, now), len(args)+1)
	if err != nil {
		return nil, err
	}
	args = append(args, ev.args...)
	var staged int
	t.atCommit(step{query: `WITH debit AS (
			UPDATE wallets SET balance_cents = balance_cents - $1, updated_at = $2, checkout_seq = $17 WHERE bot_id = $3
			RETURNING balance_cents
		), spend AS (
			INSERT INTO ledger (bot_id, type, amount_cents, balance_after_cents, description, created_at)
			SELECT $3, 'spend', $4, debit.balance_cents, $5, $2 FROM debit RETURNING id
		), days AS (` + days + `), ` + ev.staged + `, o AS (` + ev.outbox + `), pm AS (` + ev.pending + `)
		INSERT INTO purchases (id, bot_id, owner_id, card_id, profile_index, decoy, amount_cents, merchant_name,
			merchant_url, item_name, category, task_id, status, created_at, expires_at, decided_at, ledger_id, bot_seq)
		SELECT $6, $3, $7, $8, $9, $10, $1, $11, $12, $13, $14, $15, $16, $2, NULL, $2, spend.id, $17 FROM spend
		RETURNING (SELECT COUNT(*) FROM pm)`,
		args: args, dest: []any{&staged}})
	t.staged = append(t.staged, func() bool { return staged > 0 })
	before := w.available()
	return t.lowBalance(w, before, before-p.Amount, now)
}
