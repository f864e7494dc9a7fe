package store

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// BotByTunnelTokenHash authenticates a tunnel client, by digest as API keys
// are.
func (s *Store) BotByTunnelTokenHash(ctx context.Context, hash string) (botpay.Bot, error) {
	b, err := scanBot(s.queryRow(ctx, `SELECT `+botColumns+` FROM bots WHERE tunnel_token_hash = $1`, hash))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "bot by tunnel token hash")
}
