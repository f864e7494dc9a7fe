package settle

import (
	"context"
	"fmt"
	"math/big"

	"github.com/botpay/botpay/internal/evm"
)

// DefaultMinRelayerGas is the relayer's ether below which the service is
// not ready (0.001 ether): on Base that pays for hundreds of settlements,
// so an operator is warned long before payments stop.
var DefaultMinRelayerGas = big.NewInt(1_000_000_000_000_000)

// The checks of Readiness, named in its errors.
const (
	CheckNode       = "node"
	CheckChainID    = "chain_id"
	CheckTokenCode  = "token_code"
	CheckRelayerGas = "relayer_gas"
)

// NotReady is a failed readiness check of the chain.
type NotReady struct{ Check, Detail string }

func (e *NotReady) Error() string { return "settle: not ready: " + e.Check + ": " + e.Detail }

// Readiness checks, in one JSON-RPC batch, what every settlement needs:
// the node answers for the configured chain, the token contract has code
// there, and the relayer holds at least MinRelayerGas. A failure is a
// *NotReady naming the check.
func (c *Chain) Readiness(ctx context.Context) error {
	var id, gas evm.Quantity
	var code string
	calls := []*evm.BatchCall{
		{Method: "eth_chainId", Result: &id},
		{Method: "eth_getCode", Params: []any{c.Domain.Contract.Hex(), "latest"}, Result: &code},
		{Method: "eth_getBalance", Params: []any{c.Relayer().Hex(), "latest"}, Result: &gas},
	}
	if err := c.RPC.Batch(ctx, calls); err != nil {
		return &NotReady{Check: CheckNode, Detail: err.Error()}
	}
	for _, bc := range calls {
		if bc.Err != nil {
			return &NotReady{Check: CheckNode, Detail: bc.Method + ": " + bc.Err.Error()}
		}
	}
	if id.Uint64() != c.Domain.ChainID {
		return &NotReady{Check: CheckChainID, Detail: fmt.Sprintf("the node is on chain %d, configured %d", id.Uint64(), c.Domain.ChainID)}
	}
	if b, err := evm.ParseHexBytes(code); err != nil || len(b) == 0 {
		return &NotReady{Check: CheckTokenCode, Detail: "no contract code at the token " + c.Domain.Contract.Hex()}
	}
	if min := c.MinGas(); gas.Cmp(min) < 0 {
		return &NotReady{Check: CheckRelayerGas, Detail: fmt.Sprintf("the relayer %s holds %s wei, below %s", c.Relayer().Hex(), &gas.Int, min)}
	}
	return nil
}

// MinGas is MinRelayerGas, or its default.
func (c *Chain) MinGas() *big.Int {
	if c.MinRelayerGas == nil {
		return DefaultMinRelayerGas
	}
	return c.MinRelayerGas
}

// RelayerGas is the relayer's ether balance, in wei.
func (c *Chain) RelayerGas(ctx context.Context) (*big.Int, error) {
	return c.RPC.BalanceWei(ctx, c.Relayer())
}
