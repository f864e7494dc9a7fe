package payments

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

// Route names what an x402 payment pays for, the scope of a v2 payment
// identifier: the page, or one invoice on it.
func (o X402Offer) Route() string {
	if o.Link != nil {
		return o.Link.ID
	}
	if o.Invoice != nil {
		return o.Page.ID + "?ref=" + o.Invoice.ReferenceNumber
	}
	return o.Page.ID
}

// SettleX402V2 settles a decoded PAYMENT-SIGNATURE whose accepted offer
// the caller matched against o. Its payment identifier, when it has one,
// answers the first answer again for the same authorization and is
// refused for another; every other check is the one of version 1.
func (s *Service) SettleX402V2(ctx context.Context, o X402Offer, sig x402.PaymentSignature) (X402Settlement, error) {
	if sig.PaymentID != "" {
		first, ok, err := s.x402PaymentByIdentifier(ctx, o.Route(), sig.PaymentID)
		if err != nil {
			return X402Settlement{Payer: sig.Payment.Authorization.From}, err
		}
		a := sig.Payment.Authorization
		if ok && (!strings.EqualFold(first.Payer, a.From.Hex()) || !strings.EqualFold(first.Nonce, a.Nonce.Hex())) {
			return X402Settlement{Payer: a.From}, errPaymentIdentifierReused(sig.PaymentID)
		}
	}
	return s.settleX402(ctx, o, sig.Payment, sig.PaymentID)
}

func errPaymentIdentifierReused(id string) error {
	return botpay.Errorf(botpay.KindConflict, botpay.CodePaymentIdentifierReused,
		"the payment identifier %s was already used on this route with another authorization; a new payment needs a new identifier", id)
}
