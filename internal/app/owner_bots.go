package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// OwnedBot is one row of GET /api/v1/bots/mine.
type OwnedBot struct {
	Bot          botpay.Bot
	WalletStatus string
	ActiveRails  int
}

// BotsOf pages through an owner's bots with their wallet status, oldest
// first. It stays here, in the composition root: it joins the store's bot
// reads with internal/wallets' overview of each.
func (s *Service) BotsOf(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[OwnedBot], error) {
	bots, err := s.bots.OwnerBots(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[OwnedBot]{}, err
	}
	out := botpay.Page[OwnedBot]{Items: make([]OwnedBot, 0, len(bots.Items)), Next: bots.Next}
	for _, b := range bots.Items {
		ov, err := s.wallets.Overview(ctx, b)
		if err != nil {
			return botpay.Page[OwnedBot]{}, err
		}
		ob := OwnedBot{Bot: b, WalletStatus: botpay.WalletPending, ActiveRails: len(ov.ActiveRails())}
		if ov.Wallet != nil {
			ob.WalletStatus = botpay.WalletStatus(&b, ov.Wallet.Wallet)
		}
		out.Items = append(out.Items, ob)
	}
	return out, nil
}
