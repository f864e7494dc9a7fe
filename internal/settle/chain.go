package settle

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// Chain settles authorizations on a real EVM chain: it checks a payment
// as an x402 facilitator does before spending gas, builds and signs the
// relayer's EIP-1559 transaction, broadcasts it with
// eth_sendRawTransaction and follows it to its receipt. Nonce allocation
// and the state of each settlement live in the database (the app drives
// both); Chain itself keeps no state, so any replica can resume another's
// settlement from its stored raw transaction.
type Chain struct {
	RPC    *evm.Client
	Key    x402.Key    // the relayer, which pays gas
	Domain x402.Domain // chain id, token and its EIP-712 name and version
	// Confirmations counts the block that includes the transaction: 1
	// means mined.
	Confirmations int
	// MaxFeePerGas caps what one unit of gas may cost, in wei (nil: no cap).
	MaxFeePerGas *big.Int
	// Poll is the interval between receipt checks (default 500 ms).
	Poll time.Duration
	// ReplaceAfter is how long a settlement first in the relayer's line may
	// wait unmined before it is replaced (default DefaultReplaceAfter).
	ReplaceAfter time.Duration
	// MinRelayerGas is the relayer's ether, in wei, below which the
	// service is not ready (nil: DefaultMinRelayerGas).
	MinRelayerGas *big.Int
}

// Relayer is the address that signs and pays for settlements.
func (c *Chain) Relayer() x402.Address { return c.Key.Address() }

// Refusal is a payment the chain checks refuse before any gas is spent.
// Reason is the x402 error code the buyer gets.
type Refusal struct{ Reason, Detail string }

func (r *Refusal) Error() string { return "settle: payment refused: " + r.Reason + ": " + r.Detail }

// Reasons of refusals found on chain.
const (
	ReasonAuthorizationUsed = "authorization_used"
	ReasonInsufficientFunds = "insufficient_funds"
	ReasonSimulationFailed  = "simulation_failed"
)

// TokenBalance is balanceOf(a) on the token.
func (c *Chain) TokenBalance(ctx context.Context, a x402.Address) (*big.Int, error) {
	out, err := c.RPC.EthCall(ctx, evm.CallMsg{To: c.Domain.Contract, Data: BalanceOfCall(a)})
	if err != nil {
		return nil, fmt.Errorf("settle: balanceOf: %w", err)
	}
	if len(out) != 32 {
		// A node that answers anything but one uint256 word is broken or
		// not in front of this token; reading it as a balance would turn a
		// fault into an empty wallet.
		return nil, fmt.Errorf("settle: balanceOf: malformed answer of %d bytes", len(out))
	}
	return evm.WordBig(out), nil
}

// Sign signs a drafted transaction with the given nonce.
func (c *Chain) Sign(tx evm.DynamicFeeTx, nonce uint64) (evm.SignedTx, error) {
	tx.Nonce = nonce
	return tx.Sign(c.Key)
}

func u64(v uint64) string { return new(big.Int).SetUint64(v).String() }
