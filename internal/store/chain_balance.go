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

// chainRefundsStep sums, in cents, the bot's on-chain refunds that the
// balance read at readAt does not show yet: pending ones, and those that
// succeeded after the read (a replica judges against a balance it cached
// for a few seconds, read before the refund was mined). In a pipeline
// behind the wallet lock it sees what the previous lock holder committed.
func chainRefundsStep(botID string, readAt time.Time, dest *botpay.Money) step {
	return step{Query: `SELECT COALESCE(SUM(amount_cents), 0) FROM refunds
		WHERE bot_id = $1 AND raw_tx IS NOT NULL
			AND (status = $2 OR (status = $3 AND completed_at > $4))`,
		Args: []any{botID, botpay.RefundPending, botpay.RefundSucceeded, ms(readAt)},
		Dest: []any{dest}}
}

// ChainBalance is a processor wallet's token balance on chain and when it
// was read from the node.
type ChainBalance struct {
	Micro  botpay.Micro
	ReadAt time.Time
}

// lockChainAvailable locks the bot's processor wallet (after its card
// wallet, as signing does) and answers what of balance, its token balance
// on chain, is not yet promised by a signature or an on-chain refund.
func (tx *Tx) lockChainAvailable(ctx context.Context, botID string, balance ChainBalance, now time.Time) (botpay.Micro, error) {
	var refunds botpay.Money
	w, _, err := tx.lockProcessorWallet(ctx, botID, now, nil, []step{chainRefundsStep(botID, balance.ReadAt, &refunds)})
	if err != nil {
		return 0, err
	}
	return balance.Micro - w.reserved() - botpay.MicroOf(refunds), nil
}
