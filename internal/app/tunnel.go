package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// AuthenticateTunnel resolves a managed-tunnel client's token by its digest,
// exactly as API keys are checked. Malformed tokens fail before any lookup.
func (s *Service) AuthenticateTunnel(ctx context.Context, token string) (botpay.Bot, error) {
	if !botpay.WellFormedSecret(token, botpay.TunnelTokenPrefix) {
		return botpay.Bot{}, errBotAuth
	}
	b, err := s.store.BotByTunnelTokenHash(ctx, botpay.Digest(token))
	if botpay.AsError(err) != nil {
		return b, errBotAuth
	}
	if err == nil && b.CallbackURL != "" {
		// The bot has since given its own callback URL; the tunnel is unused.
		return b, botpay.Errorf(botpay.KindConflict, botpay.CodeTunnelNotInUse, "this bot delivers to its callback_url, not through the tunnel")
	}
	return b, err
}
