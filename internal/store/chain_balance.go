package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// In live mode a processor wallet's money is its token balance on chain,
// which two things promise away before the chain shows it: outstanding
// signatures (their reservations, reservations.go) and on-chain refunds
// that are stored but not yet final. Both are judged under the wallet's
// row lock against the same balance, so neither can promise what the
// other holds, on any replica.

// refundBalanceGrace is how long a succeeded on-chain refund still counts
// as promised: a replica may judge against a chain balance it read before
// the refund was mined for as long as it caches one (a few seconds), and
// must not see the refund's amount as free meanwhile. It is generous
// against clock skew between replicas.
const refundBalanceGrace = 15 * time.Second

// chainRefundsStep sums, in cents, the bot's on-chain refunds that still
// promise the processor wallet's tokens at nowMS: pending ones, and those
// that succeeded within refundBalanceGrace. In a pipeline behind the
// wallet lock it sees what the previous lock holder committed.
func chainRefundsStep(botID string, nowMS int64, dest *botpay.Money) step {
	return step{query: `SELECT COALESCE(SUM(amount_cents), 0) FROM refunds
		WHERE bot_id = $1 AND raw_tx IS NOT NULL
			AND (status = $2 OR (status = $3 AND completed_at > $4))`,
		args: []any{botID, botpay.RefundPending, botpay.RefundSucceeded, nowMS - refundBalanceGrace.Milliseconds()},
		dest: []any{dest}}
}

// lockChainAvailable locks the bot's processor wallet (after its card
// wallet, as signing does) and answers what of balance, its token balance
// on chain, is not yet promised by a signature or an on-chain refund.
func (tx *Tx) lockChainAvailable(ctx context.Context, botID string, balance botpay.Micro, now time.Time) (botpay.Micro, error) {
	var refunds botpay.Money
	w, _, err := tx.lockProcessorWallet(ctx, botID, now, nil, []step{chainRefundsStep(botID, ms(now), &refunds)})
	if err != nil {
		return 0, err
	}
	return balance - w.reserved() - botpay.MicroOf(refunds), nil
}
