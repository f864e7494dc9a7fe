package wallets

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/ledger"
)

// bot loads a bot by ID.
func (s *Service) bot(ctx context.Context, id string) (botpay.Bot, error) {
	b, err := ledger.ScanBot(s.db.QueryRow(ctx, `SELECT `+ledger.BotColumns+` FROM bots WHERE id = $1`, id))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "bot %s", id)
}
