// Command seed fills a botpay database with data at scale, so benchmarks
// can compare each hot path on a full database with the same on an empty
// one: by default 1,000,000 bots (one owner per ten), each with a claimed
// wallet, guardrails, a card, 10 ledger rows, 2 approved purchases, one
// delivered outbox event, a checkout page with one sale and a fulfilled
// top-up request (10,000,000 ledger rows, 2,000,000 purchases, 1,000,000
// events and 1,000,000 sales in all). Rows are generated inside the
// database (generate_series on PostgreSQL, a recursive CTE on SQLite), one
// INSERT … SELECT per table: the rows never cross the wire, which is why
// this beats COPY; seeding takes minutes, not hours.
//
//	go run ./bench/seed -data-dir /tmp/full            # SQLite
//	go run ./bench/seed -database-url postgres://…     # PostgreSQL
//
// The database is migrated first; seeding an already seeded database is
// refused. Seeded bots have no usable API key: benchmarks register their
// own bots beside them.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/store"
)

func main() {
	var opts store.Options
	bots := flag.Int("bots", 1_000_000, "bots to create (ten ledger rows, two purchases, one event and one sale each)")
	flag.StringVar(&opts.DatabaseURL, "database-url", os.Getenv("DATABASE_URL"), "postgres://… (empty: SQLite in -data-dir)")
	flag.StringVar(&opts.DataDir, "data-dir", "./botpay-seed", "SQLite data folder")
	flag.Parse()
	ctx := context.Background()
	st, err := store.Open(ctx, opts)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Kernel().Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	err = seed(ctx, st.Kernel(), *bots, func(table string, took time.Duration) {
		fmt.Printf("%-15s %8.1fs\n", table, took.Seconds())
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("seeded %d bots in %s (%s)\n", *bots, time.Since(start).Round(time.Second), strings.ToLower(string(st.Dialect())))
}
