package bots

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// AuthenticateBot resolves an API key. Malformed keys fail before any lookup.
func (s *Service) AuthenticateBot(ctx context.Context, apiKey string) (botpay.Bot, error) {
	if !botpay.WellFormedSecret(apiKey, botpay.APIKeyPrefix) {
		return botpay.Bot{}, ErrBotAuth
	}
	b, _, err := s.botByAPIKey(ctx, botpay.Digest(apiKey))
	if botpay.AsError(err) != nil {
		return b, ErrBotAuth
	}
	return b, err
}

// AuthenticateBotCurrentKey is AuthenticateBot for what only the bot's
// current key may do (rotate, change the profile or the callback): a
// previous key in its grace period is refused with key_superseded, before
// any idempotent replay could hand it an answer.
func (s *Service) AuthenticateBotCurrentKey(ctx context.Context, apiKey string) (botpay.Bot, error) {
	if !botpay.WellFormedSecret(apiKey, botpay.APIKeyPrefix) {
		return botpay.Bot{}, ErrBotAuth
	}
	b, keyExpires, err := s.botByAPIKey(ctx, botpay.Digest(apiKey))
	if botpay.AsError(err) != nil {
		return b, ErrBotAuth
	}
	if err == nil && !keyExpires.IsZero() {
		return botpay.Bot{}, botpay.ErrKeySuperseded
	}
	return b, err
}

// ErrBotAuth is the one answer to a missing, malformed, unknown or ended
// API key, whichever it was.
var ErrBotAuth = botpay.Errorf(botpay.KindUnauthenticated, botpay.CodeAuthRequired, "a valid API key is required in the Authorization header")
