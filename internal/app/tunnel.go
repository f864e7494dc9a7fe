package app

import (
	"context"
	"fmt"

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

// TunnelAuthorization is the Authorization header a tunnel delivery carries
// to the bot's gateway. It is added when the client takes the delivery, not
// stored with the queued request, so the hooks token stays sealed at rest.
func (s *Service) TunnelAuthorization(ctx context.Context, botID string) (string, error) {
	sealed, err := s.store.HooksTokenSealed(ctx, botID)
	if err != nil {
		return "", err
	}
	if len(sealed) == 0 {
		return "", fmt.Errorf("bot %s has no hooks token", botID)
	}
	hooks, err := s.sealer.Open(sealed, []byte("hooks_token:"+botID))
	if err != nil {
		return "", fmt.Errorf("open hooks token of %s: %w", botID, err)
	}
	return "Bearer " + string(hooks), nil
}
