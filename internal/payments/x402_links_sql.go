package payments

import (
	"context"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// AbandonedLinkClaim is how long a claim on a payment link may stay
// settling before another payer may take the link. A live claim is
// submitted (or released) within a request's chain checks and a sandbox
// claim within milliseconds, so one this old belongs to a request that
// died; dropping it also stops it from ever being submitted
// (submitX402Payment needs the row in the settling state).
const AbandonedLinkClaim = 5 * time.Minute

// errLinkNotPending refuses a payment at a link that is not pending, or
// that another payer's authorization is already paying.
func errLinkNotPending(state string) error {
	return botpay.Errorf(botpay.KindConflict, botpay.CodePaymentLinkNotPending, "this payment link is %s and cannot be paid", state)
}

// holdLink takes a pending payment link for the authorization p claims,
// inside the claim's transaction and under the link's row lock: exactly
// one authorization at a time may be paying a link, so of two racing
// payers the second is refused before its authorization reaches a
// settler or the chain. The same authorization presented again is left
// to the (payer, nonce) key, which answers it as a replay.
func (s *Service) holdLink(ctx context.Context, tx *kernel.Tx, p X402Payment) error {
	link, err := s.offers.LockLink(ctx, tx, p.LinkID)
	if err != nil {
		return err
	}
	var seen int
	err = tx.QueryRow(ctx, `SELECT COUNT(*) FROM x402_payments WHERE payer = $1 AND nonce = $2`,
		strings.ToLower(p.Payer), strings.ToLower(p.Nonce)).Scan(&seen)
	if err != nil || seen > 0 {
		return err
	}
	if st := link.Status(s.clock.Now()); st != botpay.LinkPending {
		return errLinkNotPending(st)
	}
	if err := s.dropAbandonedLinkClaims(ctx, tx, link.ID); err != nil {
		return err
	}
	var paying int
	err = tx.QueryRow(ctx, `SELECT COUNT(*) FROM x402_payments WHERE link_id = $1 AND status IN ('settling', 'submitted', 'confirmed')`,
		link.ID).Scan(&paying)
	if err == nil && paying > 0 {
		return errLinkNotPending("being paid by another authorization")
	}
	return err
}

// dropAbandonedLinkClaims releases the link's claims that have been
// settling for longer than AbandonedLinkClaim, with their payment
// identifiers: nothing was sent under them.
func (s *Service) dropAbandonedLinkClaims(ctx context.Context, tx *kernel.Tx, linkID string) error {
	cutoff := ms(s.clock.Now().Add(-AbandonedLinkClaim))
	if _, err := tx.Exec(ctx, `DELETE FROM x402_payment_identifiers WHERE payment_row IN
		(SELECT id FROM x402_payments WHERE link_id = $1 AND status = 'settling' AND created_at < $2)`, linkID, cutoff); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM x402_payments WHERE link_id = $1 AND status = 'settling' AND created_at < $2`, linkID, cutoff)
	return err
}

// LinkBeingPaid reports, inside the caller's transaction, whether an x402
// claim holds the link: a sale by any other path (earning's) must wait for
// it to settle or be released.
func (s *Service) LinkBeingPaid(ctx context.Context, tx *kernel.Tx, linkID string) (bool, error) {
	var paying int
	err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM x402_payments WHERE link_id = $1
		AND (status = 'submitted' OR (status = 'settling' AND created_at >= $2))`, linkID, ms(s.clock.Now().Add(-AbandonedLinkClaim))).Scan(&paying)
	return paying > 0, err
}
