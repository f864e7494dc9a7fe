package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// WalletView reads the bot's card wallet; ok is false before the claim.
func (s *Store) WalletView(ctx context.Context, botID string) (v botpay.WalletView, ok bool, err error) {
	monthStart := ms(botpay.MonthStart(s.clock.Now()))
	err = s.queryRow(ctx, `SELECT w.id, w.balance_cents, w.held_cents,
			(SELECT COUNT(*) FROM topup_requests t WHERE t.bot_id = w.bot_id AND t.status = 'sent'),
			(SELECT COALESCE(SUM(-l.amount_cents), 0) FROM ledger l WHERE l.bot_id = w.bot_id AND l.type = 'spend' AND l.created_at >= $2)
		FROM wallets w WHERE w.bot_id = $1`, botID, monthStart).
		Scan(&v.WalletID, &v.Wallet.Balance, &v.Wallet.Held, &v.PendingTopups, &v.MonthlySpent)
	if isNoRows(err) {
		return v, false, nil
	}
	v.Wallet.BotID = botID
	v.MonthlySpent += v.Wallet.Held
	return v, err == nil, wrapErr(err, "wallet view %s", botID)
}

// Fund credits an owned, claimed bot's card wallet. The balance change, its
// ledger row, the wallet.funded event and the fulfilment of every pending
// top-up request the amount covers (oldest first, each with its
// wallet.topup.completed) are one transaction.
func (s *Store) Fund(ctx context.Context, ownerID, botID string, amount botpay.Money, description string) (botpay.Funding, error) {
	now := s.clock.Now()
	var f botpay.Funding
	err := s.inTx(ctx, func(tx *Tx) error {
		var walletID string
		err := tx.queryRow(ctx, `UPDATE wallets SET balance_cents = balance_cents + $1, updated_at = $2
			WHERE bot_id = $3 AND bot_id IN (SELECT id FROM bots WHERE owner_id = $4)
			RETURNING id, balance_cents, held_cents`, int64(amount), ms(now), botID, ownerID).
			Scan(&walletID, &f.Wallet.Balance, &f.Wallet.Held)
		if isNoRows(err) {
			return botpay.ErrNotFound("bot")
		}
		if err != nil {
			return err
		}
		f.Wallet.BotID = botID
		f.Transaction, err = tx.appendLedger(ctx, botID, botpay.TxFund, amount, &f.Wallet.Balance, description, now)
		if err != nil {
			return err
		}
		if err := tx.emit(botpay.NewEvent(botID, botpay.WalletFundedData{
			WalletID: walletID, Amount: amount, Currency: "USD", NewBalance: f.Wallet.Available(),
		}, now)); err != nil {
			return err
		}
		f.Fulfilled, err = tx.fulfilTopups(ctx, botID, walletID, amount, f.Wallet.Available(), now)
		return err
	})
	return f, wrapErr(err, "fund %s", botID)
}

func (t *Tx) appendLedger(ctx context.Context, botID, typ string, amount botpay.Money, after *botpay.Money, description string, now time.Time) (botpay.Transaction, error) {
	return ledger.Append(ctx, t.k, botID, typ, amount, after, description, now)
}

func (t *Tx) fulfilTopups(ctx context.Context, botID, walletID string, funded, newBalance botpay.Money, now time.Time) ([]botpay.TopupRequest, error) {
	rows, err := t.query(ctx, `SELECT id, amount_cents FROM topup_requests WHERE bot_id = $1 AND status = 'sent' ORDER BY id`, botID)
	if err != nil {
		return nil, err
	}
	var covered []botpay.TopupRequest
	for rows.Next() {
		var r botpay.TopupRequest
		if err := rows.Scan(&r.ID, &r.Amount); err != nil {
			rows.Close()
			return nil, err
		}
		if r.Amount > funded {
			break
		}
		funded -= r.Amount
		covered = append(covered, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range covered {
		r := &covered[i]
		r.BotID, r.Status = botID, botpay.TopupFulfilled
		if _, err := t.exec(ctx, `UPDATE topup_requests SET status = 'fulfilled', fulfilled_at = $1 WHERE id = $2`, ms(now), r.ID); err != nil {
			return nil, err
		}
		if err := t.emit(botpay.NewEvent(botID, botpay.WalletTopupCompletedData{
			WalletID: walletID, Amount: r.Amount, Currency: "USD", NewBalance: newBalance,
		}, now)); err != nil {
			return nil, err
		}
	}
	return covered, nil
}

// Transactions pages through a bot's ledger rows, newest first; the ledger
// id is the position (it follows insertion, and ledger_bot indexes it).
func (s *Store) Transactions(ctx context.Context, botID string, page botpay.PageRequest) (botpay.Page[botpay.Transaction], error) {
	q, args := kernel.Keyset(`SELECT id, type, amount_cents, balance_after_cents, description, created_at, id
		FROM ledger WHERE bot_id = $1`, []any{botID}, "id", kernel.NewestFirst, page)
	v, err := kernel.ReadPage(ctx, s.db, q, args, page.Limit, func(row interface{ Scan(...any) error }) (botpay.Transaction, error) {
		tr := botpay.Transaction{BotID: botID}
		var after sql.NullInt64
		var created int64
		if err := row.Scan(&tr.ID, &tr.Type, &tr.Amount, &after, &tr.Description, &created); err != nil {
			return tr, err
		}
		if after.Valid {
			m := botpay.Money(after.Int64)
			tr.BalanceAfter = &m
		}
		tr.CreatedAt = fromMS(created)
		return tr, nil
	})
	return v, wrapErr(err, "transactions %s", botID)
}

// LedgerSum adds up every ledger amount of a bot (for reconciliation).
func (s *Store) LedgerSum(ctx context.Context, botID string) (botpay.Money, error) {
	var sum botpay.Money
	err := s.queryRow(ctx, `SELECT COALESCE(SUM(amount_cents), 0) FROM ledger WHERE bot_id = $1`, botID).Scan(&sum)
	return sum, wrapErr(err, "ledger sum %s", botID)
}

// CreateTopupRequest records a bot's request for money.
func (s *Store) CreateTopupRequest(ctx context.Context, r botpay.TopupRequest) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `INSERT INTO topup_requests (bot_id, amount_cents, reason, status, owner_notified, created_at)
			VALUES ($1, $2, $3, 'sent', $4, $5) RETURNING id`, r.BotID, int64(r.Amount), r.Reason, false, ms(r.CreatedAt)).Scan(&id)
	})
	return id, wrapErr(err, "create topup request")
}

// MarkTopupNotified records that the owner's e-mail went out.
func (s *Store) MarkTopupNotified(ctx context.Context, id int64) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE topup_requests SET owner_notified = $1 WHERE id = $2`, true, id)
		return err
	}), "mark topup notified")
}
