package wallets

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/ledger"
)

// botWallet is what GET /api/v1/bot/wallet/check needs, read in one
// statement: the bot behind an API key, and, once claimed, its wallet and
// guardrails (both nil before the claim).
type botWallet struct {
	Bot        botpay.Bot
	Wallet     *botpay.WalletView
	Guardrails *botpay.Guardrails
}

// walletCheckQuery authenticates and reads in one round trip, the wallet
// view's figures included; wallet/check is the hottest call of the API and
// each round trip to PostgreSQL costs as much as the work itself.
var walletCheckQuery = `SELECT ` + ledger.PrefixedBotColumns + `,
		w.id, w.balance_cents, w.held_cents, ` + walletFigures("w", "$3") + `,
		` + ledger.GuardrailColumnList("g") + `
	FROM bots b LEFT JOIN wallets w ON w.bot_id = b.id LEFT JOIN guardrails g ON g.bot_id = b.id
	WHERE ` + ledger.APIKeyMatch

// readRow is a row read with ReadRow when it is scanned.
type readRow func(dest ...any) error

func (r readRow) Scan(dest ...any) error { return r(dest...) }

// walletCheck authenticates an API key digest and reads the bot's wallet
// and guardrails; an unknown key is not found.
func (s *Service) walletCheck(ctx context.Context, keyHash string) (botWallet, error) {
	var (
		walletID                    sql.NullString
		balance, held, monthlySpent sql.NullInt64
		topups                      int
		g                           ledger.GuardrailColumns
	)
	now := s.clock.Now()
	row := readRow(func(dest ...any) error {
		return s.db.ReadRow(ctx, walletCheckQuery, []any{keyHash, ms(now), ms(botpay.MonthStart(now))}, dest...)
	})
	extra := append([]any{&walletID, &balance, &held, &topups, &monthlySpent}, g.Dest()...)
	b, err := ledger.ScanBot(row, extra...)
	if isNoRows(err) {
		return botWallet{}, botpay.ErrNotFound("bot")
	}
	if err != nil {
		return botWallet{}, wrapErr(err, "wallet check")
	}
	out := botWallet{Bot: b}
	if !walletID.Valid || !g.Present() {
		return out, nil
	}
	w := botpay.WalletView{WalletID: walletID.String, PendingTopups: topups,
		Wallet: botpay.Wallet{BotID: b.ID, Balance: botpay.Money(balance.Int64), Held: botpay.Money(held.Int64)}}
	w.MonthlySpent = botpay.Money(monthlySpent.Int64) + w.Wallet.Held
	guardrails, err := g.Guardrails()
	if err != nil {
		return out, wrapErr(err, "wallet check")
	}
	out.Wallet, out.Guardrails = &w, &guardrails
	return out, nil
}
