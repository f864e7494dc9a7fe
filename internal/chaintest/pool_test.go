package chaintest_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// TestOutOfOrderSendsFromOneSenderAllGetMined sends 50 transactions of one
// sender at once in shuffled nonce order, round after round, through
// senders that re-send what the node forgot (as botpay's relayer does).
// Without the pool watchdog about one round in 400 strands in anvil's
// pool for ever (foundry-rs/foundry#10122), so 200 rounds fail about
// two runs in five.
func TestOutOfOrderSendsFromOneSenderAllGetMined(t *testing.T) {
	t.Parallel()
	n := chaintest.Start(t)
	for round := range 200 {
		key, _ := x402.GenerateKey()
		n.FundGas(t, key.Address())
		txs := signedTransfers(n, key, 50)
		deadline, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var wg sync.WaitGroup
		for _, i := range rand.Perm(len(txs)) {
			wg.Go(func() { sendUntilMined(deadline, n, txs[i]) })
		}
		wg.Wait()
		cancel()
		if got := n.Nonce(t, key.Address()); got != uint64(len(txs)) {
			t.Fatalf("round %d: %d of %d mined; %s", round, got, len(txs), n.Pool(key.Address()))
		}
	}
}

// signedTransfers signs count empty token transfers with nonces 0..count-1.
func signedTransfers(n *chaintest.Node, key x402.Key, count int) []evm.SignedTx {
	txs := make([]evm.SignedTx, count)
	for i := range txs {
		tx := evm.DynamicFeeTx{ChainID: chaintest.ChainID, Nonce: uint64(i), MaxPriorityFeePerGas: big.NewInt(1_000_000_000),
			MaxFeePerGas: big.NewInt(100_000_000_000), Gas: 100_000, To: &n.Token,
			Data: evm.Call("transfer(address,uint256)", evm.WordAddress(key.Address()), evm.WordUint(0))}
		txs[i], _ = tx.Sign(key)
	}
	return txs
}

// sendUntilMined sends tx, then re-sends it whenever the node no longer
// knows it, until it is mined or ctx ends.
func sendUntilMined(ctx context.Context, n *chaintest.Node, tx evm.SignedTx) {
	n.RPC.SendRawTransaction(ctx, tx.Raw)
	for ctx.Err() == nil {
		if r, err := n.RPC.TransactionReceipt(ctx, tx.HashHex()); err == nil && r != nil {
			return
		}
		if known, err := n.RPC.KnowsTransaction(ctx, tx.HashHex()); err == nil && !known {
			n.RPC.SendRawTransaction(ctx, tx.Raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
