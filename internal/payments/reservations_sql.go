package payments

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

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

// lockWalletOfSigning locks the processor wallet of the owner's signing
// request id (nothing when there is no such request), before the request
// itself is read or changed.
func lockWalletOfSigning(ctx context.Context, tx *kernel.Tx, id int64, ownerID string) error {
	var botID string
	err := tx.QueryRow(ctx, `SELECT bot_id FROM processor_wallets
		WHERE bot_id = (SELECT bot_id FROM signing_requests WHERE id = $1 AND owner_id = $2)`+tx.ForUpdate(), id, ownerID).Scan(&botID)
	if isNoRows(err) {
		return nil
	}
	return err
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

// reserve folds the sweep into the wallet's total and adds a new request's
// amount, reserved until untilMS; it runs with COMMIT. The caller holds the
// wallet lock, so the new total is computed here rather than in SQL.
func reserve(tx *kernel.Tx, botID string, w lockedProcessor, nowMS, untilMS int64, amount botpay.Micro) {
	asOf := max(w.asOf, nowMS) // another replica's clock may be ahead; the total never goes back
	total := w.reserved()
	if untilMS > asOf {
		total += amount
	}
	tx.AtCommit(kernel.Step{Query: `UPDATE processor_wallets SET reserved_micro = $1, reserved_as_of = $2 WHERE bot_id = $3`,
		Args: []any{int64(total), asOf, botID}})
}

// releaseReservation takes a request that counted until oldUntilMS out of
// its wallet's total and, when newUntilMS is not zero, puts it back in
// until then (an approval moves a held request's reservation from the end
// of its approval window to the end of its signature's validity). Each
// bound counts only if it is after the total's reserved_as_of, which the
// statement reads under the row lock it takes.
func releaseReservation(ctx context.Context, tx *kernel.Tx, botID string, amount botpay.Micro, oldUntilMS, newUntilMS int64) error {
	_, err := tx.Exec(ctx, `UPDATE processor_wallets SET reserved_micro = reserved_micro
			- CASE WHEN $1 > reserved_as_of THEN $3 ELSE 0 END
			+ CASE WHEN $2 > reserved_as_of THEN $3 ELSE 0 END
		WHERE bot_id = $4`, oldUntilMS, newUntilMS, int64(amount), botID)
	return err
}

// In live mode a processor wallet's money is its token balance on chain,
// which two things promise away before the chain shows it: outstanding
// signatures (their reservations) and on-chain refunds that are stored but
// not yet final. Both are judged under the wallet's row lock against the
// same balance, so neither can promise what the other holds, on any
// replica.

// chainBalance is a processor wallet's token balance on chain and when it
// was read from the node.
type chainBalance struct {
	Micro  botpay.Micro
	ReadAt time.Time
}

// chainRefundsStep sums, in cents, the bot's on-chain refunds that the
// balance read at readAt does not show yet: pending ones, and those that
// succeeded after the read (a replica judges against a balance it cached
// for a few seconds, read before the refund was mined). In a pipeline
// behind the wallet lock it sees what the previous lock holder committed.
func chainRefundsStep(botID string, readAt time.Time, dest *botpay.Money) kernel.Step {
	return kernel.Step{Query: `SELECT COALESCE(SUM(amount_cents), 0) FROM refunds
		WHERE bot_id = $1 AND raw_tx IS NOT NULL
			AND (status = $2 OR (status = $3 AND completed_at > $4))`,
		Args: []any{botID, botpay.RefundPending, botpay.RefundSucceeded, ms(readAt)},
		Dest: []any{dest}}
}
