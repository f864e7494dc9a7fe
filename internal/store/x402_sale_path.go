package store

import (
	"context"

	"github.com/botpay/botpay/internal/kernel"
)

// LinkBeingPaid reports, inside the caller's transaction, whether an x402
// claim holds the link (earning.LinkClaims).
func (s *Store) LinkBeingPaid(ctx context.Context, k *kernel.Tx, id string) (bool, error) {
	return (&Tx{k: k, s: s}).linkBeingPaid(ctx, id)
}
