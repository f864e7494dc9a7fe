package store

import (
	"context"
	"time"
)

// AbandonedLinkClaim is payments.AbandonedLinkClaim, which the store cannot
// import: a sale by another path treats an x402 claim on a link this old
// as its payer's request that died.
const AbandonedLinkClaim = 5 * time.Minute

// linkBeingPaid reports whether an x402 claim holds the link: a sale by
// any other path must wait for it to settle or be released.
func (t *Tx) linkBeingPaid(ctx context.Context, linkID string) (bool, error) {
	var paying int
	err := t.queryRow(ctx, `SELECT COUNT(*) FROM x402_payments WHERE link_id = $1
		AND (status = 'submitted' OR (status = 'settling' AND created_at >= $2))`, linkID, ms(t.s.clock.Now().Add(-AbandonedLinkClaim))).Scan(&paying)
	return paying > 0, err
}
