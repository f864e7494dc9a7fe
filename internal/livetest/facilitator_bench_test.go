package livetest

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/x402"
)

// BenchmarkFacilitator measures botpay as a facilitator against a local
// anvil: b.N payments to a bot's own API, each one verify then settle (as
// the stock middleware calls them) by 8 concurrent payers, each call timed
// to its answer (settle's after the receipt and the recorded sale).
//
//	CHAIN_TESTS_REQUIRED=1 go test -run '^$' -bench Facilitator -benchtime 200x ./internal/livetest/
func BenchmarkFacilitator(b *testing.B) {
	onEachEngineOnAnvil(b, func(b *testing.B, node *chaintest.Node, base string) { benchFacilitator(b, node, base, 8) })
}

func benchFacilitator(b *testing.B, node *chaintest.Node, base string, workers int) {
	seller := walletBot(b, base, "seller")
	payers := make([]x402.Key, workers)
	for i := range payers {
		payers[i], _ = x402.GenerateKey()
		node.Mint(b, payers[i].Address(), uint64(b.N+1)*10_000)
	}
	domain := node.Domain()
	var next atomic.Int64
	verify, settled := make([]time.Duration, b.N), make([]time.Duration, b.N)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < b.N; i = int(next.Add(1)) - 1 {
				body, _ := facilitatorCall(domain, payers[w], seller.Address, 10_000)
				t0 := time.Now()
				_, v := call(b, base, "POST", "/api/v1/x402/facilitator/verify", seller.Key, body)
				t1 := time.Now()
				_, s := call(b, base, "POST", "/api/v1/x402/facilitator/settle", seller.Key, body)
				verify[i], settled[i] = t1.Sub(t0), time.Since(t1)
				if v["isValid"] != true || s["success"] != true {
					b.Errorf("payment %d: verify %v, settle %v", i, v, s)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	for _, l := range [][]time.Duration{verify, settled} {
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "payments/s")
	b.ReportMetric(float64(verify[b.N/2].Microseconds())/1000, "verify-p50-ms")
	b.ReportMetric(float64(verify[(b.N*99)/100].Microseconds())/1000, "verify-p99-ms")
	b.ReportMetric(float64(settled[b.N/2].Microseconds())/1000, "settle-p50-ms")
	b.ReportMetric(float64(settled[(b.N*99)/100].Microseconds())/1000, "settle-p99-ms")
	b.ReportMetric(0, "ns/op")
	fmt.Printf("facilitator: %d payments, %d workers, %.1f/s, verify p50 %s p99 %s, settle p50 %s p99 %s\n", b.N, workers,
		float64(b.N)/elapsed.Seconds(), verify[b.N/2], verify[(b.N*99)/100], settled[b.N/2], settled[(b.N*99)/100])
}
