package spending

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// Reads of the owner dashboard. They decide nothing; a bot passed in has
// been authorized by the caller (the owner owns it).

// RecentPurchases lists a bot's latest checkouts (declined ones included),
// newest first.
func (s *Service) RecentPurchases(ctx context.Context, bot botpay.Bot, limit int) ([]botpay.Purchase, error) {
	return s.recentPurchases(ctx, bot.ID, limit)
}

// RecentTasks lists a bot's latest tasks, newest first.
func (s *Service) RecentTasks(ctx context.Context, bot botpay.Bot, limit int) ([]botpay.Task, error) {
	return s.recentTasks(ctx, bot.ID, limit)
}

// Rail5Cards lists the rail5 cards of an owner's bot, newest first.
func (s *Service) Rail5Cards(ctx context.Context, owner botpay.Owner, botID string) ([]botpay.Rail5Card, error) {
	return s.rail5Cards(ctx, owner.ID, botID)
}

// CategorySpending is the approved spend of one category.
type CategorySpending struct {
	Category string // empty for purchases that named none
	Approved botpay.Money
}

// SpendingByCategory sums a bot's approved real purchases of the last days
// days (today included) per category, largest first.
func (s *Service) SpendingByCategory(ctx context.Context, bot botpay.Bot, days int) ([]CategorySpending, error) {
	return s.spendingByCategory(ctx, bot.ID, days)
}
