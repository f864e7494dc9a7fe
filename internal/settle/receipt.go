package settle

import (
	"context"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/evm"
)

// Outcome is what the chain says of a sent settlement.
type Outcome int

// Outcomes: not final yet, confirmed (mined, succeeded, with enough
// confirmations) or reverted.
const (
	Pending Outcome = iota
	Confirmed
	Reverted
)

// Broadcast sends a signed transaction. A node that already has it (a
// re-broadcast after a crash, or by another replica) is not an error.
func (c *Chain) Broadcast(ctx context.Context, raw []byte, hash string) error {
	_, err := c.RPC.SendRawTransaction(ctx, raw)
	if err == nil || evm.IsRPCError(err, "already known") || evm.IsRPCError(err, "known transaction") {
		return nil
	}
	if known, kerr := c.RPC.KnowsTransaction(ctx, hash); kerr == nil && known {
		return nil // e.g. "nonce too low" because it is already mined
	}
	return fmt.Errorf("settle: send %s: %w", hash, err)
}

// Check looks at a sent settlement once: its outcome when final; when the
// node knows nothing of it (dropped from its pool, or never sent before a
// crash), the stored raw transaction is sent again.
func (c *Chain) Check(ctx context.Context, raw []byte, hash string) (Outcome, error) {
	outcome, mined, err := c.Final(ctx, hash)
	if err != nil || mined {
		return outcome, err
	}
	known, err := c.RPC.KnowsTransaction(ctx, hash)
	if err != nil || known {
		return Pending, err
	}
	return Pending, c.Broadcast(ctx, raw, hash)
}

// Final is what the chain says of a transaction by its hash alone: mined
// reports a receipt, and the outcome stays Pending until the receipt has
// enough confirmations.
func (c *Chain) Final(ctx context.Context, hash string) (outcome Outcome, mined bool, err error) {
	r, err := c.RPC.TransactionReceipt(ctx, hash)
	if err != nil || r == nil {
		return Pending, false, err
	}
	if !r.Succeeded() {
		return Reverted, true, nil
	}
	if c.Confirmations > 1 {
		head, err := c.RPC.BlockNumber(ctx)
		if err != nil {
			return Pending, true, err
		}
		if head+1 < r.BlockNumber.Uint64()+uint64(c.Confirmations) {
			return Pending, true, nil
		}
	}
	return Confirmed, true, nil
}

// PollInterval is the interval between receipt checks.
func (c *Chain) PollInterval() time.Duration {
	if c.Poll <= 0 {
		return 500 * time.Millisecond
	}
	return c.Poll
}
