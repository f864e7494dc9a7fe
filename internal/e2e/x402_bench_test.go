package e2e

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// BenchmarkSignEndpoint measures POST /api/v1/processor-wallet/bot/sign
// end to end over HTTP, one bot per parallel worker group.
func BenchmarkSignEndpoint(b *testing.B) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		b.Run(string(d), func(b *testing.B) {
			r := raw{t: b, srv: testserver.Start(b, d, x402Opts)}
			bots := make(chan x402Bot, 8)
			for range 8 {
				bots <- r.walletBot("bench", 1000)
			}
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				bot := <-bots
				bots <- bot
				for pb.Next() {
					if a := r.sign(bot, signBody(1)); a.Status != 200 {
						b.Errorf("sign: %d %s", a.Status, a.Body)
					}
				}
			})
		})
	}
}

// BenchmarkCheckoutX402Versions pays a sandbox checkout page over HTTP
// with an x402 v1 X-PAYMENT and with a v2 PAYMENT-SIGNATURE side by side:
// each iteration makes one payment of each, alternating which goes first,
// with a new authorization each (signed outside the timings), so both see
// the same machine and the same table sizes. It reports v1-ms/pay,
// v2-ms/pay and their ratio.
func BenchmarkCheckoutX402Versions(b *testing.B) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		b.Run(string(d), func(b *testing.B) {
			r := raw{t: b, srv: testserver.Start(b, d, x402Opts)}
			seller := r.walletBot("bench", 0)
			path := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
			_, required := r.asked(path)
			encode := [2]func(x402.Payment) (string, string){
				func(p x402.Payment) (string, string) { return "X-PAYMENT", x402.Encode(p, x402.BaseUSDC) },
				func(p x402.Payment) (string, string) { return "PAYMENT-SIGNATURE", v2Signature(required, p, nil) },
			}
			var spent [2]time.Duration
			b.ResetTimer()
			for i := range b.N {
				for k := range 2 {
					version := (i + k) % 2
					p, _ := outsider(b, seller.Address, 50000, time.Now().Unix()+600)
					name, header := encode[version](p)
					start := time.Now()
					if a := r.do("GET", path, "", nil, name, header); a.Status != 200 {
						b.Fatalf("v%d: %d %s", version+1, a.Status, a.Body)
					}
					spent[version] += time.Since(start)
				}
			}
			b.ReportMetric(float64(spent[0].Microseconds())/1000/float64(b.N), "v1-ms/pay")
			b.ReportMetric(float64(spent[1].Microseconds())/1000/float64(b.N), "v2-ms/pay")
			b.ReportMetric(float64(spent[1])/float64(spent[0]), "v2/v1")
		})
	}
}
