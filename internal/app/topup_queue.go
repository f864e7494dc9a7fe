package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// maxQueuedTopups bounds the top-up requests the approvals queue shows.
const maxQueuedTopups = 100

// OpenTopupRequests lists the owner's bots' top-up requests that still
// wait for the owner, oldest first.
func (s *Service) OpenTopupRequests(ctx context.Context, owner botpay.Owner) ([]botpay.TopupRequest, error) {
	return s.store.OpenTopupRequests(ctx, owner.ID, maxQueuedTopups)
}

// FundTopupRequest funds the bot's card wallet with the amount an open
// request asked for, as Fund does: the funding covers open requests oldest
// first, this one included when nothing older is open.
func (s *Service) FundTopupRequest(ctx context.Context, owner botpay.Owner, id int64) (botpay.Funding, error) {
	r, err := s.store.OpenTopupRequest(ctx, owner.ID, id)
	if err != nil {
		return botpay.Funding{}, err
	}
	return s.Fund(ctx, owner, r.BotID, r.Amount, botpay.RailCardWallet)
}

// DismissTopupRequest closes an open request without funding it.
func (s *Service) DismissTopupRequest(ctx context.Context, owner botpay.Owner, id int64) error {
	return s.store.DismissTopupRequest(ctx, owner.ID, id)
}
