package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// OwnedBot is one row of GET /api/v1/bots/mine.
type OwnedBot struct {
	Bot          botpay.Bot
	WalletStatus string
	ActiveRails  int
}

// BotsOf pages through an owner's bots with their wallet status, oldest
// first.
func (s *Service) BotsOf(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[OwnedBot], error) {
	bots, err := s.bots.OwnerBots(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[OwnedBot]{}, err
	}
	out := botpay.Page[OwnedBot]{Items: make([]OwnedBot, 0, len(bots.Items)), Next: bots.Next}
	for _, b := range bots.Items {
		ov, err := s.Overview(ctx, b, false)
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

// Fund adds money to an owned bot's wallet on the given rail.
func (s *Service) Fund(ctx context.Context, owner botpay.Owner, botID string, amount botpay.Money, rail string) (botpay.Funding, error) {
	p := validate.Problems{}
	validAmount(p, "amount_usd", amount, MaxFunding)
	switch rail {
	case "", botpay.RailCardWallet:
	case botpay.RailProcessorWallet:
		if err := p.Err(); err != nil {
			return botpay.Funding{}, err
		}
		return s.fundProcessorWallet(ctx, owner, botID, amount)
	default:
		p.Add("rail", "must be card_wallet or processor_wallet")
	}
	if err := p.Err(); err != nil {
		return botpay.Funding{}, err
	}
	return s.store.Fund(ctx, owner.ID, botID, amount, "Funded by owner")
}

// Freeze freezes or unfreezes an owned bot's wallet.
func (s *Service) Freeze(ctx context.Context, owner botpay.Owner, botID string, frozen bool) (botpay.Bot, error) {
	return s.store.SetFrozen(ctx, owner.ID, botID, frozen)
}
