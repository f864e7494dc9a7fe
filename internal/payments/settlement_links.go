package payments

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

// X402LinkOffer is what a payment link asks an x402 payer: its exact
// amount to the seller bot's processor wallet, as a checkout page asks.
// A link that is no longer pending is a closed offer: the authorization
// that paid it still answers its first result, a new one is refused
// (409 payment_link_not_pending).
func (s *Service) X402LinkOffer(ctx context.Context, linkID string) (X402Offer, error) {
	link, err := s.offers.PaymentLink(ctx, linkID)
	if err != nil {
		return X402Offer{}, err
	}
	o := X402Offer{Link: &link, Amount: link.Amount}
	if st := link.Status(s.clock.Now()); st != botpay.LinkPending {
		o.Closed = botpay.Errorf(botpay.KindConflict, botpay.CodePaymentLinkNotPending, "this payment link is %s and cannot be paid", st)
	}
	addr := s.ProcessorAddress(ctx, link.BotID)
	if addr == "" {
		// Links made before links created the wallet: the seller gets it
		// with its first x402 buyer, as with a first checkout page.
		bot, err := s.bots.Bot(ctx, link.BotID)
		if err != nil {
			return o, err
		}
		if addr, err = s.EnsureProcessorWallet(ctx, bot.OwnerID, bot.ID); err != nil {
			return o, err
		}
	}
	o.PayTo, err = x402.ParseAddress(addr)
	return o, err
}

// sameLink lets a replay at a link answer its original result only when
// that result paid this link.
func sameLink(res botpay.SaleResult, o X402Offer) error {
	if res.Link == nil || res.Link.ID != o.Link.ID {
		return &X402Rejected{Reason: "authorization_already_used"}
	}
	return nil
}
