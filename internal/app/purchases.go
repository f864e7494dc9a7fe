package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
)

// Approval is one entry of GET /api/v1/owner/approvals: a held purchase
// (Kind "purchase") or a held x402 signing request (Kind "signing").
type Approval struct {
	Kind     string
	Purchase botpay.Purchase // when Kind is "purchase"
	Signing  SigningApproval // when Kind is "signing"
}

// Approvals pages through what awaits the owner's decision, both kinds in
// the order they were requested (spending.Service.Approvals), a signing
// request as x402 shows it.
func (s *Service) Approvals(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[Approval], error) {
	held, err := s.spending.Approvals(ctx, owner, page)
	if err != nil {
		return botpay.Page[Approval]{}, err
	}
	return botpay.MapPage(held, func(a spending.Approval) Approval {
		if a.Purchase != nil {
			return Approval{Kind: "purchase", Purchase: *a.Purchase}
		}
		return Approval{Kind: "signing", Signing: signingApproval(*a.Signing)}
	}), nil
}
