package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
)

// newSpending builds the spending capability over the store's kernel, with
// the sealer, owner notices and signing approvals that app keeps.
func newSpending(svc *Service, c Config) *spending.Service {
	reads := c.Store.ForSpending()
	return spending.New(spending.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Rules: reads, Signing: reads,
		Sealer: svc.sealer, Notices: checkoutNotices{svc}, CheckoutsPerHour: svc.limits.CheckoutPerHour,
		BaseURL: svc.baseURL})
}

// checkoutNotices mails the owner about the checkouts internal/spending
// commits.
type checkoutNotices struct{ s *Service }

func (n checkoutNotices) CheckoutCommitted(ctx context.Context, bot botpay.Bot, res spending.CheckoutResult) {
	n.s.notifyCheckout(ctx, bot, res)
}

// Spending is how a bot spends from its card wallet and what its owner
// decides about it.
func (s *Service) Spending() *spending.Service { return s.spending }
