package e2e

import (
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/testserver"
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
