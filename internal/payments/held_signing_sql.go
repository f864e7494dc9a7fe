package payments

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// signingDecision is the owner's answer to a held request. An approval
// carries the authorization signed for it.
type signingDecision struct {
	Approve     bool
	Nonce       string
	ValidBefore int64
	Signature   string
	Header      string
	Event       botpay.EventData // purchase.approved or purchase.rejected
}

// decideHeld is an owner's decision as one unit of work: lock the
// processor wallet and read the request, decide (only a pending,
// unexpired request changes; a second decision is already_decided, a late
// one expired), write the request and its reservation, emit
// purchase.approved (with the signed header) or purchase.rejected.
func (s *Service) decideHeld(ctx context.Context, ownerID string, id int64, d signingDecision) (botpay.SigningRequest, error) {
	now := s.clock.Now()
	var r botpay.SigningRequest
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		if r, err = lockHeldSigning(ctx, tx, ownerID, id); err != nil {
			return err
		}
		if err := botpay.DecideHeldSigning(r, now); err != nil {
			return err
		}
		if err := writeHeldDecision(ctx, tx, &r, d, now); err != nil {
			return err
		}
		event := botpay.EventPurchaseRejected
		if d.Approve {
			event = botpay.EventPurchaseApproved
		}
		if d.Event == nil || d.Event.EventType() != event {
			return fmt.Errorf("decide signing %d: the decision's event is not %s", r.ID, event)
		}
		return s.outbox.Emit(tx, botpay.NewEvent(r.BotID, d.Event, now))
	})
	return r, wrapErr(err, "decide signing %s", ownerID)
}

// lockHeldSigning locks the processor wallet first (reservations_sql.go):
// taking the request's row first deadlocked with the expiry sweep.
func lockHeldSigning(ctx context.Context, tx *kernel.Tx, ownerID string, id int64) (botpay.SigningRequest, error) {
	if err := lockWalletOfSigning(ctx, tx, id, ownerID); err != nil {
		return botpay.SigningRequest{}, err
	}
	r, err := scanSigning(tx.QueryRow(ctx, `SELECT `+signingColumns+` FROM signing_requests WHERE id = $1 AND owner_id = $2`+tx.ForUpdate(), id, ownerID))
	if isNoRows(err) {
		return r, botpay.ErrNotFound("signing request")
	}
	return r, err
}

// writeHeldDecision signs or denies the request and moves its
// reservation: an approval to the end of the signature's validity, a
// denial out of the totals and the budgets.
func writeHeldDecision(ctx context.Context, tx *kernel.Tx, r *botpay.SigningRequest, d signingDecision, now time.Time) error {
	r.DecidedAt = &now
	oldUntil, newUntil := ms(r.ReservedUntil), int64(0)
	var err error
	if d.Approve {
		r.Status, r.Nonce, r.ValidBefore, r.Signature, r.Header = botpay.SigningSigned, strings.ToLower(d.Nonce), d.ValidBefore, d.Signature, d.Header
		r.ReservedUntil = botpay.SignatureReservedUntil(d.ValidBefore)
		newUntil = ms(r.ReservedUntil)
		_, err = tx.Exec(ctx, `UPDATE signing_requests SET status = $1, nonce = $2, valid_before = $3, reserved_until = $4,
				signature = $5, header = $6, decided_at = $7 WHERE id = $8`, r.Status, r.Nonce, r.ValidBefore, ms(r.ReservedUntil),
			r.Signature, r.Header, ms(now), r.ID)
	} else {
		r.Status = botpay.SigningDenied
		ledger.CountSigning(tx, r.BotID, r.OwnerID, ms(r.CreatedAt), -r.Amount)
		_, err = tx.Exec(ctx, `UPDATE signing_requests SET status = $1, decided_at = $2 WHERE id = $3`, r.Status, ms(now), r.ID)
	}
	if err != nil {
		return err
	}
	return releaseReservation(ctx, tx, r.BotID, r.Amount, oldUntil, newUntil)
}
