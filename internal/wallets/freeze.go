package wallets

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// Freeze freezes or unfreezes an owned bot's wallet.
func (s *Service) Freeze(ctx context.Context, owner botpay.Owner, botID string, frozen bool) (botpay.Bot, error) {
	return s.setFrozen(ctx, owner.ID, botID, frozen)
}
