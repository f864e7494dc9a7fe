package spending

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// The writes of an admitted checkout. Each write is one SQL fragment
// (debitSQL, ledger.EntrySQL, purchaseSQL, ledger.CountDeltaSQL,
// ledger.WriteEvent) that numbers its arguments where the statement it
// joins left off: the general path runs each as a statement of its own
// (recordAdmitted), the fast path joins them into one
// (recordApprovedInOne), so the two write the same rows by construction
// (TestCheckoutFastPathWritesWhatTheGeneralPathWrites compares them).

// debitSQL debits p's amount (from its hold when fromHold) and adds it to
// the wallet's spend of the month, numbering the bot's checkouts up to seq
// when seq is not 0, and returns the wallet's balance and hold after it.
func debitSQL(a *ledger.Args, p botpay.Purchase, fromHold bool, seq int64, now time.Time) string {
	held := botpay.Money(0)
	if fromHold {
		held = p.Amount
	}
	amount := a.Add(int64(p.Amount))
	q := `UPDATE wallets SET balance_cents = balance_cents - ` + amount +
		`, held_cents = held_cents - ` + a.Add(int64(held)) + `, updated_at = ` + a.Add(ms(now)) +
		`, ` + ledger.MonthSpendSet(amount, a.Add(ms(botpay.MonthStart(now))))
	if seq != 0 {
		q += `, checkout_seq = ` + a.Add(seq)
	}
	return q + ` WHERE bot_id = ` + a.Add(p.BotID) + ` RETURNING balance_cents, held_cents`
}

// purchaseSQL inserts p, number seq of its bot's checkouts
// (ledger.NumberCheckout), with the SQL expression ledgerID; the caller
// adds FROM when the expression needs it.
func purchaseSQL(a *ledger.Args, p botpay.Purchase, seq int64, ledgerID string) string {
	return `INSERT INTO purchases (id, bot_id, owner_id, card_id, profile_index, decoy, amount_cents, merchant_name,
			merchant_url, item_name, category, task_id, status, created_at, expires_at, decided_at, ledger_id, bot_seq) SELECT ` +
		a.Add(p.ID) + `, ` + a.Add(p.BotID) + `, ` + a.Add(p.OwnerID) + `, ` + a.Add(p.CardID) + `, ` + a.Add(p.ProfileIndex) + `, ` +
		a.Add(p.Decoy) + `, ` + a.Add(int64(p.Amount)) + `, ` + a.Add(p.MerchantName) + `, ` + a.Add(p.MerchantURL) + `, ` +
		a.Add(p.ItemName) + `, ` + a.Add(p.Category) + `, ` + a.Add(nullString(p.TaskID)) + `, ` + a.Add(p.Status) + `, ` +
		a.Add(ms(p.CreatedAt)) + `, ` + a.Add(nullTime(p.ExpiresAt)) + `, ` + a.Add(nullTime(p.DecidedAt)) + `, ` +
		ledgerID + `, ` + a.Add(seq)
}

// spendAuthorized is wallet.spend.authorized of p, remaining the available
// balance after it.
func spendAuthorized(p botpay.Purchase, remaining botpay.Money, now time.Time) botpay.Event {
	return botpay.NewEvent(p.BotID, botpay.SpendAuthorizedData{
		Amount: p.Amount, Currency: "USD", Vendor: p.MerchantName, Description: botpay.PurchaseDescription(p),
		RemainingBalance: remaining,
	}, now)
}

// recordAdmitted writes an admitted checkout statement by statement: the
// money moves first (so the purchase row carries its ledger id), then the
// purchase, its number and its count in the running totals.
func (s *Service) recordAdmitted(ctx context.Context, tx *kernel.Tx, w ledger.Wallet, p *botpay.Purchase, now time.Time) (*ledger.LowBalance, error) {
	low, err := s.applyNewPurchase(ctx, tx, w, p, now)
	if err != nil {
		return nil, err
	}
	if err := insertPurchase(ctx, tx, *p, w.Seq+1); err != nil {
		return nil, err
	}
	ledger.NumberCheckout(tx, p.BotID, w.Seq+1)
	ledger.CountSpend(tx, ledger.PurchaseScopes(*p), ms(now), p.Amount)
	return low, nil
}

// recordApprovedInOne is recordAdmitted of an approved real purchase as one
// statement, sent with COMMIT: each statement costs the server more than
// most of the rows it writes. The caller holds the wallet lock, so the
// balance after the debit is known beforehand.
func (s *Service) recordApprovedInOne(tx *kernel.Tx, w ledger.Wallet, p botpay.Purchase, now time.Time) (*ledger.LowBalance, error) {
	a := make(ledger.Args, 0, 48) // the statement's arguments, about forty
	seq := w.Seq + 1
	debit := debitSQL(&a, p, false, seq, now)
	spend := ledger.EntrySQL(&a, p.BotID, botpay.TxSpend, -p.Amount, "debit.balance_cents", botpay.PurchaseDescription(p), now)
	purchase := purchaseSQL(&a, p, seq, "spend.id")
	days, daysArgs := ledger.CountDeltaSQL("cents", ledger.PurchaseScopes(p), len(a)+1, ms(now), int64(p.Amount))
	a = append(a, daysArgs...)
	ev, err := ledger.WriteEvent(spendAuthorized(p, w.Balance-p.Amount-w.Held, now), len(a)+1)
	if err != nil {
		return nil, err
	}
	a = append(a, ev.Args...)
	var staged int
	tx.AtCommit(kernel.Step{Query: `WITH debit AS (` + debit + `), spend AS (` + spend + ` FROM debit RETURNING id), days AS (` + days + `), ` +
		ev.Staged + `, o AS (` + ev.Outbox + `), pm AS (` + ev.Pending + `) ` +
		purchase + ` FROM spend RETURNING (SELECT COUNT(*) FROM pm)`,
		Args: a, Dest: []any{&staged}})
	s.outbox.NoteEvent(tx, func() bool { return staged > 0 })
	before := w.Available()
	return s.outbox.CrossLowBalance(tx, w, before, before-p.Amount, now)
}

// applyNewPurchase moves the money of a new purchase: a real approved one is
// debited with its spend ledger row, a held one places a hold; a decoy moves
// nothing and writes nothing.
// It runs before the purchase row is written, so the row is inserted with
// its ledger id.
func (s *Service) applyNewPurchase(ctx context.Context, tx *kernel.Tx, w ledger.Wallet, p *botpay.Purchase, now time.Time) (*ledger.LowBalance, error) {
	if p.Decoy {
		return nil, nil
	}
	before := w.Available()
	if p.Status == botpay.PurchasePending {
		if _, err := tx.Exec(ctx, `UPDATE wallets SET held_cents = held_cents + $1, updated_at = $2 WHERE bot_id = $3`,
			int64(p.Amount), ms(now), p.BotID); err != nil {
			return nil, err
		}
		return s.outbox.CrossLowBalance(tx, w, before, before-p.Amount, now)
	}
	ledgerID, err := s.capture(ctx, tx, *p, false, now)
	if err != nil {
		return nil, err
	}
	p.LedgerID = ledgerID
	return s.outbox.CrossLowBalance(tx, w, before, before-p.Amount, now)
}

// capture debits an approved purchase (from the hold when it was held) and
// writes its spend ledger row and wallet.spend.authorized. It returns the
// ledger row's id.
func (s *Service) capture(ctx context.Context, tx *kernel.Tx, p botpay.Purchase, fromHold bool, now time.Time) (int64, error) {
	var a ledger.Args
	var balance, held botpay.Money
	if err := tx.QueryRow(ctx, debitSQL(&a, p, fromHold, 0, now), a...).Scan(&balance, &held); err != nil {
		return 0, err
	}
	tr, err := ledger.Append(ctx, tx, p.BotID, botpay.TxSpend, -p.Amount, &balance, botpay.PurchaseDescription(p), now)
	if err != nil {
		return 0, err
	}
	return tr.ID, s.outbox.Emit(tx, spendAuthorized(p, balance-held, now))
}

// insertPurchase writes a new checkout, number seq of its bot (see
// ledger.NumberCheckout).
func insertPurchase(ctx context.Context, tx *kernel.Tx, p botpay.Purchase, seq int64) error {
	var a ledger.Args
	ledgerID := sql.NullInt64{Int64: p.LedgerID, Valid: p.LedgerID != 0}
	_, err := tx.Exec(ctx, purchaseSQL(&a, p, seq, a.Add(ledgerID)), a...)
	return err
}
