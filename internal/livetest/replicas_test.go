package livetest

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// TestTwoReplicasSettlingFiftyPaymentsNeverReuseARelayerNonce: two servers
// on one database share one relayer; 50 payments arrive at once, split
// between them. Every one settles with its own transaction, and the 50
// transactions carry the nonces 0..49, each once.
func TestTwoReplicasSettlingFiftyPaymentsNeverReuseARelayerNonce(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		replica := l.srv.Replica(t, l.options())
		seller := walletBot(t, l.srv.URL, "seller")
		url := page(t, l.srv.URL, seller, 0.01)
		path := url[len(l.srv.URL):]
		const payments = 50
		headers := make([]string, payments)
		for i := range headers {
			payer, _ := x402.GenerateKey()
			l.node.Mint(t, payer.Address(), 10_000)
			headers[i] = sign(l, payer, seller.Address, 10_000)
		}
		hashes := make([]string, payments)
		var wg sync.WaitGroup
		for i := range headers {
			base := l.srv.URL
			if i%2 == 1 {
				base = replica.URL
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, body := call(t, base, "GET", path, "", nil, "X-PAYMENT", headers[i])
				if status != 200 {
					t.Errorf("payment %d: %d %v", i, status, body)
					return
				}
				hashes[i], _ = body["tx_hash"].(string)
			}()
		}
		wg.Wait()
		if t.Failed() {
			t.Fatalf("the node: %s", l.node.Pool(l.relayer.Address()))
		}
		nonces := map[uint64]string{}
		for i, h := range hashes {
			var tx struct {
				Nonce evm.Quantity `json:"nonce"`
			}
			if err := l.node.RPC.Call(context.Background(), "eth_getTransactionByHash", &tx, h); err != nil {
				t.Fatalf("payment %d: %v", i, err)
			}
			if other, dup := nonces[tx.Nonce.Uint64()]; dup {
				t.Fatalf("nonce %d used by %s and %s", tx.Nonce.Uint64(), other, h)
			}
			nonces[tx.Nonce.Uint64()] = h
		}
		for n := uint64(0); n < payments; n++ {
			if _, ok := nonces[n]; !ok {
				t.Fatalf("nonce %d unused: %v", n, nonces)
			}
		}
		if got := l.node.Balance(t, seller.Address); got != payments*10_000 {
			t.Fatalf("seller balance %d", got)
		}
		if sales := must(t, l.srv.URL, 200, "GET", "/api/v1/bot/sales?limit=100", seller.Key, nil)["sales"].([]any); len(sales) != payments {
			t.Fatalf("%d sales", len(sales))
		}
	})
}

// sign makes an X-PAYMENT header as a stock client would, for the node's
// token.
func sign(l *live, payer x402.Key, to x402.Address, micro uint64) string {
	return signWith(l.node.Domain(), payer, to, micro)
}

func signWith(d x402.Domain, payer x402.Key, to x402.Address, micro uint64) string {
	var nonce x402.Nonce
	rand.Read(nonce[:])
	a := x402.Authorization{From: payer.Address(), To: to, Value: micro, ValidBefore: uint64(time.Now().Add(10 * time.Minute).Unix()), Nonce: nonce}
	return x402.Encode(x402.Payment{Authorization: a, Signature: payer.Sign(d.Digest(a))}, d)
}
