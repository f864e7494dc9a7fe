package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// Read use cases of the owner dashboard (internal/web). They read what the
// owner may see and decide nothing; a bot passed in has been authorized by
// the caller (OwnedBot).

// OwnedBot is the bot botID when owner owns it, else not found.
func (s *Service) OwnedBot(ctx context.Context, owner botpay.Owner, botID string) (botpay.Bot, error) {
	return s.store.OwnedBot(ctx, owner.ID, botID)
}

// OwnerBots pages through the bots owner owns.
func (s *Service) OwnerBots(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[botpay.Bot], error) {
	return s.store.OwnerBots(ctx, owner.ID, page)
}

// BotWallet is an owned bot's card wallet; ok is false before the claim.
func (s *Service) BotWallet(ctx context.Context, bot botpay.Bot) (botpay.WalletView, bool, error) {
	return s.store.WalletView(ctx, bot.ID)
}

// RecentTopupRequests lists a bot's latest top-up requests, newest first.
func (s *Service) RecentTopupRequests(ctx context.Context, bot botpay.Bot, limit int) ([]botpay.TopupRequest, error) {
	return s.store.TopupRequests(ctx, bot.ID, limit)
}

// SpendingByDay sums a bot's checkouts per UTC day over the last days days.
func (s *Service) SpendingByDay(ctx context.Context, bot botpay.Bot, days int) ([]botpay.DaySpending, error) {
	return s.store.SpendingByDay(ctx, bot.ID, days)
}
