package chaintest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// anvil's pool can strand a sender's transactions when they arrive
// concurrently and out of nonce order, as a relayer's do
// (foundry-rs/foundry#10122): the transaction whose nonce is the
// account's next stays queued after its predecessor is mined, and every
// later one waits behind it for ever. No mining mode avoids it, and a
// re-send is refused as already imported. The watchdog clears such a
// sender's pool, as a node that evicted the transactions would; senders
// that re-send what the node forgot (botpay's relayer does) then finish.
const (
	watchInterval = 250 * time.Millisecond
	// strandedPolls is how many polls in a row a sender must look stranded
	// before its pool is cleared, so a promotion under way is left alone.
	strandedPolls = 2
)

// inspection is txpool_inspect's answer: sender, then nonce, then summary.
type inspection struct {
	Pending map[string]map[string]string `json:"pending"`
	Queued  map[string]map[string]string `json:"queued"`
}

// watchPool runs the watchdog until the test ends.
func (n *Node) watchPool(t testing.TB) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		seen := map[string]int{} // sender -> polls in a row it looked stranded
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(watchInterval):
			}
			n.clearStranded(ctx, t, seen)
		}
	}()
}

// clearStranded clears the pool of every sender stranded for
// strandedPolls polls in a row. Errors (a stopped node) are ignored: the
// watchdog only ever helps.
func (n *Node) clearStranded(ctx context.Context, t testing.TB, seen map[string]int) {
	var pool inspection
	if err := n.RPC.Call(ctx, "txpool_inspect", &pool); err != nil {
		return
	}
	for sender := range seen {
		if _, queued := pool.Queued[sender]; !queued {
			delete(seen, sender)
		}
	}
	for sender, txs := range pool.Queued {
		if !n.stranded(ctx, sender, txs) {
			delete(seen, sender)
			continue
		}
		if seen[sender]++; seen[sender] < strandedPolls {
			continue
		}
		delete(seen, sender)
		if err := n.RPC.Call(ctx, "anvil_removePoolTransactions", nil, sender); err == nil {
			t.Logf("chaintest: cleared %d transactions of %s stranded in anvil's pool", len(txs), sender)
		}
	}
}

// stranded reports whether a queued transaction of sender has a nonce
// the account has already reached: it should be ready, not queued.
func (n *Node) stranded(ctx context.Context, sender string, queued map[string]string) bool {
	var mined evm.Quantity
	if err := n.RPC.Call(ctx, "eth_getTransactionCount", &mined, sender, "latest"); err != nil {
		return false
	}
	for nonce := range queued {
		if v, err := strconv.ParseUint(nonce, 10, 64); err == nil && v <= mined.Uint64() {
			return true
		}
	}
	return false
}

// Pool describes what the node holds for a: its mined and pending nonce
// counts and its transactions in the pool, for the message of a test
// that timed out waiting for them.
func (n *Node) Pool(a x402.Address) string {
	var latest, pending evm.Quantity
	var pool json.RawMessage
	ctx := context.Background()
	errs := errors.Join(
		n.RPC.Call(ctx, "eth_getTransactionCount", &latest, a.Hex(), "latest"),
		n.RPC.Call(ctx, "eth_getTransactionCount", &pending, a.Hex(), "pending"),
		n.RPC.Call(ctx, "txpool_inspect", &pool),
	)
	return fmt.Sprintf("mined nonces %d, pending count %d, pool %s (errors %v)", latest.Uint64(), pending.Uint64(), pool, errs)
}
