package wallets

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// WalletCheck authenticates an API key and reads what wallet/check shows in
// one database round trip (the hottest call of the bot API).
func (s *Service) WalletCheck(ctx context.Context, apiKey string) (BotOverview, error) {
	if !botpay.WellFormedSecret(apiKey, botpay.APIKeyPrefix) {
		return BotOverview{}, s.botAuthFailed
	}
	bw, err := s.walletCheck(ctx, botpay.Digest(apiKey))
	if botpay.AsError(err) != nil {
		return BotOverview{}, s.botAuthFailed
	}
	if err != nil {
		return BotOverview{}, err
	}
	return BotOverview{Bot: bw.Bot, Wallet: bw.Wallet, Guardrails: bw.Guardrails}, nil
}
