package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/spending"
)

// newSpending builds the spending capability over the store's kernel, with
// the sealer and owner notices that app keeps and the held signing
// requests of internal/payments.
func newSpending(svc *Service, c Config) *spending.Service {
	return spending.New(spending.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Signing: heldSigning{svc},
		Sealer: svc.sealer, Notices: checkoutNotices{svc}, CheckoutsPerHour: svc.limits.CheckoutPerHour,
		BaseURL: svc.baseURL})
}

// heldSigning gives internal/spending's approvals list the held signing
// requests of internal/payments, which app.New builds after spending.
type heldSigning struct{ s *Service }

func (h heldSigning) PendingSigning(ctx context.Context, ownerID string, page botpay.PageRequest) ([]kernel.Placed[botpay.SigningRequest], error) {
	return h.s.payments.PendingSigning(ctx, ownerID, page)
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
