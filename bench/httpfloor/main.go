// Command httpfloor is the floor under a one-read endpoint such as
// wallet/check: a net/http server that answers GET with a fixed JSON body
// of the given size, after, with -database-url, one prepared primary-key
// read through pgx (pgbench -S's statement, on pgbench's tables). Its CPU
// per request is what the Go HTTP stack and one PostgreSQL round trip
// cost with no service code at all, so it bounds from below what any
// endpoint of the kind can cost on the machine (bench/results records it
// beside botpay's).
//
//	go run ./bench/httpfloor -addr 127.0.0.1:18491 -bytes 900 \
//		-database-url postgres://postgres@127.0.0.1:5432/pgbench_db
package main

import (
	"context"
	"flag"
	"log"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18491", "listen address")
	size := flag.Int("bytes", 900, "size of the JSON answer")
	databaseURL := flag.String("database-url", "", "pgbench database to read from (empty: answer without reading)")
	conns := flag.Int("conns", 8, "PostgreSQL connections")
	accounts := flag.Int("accounts", 1600000, "pgbench_accounts rows (100,000 per scale unit)")
	flag.Parse()
	body := []byte(`{"pad":"` + strings.Repeat("x", max(*size-10, 0)) + `"}`)
	var pool *pgxpool.Pool
	if *databaseURL != "" {
		cfg, err := pgxpool.ParseConfig(*databaseURL)
		if err != nil {
			log.Fatal(err)
		}
		cfg.MaxConns = int32(*conns)
		if pool, err = pgxpool.NewWithConfig(context.Background(), cfg); err != nil {
			log.Fatal(err)
		}
	}
	http.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		if pool != nil {
			var balance int64
			err := pool.QueryRow(r.Context(), `SELECT abalance FROM pgbench_accounts WHERE aid = $1`, 1+rand.IntN(*accounts)).Scan(&balance)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	})
	log.Fatal(http.ListenAndServe(*addr, nil))
}
