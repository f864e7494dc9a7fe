package wallets

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// walletFigures are the two figures a wallet shows beside its row, for the
// wallet of alias w: its bot's top-up requests waiting for the owner, and
// what it spent since monthStart (a placeholder).
func walletFigures(w, monthStart string) string {
	return `(SELECT COUNT(*) FROM topup_requests t WHERE t.bot_id = ` + w + `.bot_id AND t.status = 'sent'),
		` + ledger.MonthSpent(w, monthStart)
}

var walletViewQuery = `SELECT w.id, w.balance_cents, w.held_cents, ` + walletFigures("w", "$2") + `
	FROM wallets w WHERE w.bot_id = $1`

// WalletView reads the bot's card wallet; ok is false before the claim.
func (s *Service) WalletView(ctx context.Context, botID string) (v botpay.WalletView, ok bool, err error) {
	monthStart := ms(botpay.MonthStart(s.clock.Now()))
	err = s.db.QueryRow(ctx, walletViewQuery, botID, monthStart).
		Scan(&v.WalletID, &v.Wallet.Balance, &v.Wallet.Held, &v.PendingTopups, &v.MonthlySpent)
	if isNoRows(err) {
		return v, false, nil
	}
	v.Wallet.BotID = botID
	v.MonthlySpent += v.Wallet.Held
	return v, err == nil, wrapErr(err, "wallet view %s", botID)
}

// transactions pages through a bot's ledger rows, newest first; the ledger
// id is the position (it follows insertion, and ledger_bot indexes it).
func (s *Service) transactions(ctx context.Context, botID string, page botpay.PageRequest) (botpay.Page[botpay.Transaction], error) {
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

// LedgerMonthSpend adds up the bot's spend ledger rows of the current UTC
// month (for reconciliation: the wallet keeps the same sum, see
// ledger.MonthSpendSet).
func (s *Service) LedgerMonthSpend(ctx context.Context, botID string) (botpay.Money, error) {
	var sum botpay.Money
	err := s.db.QueryRow(ctx, `SELECT CAST(COALESCE(SUM(-amount_cents), 0) AS BIGINT) FROM ledger
		WHERE bot_id = $1 AND type = 'spend' AND created_at >= $2`, botID, ms(botpay.MonthStart(s.clock.Now()))).Scan(&sum)
	return sum, wrapErr(err, "ledger month spend %s", botID)
}

// LedgerSum adds up every ledger amount of a bot (for reconciliation).
func (s *Service) LedgerSum(ctx context.Context, botID string) (botpay.Money, error) {
	var sum botpay.Money
	err := s.db.QueryRow(ctx, `SELECT COALESCE(SUM(amount_cents), 0) FROM ledger WHERE bot_id = $1`, botID).Scan(&sum)
	return sum, wrapErr(err, "ledger sum %s", botID)
}
