package wallets

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// MaxFunding bounds one funding or top-up request (one million dollars),
// as it bounds one checkout.
const MaxFunding botpay.Money = 100_000_000

func validAmount(p validate.Problems, field string, amount botpay.Money, max botpay.Money) {
	switch {
	case amount <= 0:
		p.Add(field, "must be greater than 0")
	case amount > max:
		p.Add(field, "must be at most "+max.USD())
	}
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
		return s.processor.FundProcessorWallet(ctx, owner, botID, amount)
	default:
		p.Add("rail", "must be card_wallet or processor_wallet")
	}
	if err := p.Err(); err != nil {
		return botpay.Funding{}, err
	}
	return s.fund(ctx, owner.ID, botID, amount, "Funded by owner")
}
