package payments

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// overdueSigning is a held signing request whose approval window has
// closed, as the sweep finds it.
type overdueSigning struct {
	id                   int64
	botID, ownerID, host string
	amount               botpay.Micro
	reservedUntil        int64
	created              int64
}

// ExpireOverdueSigning marks up to batch held signing requests whose
// 15-minute approval window has closed as expired, one transaction each,
// and reports how many it expired. Each one stops counting against its
// budgets and its wallet's reservations (it already counted for neither
// once its window closed; the totals now say so too) and announces
// purchase.expired, as a held purchase does (docs/decisions.md). Safe to
// run on every replica at once: each request is claimed by a conditional
// update under its processor wallet's lock, so it expires, and is
// announced, once.
func (s *Service) ExpireOverdueSigning(ctx context.Context, batch int) (int, error) {
	now := s.clock.Now()
	due, err := s.overdueSigning(ctx, now, batch)
	if err != nil {
		return 0, wrapErr(err, "expire overdue signing")
	}
	n := 0
	for _, o := range due {
		var expired bool
		err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
			var err error
			expired, err = s.expireSigning(ctx, tx, o, now)
			return err
		})
		if err != nil {
			return n, wrapErr(err, "expire overdue signing")
		}
		if expired {
			n++
		}
	}
	return n, nil
}

func (s *Service) overdueSigning(ctx context.Context, now time.Time, batch int) ([]overdueSigning, error) {
	rows, err := s.db.Query(ctx, `SELECT id, bot_id, owner_id, resource_host, amount_micro, reserved_until, created_at
		FROM signing_requests WHERE status = 'pending' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`, ms(now), batch)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var due []overdueSigning
	for rows.Next() {
		var o overdueSigning
		if err := rows.Scan(&o.id, &o.botID, &o.ownerID, &o.host, &o.amount, &o.reservedUntil, &o.created); err != nil {
			return nil, err
		}
		due = append(due, o)
	}
	return due, rows.Err()
}

// expireSigning expires one overdue held request unless an owner's
// decision or another replica's sweep got to it first.
func (s *Service) expireSigning(ctx context.Context, tx *kernel.Tx, o overdueSigning, now time.Time) (bool, error) {
	if err := lockWalletOfSigning(ctx, tx, o.id, o.ownerID); err != nil {
		return false, err
	}
	res, err := tx.Exec(ctx, `UPDATE signing_requests SET status = $1, decided_at = $2 WHERE id = $3 AND status = 'pending'`,
		botpay.SigningExpired, ms(now), o.id)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	if err := releaseReservation(ctx, tx, o.botID, o.amount, o.reservedUntil, 0); err != nil {
		return false, err
	}
	ledger.CountSigning(tx, o.botID, o.ownerID, o.created, -o.amount)
	return true, s.outbox.Emit(tx, botpay.NewEvent(o.botID, botpay.PurchaseExpiredData{
		CheckoutID: botpay.SigningCheckoutID(o.id), ApprovalID: o.id, Amount: o.amount, Currency: "USDC", Vendor: o.host,
		Message: "Your owner did not decide on your signing request within 15 minutes; it expired and nothing was signed.",
	}, now))
}
