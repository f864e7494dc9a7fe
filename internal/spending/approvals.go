package spending

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
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
	p, sealed, err := s.botPurchase(ctx, bot.ID, id)
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

// Approval is one entry of an owner's approvals list: a held purchase or a
// held x402 signing request.
type Approval struct {
	Purchase *botpay.Purchase       // set for a held purchase
	Signing  *botpay.SigningRequest // set for a held signing request
}

// Approvals pages through what awaits an owner's decision, held purchases
// and held signing requests on one axis, oldest first: both tables number
// their rows from the one insertion sequence (seq), so the merge follows
// insertion across kinds. Each kind reads at most one page plus one row
// from its own index; the merged page is the first Limit of those, so it
// never needs more.
func (s *Service) Approvals(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[Approval], error) {
	purchases, err := s.pendingPurchases(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[Approval]{Items: []Approval{}}, wrapErr(err, "pending approvals %s", owner.ID)
	}
	signing, err := s.signing.PendingSigning(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[Approval]{Items: []Approval{}}, wrapErr(err, "pending approvals %s", owner.ID)
	}
	merged := make([]kernel.Placed[Approval], 0, len(purchases)+len(signing))
	for _, p := range purchases {
		merged = append(merged, kernel.Placed[Approval]{Item: Approval{Purchase: &p.Item}, Position: p.Position})
	}
	for _, r := range signing {
		merged = append(merged, kernel.Placed[Approval]{Item: Approval{Signing: &r.Item}, Position: r.Position})
	}
	slices.SortFunc(merged, func(a, b kernel.Placed[Approval]) int { return cmp.Compare(a.Position, b.Position) })
	return kernel.CutPage(merged, page.Limit), nil
}

// DecidePurchase approves or denies a held purchase of one of the owner's
// bots, as one unit of work (decidePurchase): lock and read the purchase,
// decide (botpay.DecidePurchase, pure), write, emit.
func (s *Service) DecidePurchase(ctx context.Context, owner botpay.Owner, confirmationID string, approve bool) (botpay.Purchase, error) {
	if confirmationID == "" {
		return botpay.Purchase{}, botpay.ErrNotFound("confirmation")
	}
	return s.decidePurchase(ctx, owner.ID, confirmationID, approve)
}
