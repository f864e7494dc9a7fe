package settle

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/botpay/botpay/internal/evm"
)

// DefaultReplaceAfter is how long a settlement may wait unmined, first in
// the relayer's line, before it is sent again with higher fees: 15 blocks
// on Base, and well inside the buyer's 2-minute wait, so the buyer still
// gets the sale. Each replacement raises the fees by an eighth, under the
// fee cap.
const DefaultReplaceAfter = 30 * time.Second

// Stuck reports whether a sent transaction, unmined, should be replaced:
// it has waited ReplaceAfter since it was sent and nothing of the
// relayer's is ahead of it (its nonce is the relayer's next), so only its
// own fees, or a node that lost track of it, hold it back.
func (c *Chain) Stuck(ctx context.Context, raw []byte, sentAt, now time.Time) (bool, error) {
	if now.Sub(sentAt) < c.ReplaceWait() {
		return false, nil
	}
	tx, err := evm.DecodeDynamicFeeTx(raw)
	if err != nil {
		return false, fmt.Errorf("settle: stored transaction: %w", err)
	}
	var mined evm.Quantity
	if err := c.RPC.Call(ctx, "eth_getTransactionCount", &mined, c.Relayer().Hex(), "latest"); err != nil {
		return false, fmt.Errorf("settle: eth_getTransactionCount: %w", err)
	}
	return mined.Uint64() == tx.Nonce, nil
}

// ReplaceWait is ReplaceAfter, or its default: no transaction is replaced
// sooner after it was sent.
func (c *Chain) ReplaceWait() time.Duration {
	if c.ReplaceAfter <= 0 {
		return DefaultReplaceAfter
	}
	return c.ReplaceAfter
}

// Replacement signs raw's transaction again, same nonce and call, with
// fees a node takes in its place: at least 1/8 above the old ones (nodes
// ask 1/10) and no less than what the chain asks now. Only one of the two
// can ever be mined.
func (c *Chain) Replacement(ctx context.Context, raw []byte) (evm.SignedTx, error) {
	tx, err := evm.DecodeDynamicFeeTx(raw)
	if err != nil {
		return evm.SignedTx{}, fmt.Errorf("settle: stored transaction: %w", err)
	}
	base, err := c.RPC.BaseFee(ctx)
	if err != nil {
		return evm.SignedTx{}, fmt.Errorf("settle: base fee: %w", err)
	}
	tip, err := c.RPC.MaxPriorityFee(ctx)
	if err != nil {
		return evm.SignedTx{}, fmt.Errorf("settle: eth_maxPriorityFeePerGas: %w", err)
	}
	if tx.MaxFeePerGas, tx.MaxPriorityFeePerGas, err = c.replacementFees(tx, base, tip); err != nil {
		return evm.SignedTx{}, err
	}
	return tx.Sign(c.Key)
}

// replacementFees raises both fees of tx by at least an eighth, and to
// what the chain asks now when that is more, under the fee cap.
func (c *Chain) replacementFees(tx evm.DynamicFeeTx, base, tip *big.Int) (maxFee, priority *big.Int, err error) {
	freshMax := new(big.Int).Add(new(big.Int).Lsh(base, 1), tip)
	maxFee = larger(freshMax, bumped(tx.MaxFeePerGas))
	priority = larger(tip, bumped(tx.MaxPriorityFeePerGas))
	if c.MaxFeePerGas != nil && maxFee.Cmp(c.MaxFeePerGas) > 0 {
		return nil, nil, fmt.Errorf("%w: a replacement needs %s wei (cap %s wei)", ErrFeeAboveCap, maxFee, c.MaxFeePerGas)
	}
	if priority.Cmp(maxFee) > 0 {
		priority = new(big.Int).Set(maxFee)
	}
	return maxFee, priority, nil
}

// bumped is v plus an eighth of it, rounded up, and at least 1.
func bumped(v *big.Int) *big.Int {
	eighth := new(big.Int).Add(v, big.NewInt(7))
	eighth.Rsh(eighth, 3)
	out := new(big.Int).Add(v, eighth)
	if out.Sign() == 0 {
		out.SetInt64(1)
	}
	return out
}

func larger(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return new(big.Int).Set(a)
	}
	return new(big.Int).Set(b)
}
