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
	r, err := c.RPC.TransactionReceipt(ctx, hash)
	if err != nil {
		return Pending, err
	}
	if r == nil {
		known, err := c.RPC.KnowsTransaction(ctx, hash)
		if err != nil || known {
			return Pending, err
		}
		return Pending, c.Broadcast(ctx, raw, hash)
	}
	if !r.Succeeded() {
		return Reverted, nil
	}
	if c.Confirmations > 1 {
		head, err := c.RPC.BlockNumber(ctx)
		if err != nil {
			return Pending, err
		}
		if head+1 < r.BlockNumber.Uint64()+uint64(c.Confirmations) {
			return Pending, nil
		}
	}
	return Confirmed, nil
}

// Await checks until the settlement is final or ctx ends.
func (c *Chain) Await(ctx context.Context, raw []byte, hash string) (Outcome, error) {
	poll := c.Poll
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	for {
		outcome, err := c.Check(ctx, raw, hash)
		if err == nil && outcome != Pending {
			return outcome, nil
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = ctx.Err()
			}
			return Pending, fmt.Errorf("settle: no final receipt for %s: %w", hash, err)
		case <-time.After(poll):
		}
	}
}
