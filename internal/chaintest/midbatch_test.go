package chaintest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// TestPrepareRefusesWithTheReasonWhenABlockLandsMidBatch: the node
// answers a batch call by call, so a transfer mined between Prepare's
// simulation and its gas estimate reverted the estimate, which was
// answered as the chain being unavailable (a 503 to a refund racing
// another). Prepare asks once more and refuses with the checks' reason.
func TestPrepareRefusesWithTheReasonWhenABlockLandsMidBatch(t *testing.T) {
	t.Parallel()
	n := Start(t)
	payer, _ := x402.GenerateKey()
	relayer, _ := x402.GenerateKey()
	n.Mint(t, payer.Address(), 1_000_000)
	n.FundGas(t, payer.Address())
	n.FundGas(t, relayer.Address())
	a := x402.Authorization{From: payer.Address(), To: relayer.Address(), Value: 600_000,
		ValidBefore: uint64(time.Now().Unix()) + 300, Nonce: x402.Nonce{1}}
	p := x402.Payment{Authorization: a, Signature: payer.Sign(n.Domain().Digest(a))}
	split := &batchSplitter{node: n.URL, before: "eth_estimateGas", between: func() {
		n.Transfer(t, payer, relayer.Address(), 600_000) // the payer now holds 400,000
	}}
	proxy := httptest.NewServer(split)
	t.Cleanup(proxy.Close)
	c := &settle.Chain{RPC: evm.NewClient(proxy.URL), Key: relayer, Domain: n.Domain(), Confirmations: 1}
	_, err := c.Prepare(context.Background(), p)
	var refusal *settle.Refusal
	if !asRefusal(err, &refusal) || refusal.Reason != settle.ReasonInsufficientFunds {
		t.Fatalf("prepare across a mined transfer: %v, want the insufficient_funds refusal", err)
	}
}

// batchSplitter forwards JSON-RPC batches to a real node, splitting the
// first one before the call named before and running between in the gap,
// so the node's state really changes in the middle of a batch.
type batchSplitter struct {
	node, before string
	between      func()
	once         sync.Once
}

func (b *batchSplitter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var calls []json.RawMessage
	if json.Unmarshal(body, &calls) != nil {
		w.Write(b.forward(body))
		return
	}
	cut := len(calls)
	for i, c := range calls {
		var m struct{ Method string }
		if json.Unmarshal(c, &m) == nil && m.Method == b.before {
			cut = i
		}
	}
	split := false
	b.once.Do(func() { split = cut > 0 && cut < len(calls) })
	if !split {
		w.Write(b.forward(body))
		return
	}
	var first, second []json.RawMessage
	json.Unmarshal(b.forward(mustJSON(calls[:cut])), &first)
	b.between()
	json.Unmarshal(b.forward(mustJSON(calls[cut:])), &second)
	w.Write(mustJSON(append(first, second...)))
}

func (b *batchSplitter) forward(body []byte) []byte {
	resp, err := http.Post(b.node, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
