package store

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// The signing side of reservations (reserving, deciding and expiring held
// requests) is internal/payments; settlement and on-chain refunds still
// read and release them here, under the same rules.

// A processor wallet's live reservations are kept as a running total
// (migration 0010): reserved_micro sums the amounts of the wallet's signed
// and pending signing requests whose reserved_until is after
// reserved_as_of. What is reserved at a time now is that total less the
// requests that ran out in (reserved_as_of, now], a range read of only the
// newly expired ones, which a signing transaction then folds into the
// total. Every other change to a request that counts (approval, denial,
// settlement, expiry) adjusts the total in its own transaction while it
// holds the wallet's row lock, taken before the request's, so the total
// and the requests never disagree and those transactions never deadlock.

// expiredReservations sums, for the bot in $botParam at the time in
// $nowParam (ms), the reservations that ran out since the wallet's total
// was last swept. It reads reserved_as_of itself, so in a pipeline behind
// the wallet lock it sees the value that lock protects.
func expiredReservations(botParam, nowParam string) string {
	return `SELECT COALESCE(SUM(r.amount_micro), 0) FROM signing_requests r
		WHERE r.bot_id = ` + botParam + ` AND r.status IN ('signed', 'pending') AND r.reserved_until <= ` + nowParam + `
			AND r.reserved_until > (SELECT reserved_as_of FROM processor_wallets WHERE bot_id = ` + botParam + `)`
}

// lockedProcessor is a processor wallet as its signing transaction found it
// under the row lock.
type lockedProcessor struct {
	balance botpay.Micro
	total   botpay.Micro // reserved_micro
	asOf    int64        // reserved_as_of, ms
	expired botpay.Micro // of total, what ran out by the transaction's time
}

// reserved is what is promised at the transaction's time.
func (w lockedProcessor) reserved() botpay.Micro { return w.total - w.expired }

// releaseReservation takes a request that counted until oldUntilMS out of
// its wallet's total and, when newUntilMS is not zero, puts it back in
// until then (an approval moves a held request's reservation from the end
// of its approval window to the end of its signature's validity). Each
// bound counts only if it is after the total's reserved_as_of, which the
// statement reads under the row lock it takes.
func (tx *Tx) releaseReservation(ctx context.Context, botID string, amount botpay.Micro, oldUntilMS, newUntilMS int64) error {
	_, err := tx.exec(ctx, `UPDATE processor_wallets SET reserved_micro = reserved_micro
			- CASE WHEN $1 > reserved_as_of THEN $3 ELSE 0 END
			+ CASE WHEN $2 > reserved_as_of THEN $3 ELSE 0 END
		WHERE bot_id = $4`, oldUntilMS, newUntilMS, int64(amount), botID)
	return err
}
