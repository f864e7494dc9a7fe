package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// Dashboard holds the read use cases of the owner dashboard (internal/web):
// what the owner may see, composed across the capabilities. They decide
// nothing; a bot passed in has been authorized by the caller (OwnedBot).
type Dashboard struct{ s *Service }

// Dashboard hands the owner dashboard its reads.
func (s *Service) Dashboard() Dashboard { return Dashboard{s} }

// OwnedBot is the bot botID when owner owns it, else not found.
func (d Dashboard) OwnedBot(ctx context.Context, owner botpay.Owner, botID string) (botpay.Bot, error) {
	s := d.s
	return s.bots.OwnedBot(ctx, owner.ID, botID)
}

// OwnerBots pages through the bots owner owns.
func (d Dashboard) OwnerBots(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[botpay.Bot], error) {
	s := d.s
	return s.bots.OwnerBots(ctx, owner.ID, page)
}
