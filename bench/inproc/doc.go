// Package inproc holds in-process benchmarks of botpay's hot path, used to
// find where the time of GET /api/v1/bot/wallet/check goes without the
// network, the HTTP client or a second process in the picture.
//
// The whole service (store, use cases, HTTP handler and access log, wired as
// `botpay serve` wires them) runs inside the test binary and is called with
// net/http/httptest, so the standard tooling applies:
//
//	go test ./bench/inproc -run '^$' -bench . -benchmem
//	go test ./bench/inproc -run '^$' -bench 'WalletCheck/sqlite/log=file' \
//	    -cpuprofile /tmp/cpu.out -memprofile /tmp/mem.out
//	go tool pprof -top /tmp/cpu.out
//
// BenchmarkQueries runs the three SQL statements wallet/check issues
// (copied from internal/store) directly on the same database in three ways:
// as the store issues them today (unprepared, three statements), prepared
// once, and folded into one prepared statement. It measures what the
// changes recommended in docs/performance.md would save.
//
// PostgreSQL runs in a fresh schema of TEST_DATABASE_URL (default: this
// machine's test server) and is skipped when no server answers.
package inproc
