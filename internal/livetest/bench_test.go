package livetest

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// BenchmarkLiveSettlement measures the live settlement path against a
// local anvil (mining each transaction as it arrives): b.N x402 payments
// of a checkout page by 8 concurrent payers, each timed from the request
// to the answer that carries the confirmed sale. It reports settlements
// per second and the p50/p99 latency.
//
//	CHAIN_TESTS_REQUIRED=1 go test -run '^$' -bench LiveSettlement -benchtime 300x ./internal/livetest/
func BenchmarkLiveSettlement(b *testing.B) {
	onEachEngineOnAnvil(b, func(b *testing.B, node *chaintest.Node, base string) { benchSettlements(b, node, base, 8) })
}

// onEachEngineOnAnvil runs bench on each engine against a live service
// settling on a fresh local anvil through a funded relayer.
func onEachEngineOnAnvil(b *testing.B, bench func(b *testing.B, node *chaintest.Node, base string)) {
	chaintest.Require(b)
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			node := chaintest.Start(b)
			relayer, _ := x402.GenerateKey()
			node.FundGas(b, relayer.Address())
			srv := testserver.Start(b, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 1000},
				Chain: &settle.Chain{RPC: node.RPC, Key: relayer, Domain: node.Domain(), Confirmations: 1, Poll: 5 * time.Millisecond}})
			bench(b, node, srv.URL)
		})
	}
}

func benchSettlements(b *testing.B, node *chaintest.Node, base string, workers int) {
	seller := walletBot(b, base, "seller")
	url := page(b, base, seller, 0.01)
	path := url[len(base):]
	payers := make([]x402.Key, workers)
	for i := range payers {
		payers[i], _ = x402.GenerateKey()
		node.Mint(b, payers[i].Address(), uint64(b.N+1)*10_000)
	}
	domain := node.Domain()
	var next atomic.Int64
	latencies := make([]time.Duration, b.N)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				header := signWith(domain, payers[w], seller.Address, 10_000)
				t0 := time.Now()
				status, body := call(b, base, "GET", path, "", nil, "X-PAYMENT", header)
				latencies[i] = time.Since(t0)
				if status != 200 {
					b.Errorf("payment %d: %d %v", i, status, body)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "settlements/s")
	b.ReportMetric(float64(latencies[b.N/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[(b.N*99)/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(0, "ns/op")
	fmt.Printf("live settlement: %d payments, %d workers, %.1f/s, p50 %s, p99 %s\n", b.N, workers,
		float64(b.N)/elapsed.Seconds(), latencies[b.N/2], latencies[(b.N*99)/100])
}
