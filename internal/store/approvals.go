package store

import (
	"cmp"
	"context"
	"slices"

	"github.com/botpay/botpay/internal/botpay"
)

// Approval is one entry of an owner's approvals list: a held purchase or a
// held x402 signing request.
type Approval struct {
	Purchase *botpay.Purchase       // set for a held purchase
	Signing  *botpay.SigningRequest // set for a held signing request
}

// PendingApprovals pages through what awaits an owner's decision, held
// purchases and held signing requests on one axis, oldest first: both
// tables number their rows from the one insertion sequence (seq), so the
// merge follows insertion across kinds. Each kind reads at most one page
// plus one row from its own index; the merged page is the first Limit of
// those, so it never needs more.
func (s *Store) PendingApprovals(ctx context.Context, ownerID string, page botpay.PageRequest) (botpay.Page[Approval], error) {
	purchases, err := s.pendingPurchases(ctx, ownerID, page)
	if err != nil {
		return botpay.Page[Approval]{Items: []Approval{}}, err
	}
	signing, err := s.pendingSigning(ctx, ownerID, page)
	if err != nil {
		return botpay.Page[Approval]{Items: []Approval{}}, err
	}
	merged := make([]placed[Approval], 0, len(purchases)+len(signing))
	for _, p := range purchases {
		merged = append(merged, placed[Approval]{item: Approval{Purchase: &p.item}, position: p.position})
	}
	for _, r := range signing {
		merged = append(merged, placed[Approval]{item: Approval{Signing: &r.item}, position: r.position})
	}
	slices.SortFunc(merged, func(a, b placed[Approval]) int { return cmp.Compare(a.position, b.position) })
	return cutPage(merged, page.Limit), nil
}
