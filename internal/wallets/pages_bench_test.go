package wallets_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
)

// benchLedgerRows is the size of the one bot's ledger the paging benchmark
// pages through: a million rows, so a page read that is not a keyset
// seek shows at once.
const benchLedgerRows = 1_000_000

// BenchmarkTransactionsPage reads pages of 50 ledger rows, newest first, at
// the start, the middle and the end of a million-row ledger of one bot, on
// both engines. Keyset pages cost the same wherever they are; the offset
// sub-benchmarks read the same last page the way a list without cursors
// would, for comparison. Results: docs/performance.md, "Paging".
//
//	go test -run '^$' -bench TransactionsPage -benchtime 3s -timeout 60m ./internal/wallets/
func BenchmarkTransactionsPage(b *testing.B) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			db := storetest.Open(b, d, nil)
			st := db.Store
			w := walletsOf(st)
			owner := storetest.NewOwner(b, st)
			bot := storetest.ClaimedBot(b, st, owner)
			start := time.Now()
			if err := w.SeedLedger(ctx, bot.ID, benchLedgerRows); err != nil {
				b.Fatal(err)
			}
			b.Logf("%s: seeded %d ledger rows in %s", d, benchLedgerRows, time.Since(start).Round(time.Millisecond))
			oldest, err := w.OldestLedgerID(ctx, bot.ID)
			if err != nil {
				b.Fatal(err)
			}
			const limit = 50
			positions := []struct {
				name  string
				after int64
			}{
				{"first", 0},
				{"middle", oldest + benchLedgerRows/2},
				{"last", oldest + limit}, // the oldest 50 rows: the list's last page
			}
			for _, p := range positions {
				b.Run("keyset-"+p.name, func(b *testing.B) {
					for b.Loop() {
						page, err := w.Transactions(ctx, bot, botpay.PageRequest{After: p.after, Limit: limit})
						if err != nil || len(page.Items) != limit {
							b.Fatalf("page after %d: %d items, %v", p.after, len(page.Items), err)
						}
					}
				})
			}
			b.Run("offset-last", func(b *testing.B) {
				for b.Loop() {
					n, err := w.TransactionsAtOffset(ctx, bot.ID, benchLedgerRows-limit, limit)
					if err != nil || n != limit {
						b.Fatalf("offset page: %d rows, %v", n, err)
					}
				}
			})
		})
	}
}
