package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/ledger"
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
	w, err := tx.lockProcessorWallet(ctx, botID, now, chainRefundsStep(botID, balance.ReadAt, &refunds))
	if err != nil {
		return 0, err
	}
	return balance.Micro - w.reserved() - botpay.MicroOf(refunds), nil
}

// lockProcessorWallet locks the bot's processor wallet row, then reads the
// reservations that ran out since its running total was last swept
// (reservations.go), and after, in one round trip (a pipeline). The reads
// must be a second statement: under READ COMMITTED a statement that
// waited for the row lock still sees the snapshot taken before it waited.
func (tx *Tx) lockProcessorWallet(ctx context.Context, botID string, now time.Time, after ...step) (w lockedProcessor, err error) {
	var found bool
	var day, month botpay.Money
	steps := []step{
		{Query: `SELECT balance_micro, reserved_micro, reserved_as_of FROM processor_wallets WHERE bot_id = $1` + tx.forUpdate(),
			Args: []any{botID}, Dest: []any{&w.balance, &w.total, &w.asOf}, Found: &found},
		{Query: `SELECT (` + expiredReservations("$5", "$4") + `), day, month FROM ` + ledger.CommittedDays("bot_id"),
			Args: ledger.CommittedArgs("bot:"+botID, botID, now),
			Dest: []any{&w.expired, &day, &month}}}
	err = tx.pipeline(ctx, append(steps, after...)...)
	if err == nil && !found {
		return w, ErrNoProcessorWallet
	}
	return w, err
}
