package spending

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// PurchaseToDecide is a purchase as the page of an e-mailed decision link
// shows it before the owner presses Approve or Deny.
type PurchaseToDecide struct {
	Purchase botpay.Purchase // its status as of now: an overdue hold reads expired
	// HeldBy names the guardrail that asks the owner (pending purchases
	// only).
	HeldBy string
}

// PurchaseToDecide reads one of the owner's purchases for its decision
// page; another owner's is not found, exactly like a missing one. When the
// purchase was read but its guardrail could not be named, the purchase
// comes back with the error.
func (s *Service) PurchaseToDecide(ctx context.Context, owner botpay.Owner, id string) (PurchaseToDecide, error) {
	p, err := scanPurchase(s.db.QueryRow(ctx, `SELECT `+purchaseColumns+` FROM purchases WHERE id = $1 AND owner_id = $2`, id, owner.ID))
	if isNoRows(err) {
		return PurchaseToDecide{}, botpay.ErrNotFound("purchase")
	}
	if err != nil {
		return PurchaseToDecide{}, wrapErr(err, "purchase to decide %s", id)
	}
	p.Status = p.StatusAt(s.clock.Now())
	out := PurchaseToDecide{Purchase: p}
	if p.Status == botpay.PurchasePending {
		out.HeldBy, err = s.holdReason(ctx, p)
	}
	return out, err
}

// holdReason names the guardrail that holds p, from the bot's guardrails
// and the card profile as they are now (the purchase does not record it).
func (s *Service) holdReason(ctx context.Context, p botpay.Purchase) (string, error) {
	g, cards, err := s.holdRules(ctx, p.BotID)
	if err != nil {
		return "", err
	}
	var profile botpay.PaymentProfile
	for _, c := range cards {
		if c.ID == p.CardID {
			profile, _ = c.Profile(p.ProfileIndex)
		}
	}
	req := botpay.CheckoutRequest{Amount: p.Amount, MerchantName: p.MerchantName, MerchantURL: p.MerchantURL, Category: p.Category}
	if reason := botpay.HoldReason(req, g, profile); reason != "" {
		return reason, nil
	}
	return "your guardrails as they were when the bot asked (they have changed since)", nil
}
