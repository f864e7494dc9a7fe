package store

import (
	"context"
	"database/sql"
	"regexp"

	"github.com/botpay/botpay/internal/botpay"
)

// BotWallet is what GET /api/v1/bot/wallet/check needs, read in one
// statement: the bot behind an API key, and, once claimed, its wallet and
// guardrails (both nil before the claim).
type BotWallet struct {
	Bot        botpay.Bot
	Wallet     *botpay.WalletView
	Guardrails *botpay.Guardrails
}

// prefixedBotColumns is botColumns qualified with the bots alias "b".
var prefixedBotColumns = regexp.MustCompile(`(^|,\s*)([a-z_]+)`).ReplaceAllString(botColumns, "${1}b.${2}")

// walletCheckQuery authenticates and reads in one round trip; wallet/check
// is the hottest call of the API and each round trip to PostgreSQL costs as
// much as the work itself.
var walletCheckQuery = `SELECT ` + prefixedBotColumns + `,
		w.id, w.balance_cents, w.held_cents,
		(SELECT COUNT(*) FROM topup_requests t WHERE t.bot_id = b.id AND t.status = 'sent'),
		(SELECT COALESCE(SUM(-l.amount_cents), 0) FROM ledger l WHERE l.bot_id = b.id AND l.type = 'spend' AND l.created_at >= $3),
		g.approval_mode, g.per_transaction_cents, g.daily_cents, g.monthly_cents, g.ask_approval_above_cents,
		g.recurring_allowed, g.notes, g.approved_categories, g.blocked_categories, g.updated_at
	FROM bots b LEFT JOIN wallets w ON w.bot_id = b.id LEFT JOIN guardrails g ON g.bot_id = b.id
	WHERE ` + apiKeyMatch

// withExtra scans the bot's columns through scanBot and the columns after
// them into extra.
type withExtra struct {
	row   *sql.Row
	extra []any
}

func (w withExtra) Scan(dest ...any) error { return w.row.Scan(append(dest, w.extra...)...) }

// WalletCheck authenticates an API key digest and reads the bot's wallet
// and guardrails; an unknown key is not found.
func (s *Store) WalletCheck(ctx context.Context, keyHash string) (BotWallet, error) {
	var (
		walletID                    sql.NullString
		balance, held, monthlySpent sql.NullInt64
		topups                      int
		g                           guardrailColumns
	)
	now := s.clock.Now()
	row := s.queryRow(ctx, walletCheckQuery, keyHash, ms(now), ms(botpay.MonthStart(now)))
	extra := append([]any{&walletID, &balance, &held, &topups, &monthlySpent}, g.dest()...)
	b, err := scanBot(withExtra{row: row, extra: extra})
	if isNoRows(err) {
		return BotWallet{}, botpay.ErrNotFound("bot")
	}
	if err != nil {
		return BotWallet{}, err
	}
	out := BotWallet{Bot: b}
	if !walletID.Valid || !g.present() {
		return out, nil
	}
	w := botpay.WalletView{WalletID: walletID.String, PendingTopups: topups,
		Wallet: botpay.Wallet{BotID: b.ID, Balance: botpay.Money(balance.Int64), Held: botpay.Money(held.Int64)}}
	w.MonthlySpent = botpay.Money(monthlySpent.Int64) + w.Wallet.Held
	guardrails, err := g.guardrails()
	if err != nil {
		return out, err
	}
	out.Wallet, out.Guardrails = &w, &guardrails
	return out, nil
}
