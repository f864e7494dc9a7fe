package settle

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// Prepared is a settlement checked on chain and drafted, waiting for its
// nonce.
type Prepared struct {
	Tx evm.DynamicFeeTx // everything but the nonce
	// NonceFloor is the node's pending transaction count of the relayer:
	// the next nonce is never below it.
	NonceFloor uint64
}

// Prepare asks the chain, in one JSON-RPC batch (one round trip), what a
// facilitator asks before settling — the authorization is unused
// (authorizationState), the payer holds the amount (balanceOf), the
// transfer succeeds when simulated from the relayer (eth_call) — and what
// the transaction needs: its gas (eth_estimateGas + a fifth), fees (twice
// the latest base fee plus the node's priority fee, under the cap) and
// the relayer's pending nonce and ether (which must cover the gas at the
// fee cap). A refused payment is a *Refusal.
//
// The node answers a batch call by call, so a block mined between them
// (another settlement of the same payer, say) can pass the simulation and
// then revert the gas estimate. Such a batch is asked once more, when the
// checks see the new state and refuse with their reason; a second revert
// is the simulation's refusal.
func (c *Chain) Prepare(ctx context.Context, p x402.Payment) (Prepared, error) {
	prepared, err := c.prepareOnce(ctx, p)
	if errors.Is(err, errStateMoved) {
		prepared, err = c.prepareOnce(ctx, p)
	}
	var moved *stateMovedError
	if errors.As(err, &moved) {
		return Prepared{}, &Refusal{Reason: ReasonSimulationFailed, Detail: moved.rpc.Message}
	}
	return prepared, err
}

// errStateMoved marks a gas estimate that reverted after the simulation
// of the same batch succeeded.
var errStateMoved = errors.New("settle: the chain's state moved during the checks")

type stateMovedError struct{ rpc *evm.RPCError }

func (e *stateMovedError) Error() string        { return errStateMoved.Error() + ": " + e.rpc.Error() }
func (e *stateMovedError) Is(target error) bool { return target == errStateMoved }

func (c *Chain) prepareOnce(ctx context.Context, p x402.Payment) (Prepared, error) {
	a := p.Authorization
	data := CallData(p)
	token := c.Domain.Contract
	call := func(m evm.CallMsg) []any { return []any{m.Object(), "latest"} }
	var used, balance, simulated string
	var gas, tip, floor, ether evm.Quantity
	var block struct {
		BaseFee *evm.Quantity `json:"baseFeePerGas"`
	}
	calls := []*evm.BatchCall{
		{Method: "eth_call", Params: call(evm.CallMsg{To: token, Data: AuthorizationStateCall(a.From, a.Nonce)}), Result: &used},
		{Method: "eth_call", Params: call(evm.CallMsg{To: token, Data: BalanceOfCall(a.From)}), Result: &balance},
		{Method: "eth_call", Params: call(evm.CallMsg{From: c.Relayer(), To: token, Data: data}), Result: &simulated},
		{Method: "eth_estimateGas", Params: []any{evm.CallMsg{From: c.Relayer(), To: token, Data: data}.Object()}, Result: &gas},
		{Method: "eth_getBlockByNumber", Params: []any{"latest", false}, Result: &block},
		{Method: "eth_maxPriorityFeePerGas", Result: &tip},
		{Method: "eth_getTransactionCount", Params: []any{c.Relayer().Hex(), "pending"}, Result: &floor},
		{Method: "eth_getBalance", Params: []any{c.Relayer().Hex(), "pending"}, Result: &ether},
	}
	if err := c.RPC.Batch(ctx, calls); err != nil {
		return Prepared{}, err
	}
	if err := judge(a, calls[0], used, calls[1], balance, calls[2]); err != nil {
		return Prepared{}, err
	}
	var rpcErr *evm.RPCError
	if errors.As(calls[3].Err, &rpcErr) {
		return Prepared{}, &stateMovedError{rpc: rpcErr}
	}
	for _, bc := range calls[3:] {
		if bc.Err != nil {
			return Prepared{}, fmt.Errorf("settle: %s: %w", bc.Method, bc.Err)
		}
	}
	if block.BaseFee == nil {
		return Prepared{}, errors.New("settle: the latest block has no baseFeePerGas (not an EIP-1559 chain)")
	}
	tx := evm.DynamicFeeTx{ChainID: c.Domain.ChainID, To: &token, Data: data, Gas: gas.Uint64() + gas.Uint64()/5}
	var err error
	if tx.MaxFeePerGas, tx.MaxPriorityFeePerGas, err = c.fees(&block.BaseFee.Int, &tip.Int); err != nil {
		return Prepared{}, err
	}
	if need := new(big.Int).Mul(tx.MaxFeePerGas, new(big.Int).SetUint64(tx.Gas)); ether.Cmp(need) < 0 {
		return Prepared{}, fmt.Errorf("%w: %s holds %s wei, the transaction may cost %s", ErrRelayerUnfunded, c.Relayer().Hex(), &ether.Int, need)
	}
	return Prepared{Tx: tx, NonceFloor: floor.Uint64()}, nil
}

// judge reads the three facilitator checks of a Prepare batch, in order.
func judge(a x402.Authorization, usedCall *evm.BatchCall, used string, balanceCall *evm.BatchCall, balance string, simulation *evm.BatchCall) error {
	for _, bc := range []*evm.BatchCall{usedCall, balanceCall} {
		if bc.Err != nil {
			return fmt.Errorf("settle: %s: %w", bc.Method, bc.Err)
		}
	}
	isUsed, err := word("authorizationState", used)
	if err != nil {
		return err
	}
	if isUsed.Sign() != 0 {
		return &Refusal{Reason: ReasonAuthorizationUsed, Detail: "the token reports this authorization as used or canceled"}
	}
	have, err := word("balanceOf", balance)
	if err != nil {
		return err
	}
	if have.Cmp(new(big.Int).SetUint64(a.Value)) < 0 {
		return &Refusal{Reason: ReasonInsufficientFunds, Detail: "the payer's token balance is " + have.String() + ", below " + u64(a.Value)}
	}
	var rpcErr *evm.RPCError
	if errors.As(simulation.Err, &rpcErr) {
		return &Refusal{Reason: ReasonSimulationFailed, Detail: rpcErr.Message}
	}
	if simulation.Err != nil {
		return fmt.Errorf("settle: simulation: %w", simulation.Err)
	}
	return nil
}

// ErrRelayerUnfunded refuses to store a transaction the relayer could not
// pay the gas of: it would wait unsent, and every later nonce behind it.
var ErrRelayerUnfunded = errors.New("settle: the relayer's ether does not cover the settlement's gas")

// ErrFeeAboveCap refuses to send while gas costs more than the cap.
var ErrFeeAboveCap = errors.New("settle: the chain's base fee is above the configured fee cap")

// fees are maxFeePerGas (twice the base fee plus the tip, so a few fuller
// blocks do not strand the transaction, under the cap) and the tip.
func (c *Chain) fees(base, tip *big.Int) (maxFee, priority *big.Int, err error) {
	maxFee = new(big.Int).Add(new(big.Int).Lsh(base, 1), tip)
	if c.MaxFeePerGas != nil && maxFee.Cmp(c.MaxFeePerGas) > 0 {
		if base.Cmp(c.MaxFeePerGas) >= 0 {
			return nil, nil, fmt.Errorf("%w (base fee %s wei, cap %s wei)", ErrFeeAboveCap, base, c.MaxFeePerGas)
		}
		maxFee = new(big.Int).Set(c.MaxFeePerGas)
	}
	priority = new(big.Int).Set(tip)
	if priority.Cmp(maxFee) > 0 {
		priority.Set(maxFee)
	}
	return maxFee, priority, nil
}

// word reads a uint256 eth_call answer; anything but 32 bytes of hex is a
// broken answer, never a zero.
func word(method, hexWord string) (*big.Int, error) {
	b, err := evm.ParseHexBytes(hexWord)
	if err != nil || len(b) != 32 {
		return nil, fmt.Errorf("settle: %s: answer %q is not a uint256", method, hexWord)
	}
	return evm.WordBig(b), nil
}
