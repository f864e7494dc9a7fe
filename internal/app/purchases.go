package app

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
)

// CheckoutStatus reads one of the bot's purchases (docs/api.md); the
// status is as of now, so an overdue hold reads expired.
func (s *Service) CheckoutStatus(ctx context.Context, bot botpay.Bot, confirmationID string) (CheckoutOutcome, error) {
	id := strings.TrimSpace(confirmationID)
	if id == "" {
		return CheckoutOutcome{}, botpay.ValidationError(map[string]string{"confirmation_id": "is required"})
	}
	if len(id) > 64 {
		return CheckoutOutcome{}, botpay.ErrNotFound("confirmation")
	}
	p, sealed, err := s.store.BotPurchase(ctx, bot.ID, id)
	if err != nil {
		return CheckoutOutcome{}, err
	}
	p.Status = p.StatusAt(s.clock.Now())
	out := CheckoutOutcome{Purchase: p}
	if sealed != nil {
		d, err := s.openDetails(p.CardID, p.ProfileIndex, sealed)
		if err != nil {
			return out, err
		}
		out.Details = &d
	}
	return out, nil
}

// Approval is one entry of GET /api/v1/owner/approvals: a held purchase
// (Kind "purchase") or a held x402 signing request (Kind "signing").
type Approval struct {
	Kind     string
	Purchase botpay.Purchase // when Kind is "purchase"
	Signing  SigningApproval // when Kind is "signing"
}

// Approvals pages through what awaits the owner's decision, both kinds in
// the order they were requested.
func (s *Service) Approvals(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[Approval], error) {
	held, err := s.store.PendingApprovals(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[Approval]{}, err
	}
	return botpay.MapPage(held, func(a store.Approval) Approval {
		if a.Purchase != nil {
			return Approval{Kind: "purchase", Purchase: *a.Purchase}
		}
		return Approval{Kind: "signing", Signing: signingApproval(*a.Signing)}
	}), nil
}

// DecidePurchase approves or denies a held purchase of one of the owner's
// bots.
func (s *Service) DecidePurchase(ctx context.Context, owner botpay.Owner, confirmationID string, approve bool) (botpay.Purchase, error) {
	if confirmationID == "" {
		return botpay.Purchase{}, botpay.ErrNotFound("confirmation")
	}
	return s.store.DecidePurchase(ctx, owner.ID, confirmationID, approve)
}
