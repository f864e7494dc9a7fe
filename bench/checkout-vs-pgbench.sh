#!/usr/bin/env bash
# checkout-vs-pgbench.sh measures botpay's auto-approved checkout on
# PostgreSQL and, in the same run on the same PostgreSQL server, pgbench's
# built-in TPC-B-like workload, then prints both and their ratio as a
# Markdown table (docs/performance.md records the figures).
#
# Each checkout is one database transaction that locks the bot's wallet,
# takes a rate-limit slot, sums the bot's budgets, inserts the purchase,
# debits the wallet, appends a ledger row and writes an outbox event; a
# TPC-B transaction updates three rows, reads one and inserts a history row.
#
# Settings (environment): PGURL_BASE (default postgres://postgres@127.0.0.1:5432,
# trust auth; the script creates and drops two databases), CLIENTS (16),
# DURATION seconds per measurement (20), SCALE for pgbench (= CLIENTS),
# PORT for the botpay server (18482), PGBENCH (found on PATH or under
# /usr/lib/postgresql/*/bin).
set -euo pipefail
cd "$(dirname "$0")/.."

PGURL_BASE=${PGURL_BASE:-postgres://postgres@127.0.0.1:5432}
CLIENTS=${CLIENTS:-16}
DURATION=${DURATION:-20}
SCALE=${SCALE:-$CLIENTS}
PORT=${PORT:-18482}
PGBENCH=${PGBENCH:-$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -n 1)}
[ -x "$PGBENCH" ] || { echo "pgbench not found; set PGBENCH" >&2; exit 1; }

work=$(mktemp -d)
tag=$$
db_botpay=bench_botpay_$tag
db_pgbench=bench_pgbench_$tag
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
	psql -q "$PGURL_BASE/postgres" -c "DROP DATABASE IF EXISTS $db_botpay" -c "DROP DATABASE IF EXISTS $db_pgbench" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
psql -q "$PGURL_BASE/postgres" -c "CREATE DATABASE $db_botpay" -c "CREATE DATABASE $db_pgbench" >/dev/null

echo "== pgbench TPC-B-like: scale $SCALE, $CLIENTS clients, ${DURATION}s" >&2
"$PGBENCH" -i -q -s "$SCALE" "$PGURL_BASE/$db_pgbench" >/dev/null 2>&1
# A checkpoint before each measured workload, so neither pays for flushing
# the pages the previous step dirtied (pgbench's initialisation, or pgbench
# itself for botpay).
psql -q "$PGURL_BASE/postgres" -c CHECKPOINT
"$PGBENCH" -c "$CLIENTS" -j 2 -T "$DURATION" -M prepared "$PGURL_BASE/$db_pgbench" >"$work/pgbench.txt" 2>&1
psql -q "$PGURL_BASE/postgres" -c CHECKPOINT
pg_tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/pgbench.txt" | head -n 1)
pg_lat=$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' "$work/pgbench.txt" | head -n 1)

echo "== botpay checkout: $CLIENTS workers over 256 bots, ${DURATION}s" >&2
go build -o "$work/botpay" ./cmd/botpay
go build -o "$work/loadgen" ./bench/loadgen
DATABASE_URL="$PGURL_BASE/$db_botpay?sslmode=disable" BOTPAY_ADDR=127.0.0.1:$PORT BOTPAY_DATA_DIR="$work/data" \
	BOTPAY_RATE_REGISTER_PER_HOUR=100000 BOTPAY_RATE_CHECKOUT_PER_HOUR=1000000000 BOTPAY_LOG_LEVEL=warn \
	"$work/botpay" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
	curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
	sleep 0.2
done
"$work/loadgen" -url "http://127.0.0.1:$PORT" -scenario checkout -c "$CLIENTS" -d "${DURATION}s" -warmup 3s \
	-label postgres -json -out "$work/checkout.json" >/dev/null
field() { sed -n "s/.*\"$1\": *\([0-9.]*\).*/\1/p" "$work/checkout.json" | head -n 1; }
rps=$(field requests_per_second)
ok=$(field success)
failed=$(field failed)
p50=$(field p50)
p99=$(field p99)
ratio=$(awk -v a="$rps" -v b="$pg_tps" 'BEGIN { printf "%.2f", a / b }')

cat <<TABLE
| workload | clients | transactions/s | latency | failed |
|---|---|---|---|---|
| pgbench TPC-B-like (scale $SCALE, prepared) | $CLIENTS | $pg_tps | mean $pg_lat ms | – |
| botpay auto-approved checkout (HTTP, 256 bots) | $CLIENTS | $rps | p50 $p50 ms, p99 $p99 ms | $failed of $((ok + failed)) |

checkout / TPC-B throughput ratio: **$ratio** (target ≥ 0.5); checkout p99 $p99 ms (target ≤ 20 ms).
Machine: $(nproc) CPUs, $(uname -sr), $(psql -tA "$PGURL_BASE/postgres" -c 'SHOW server_version' 2>/dev/null | head -n 1 | sed 's/^/PostgreSQL /'), Go $(go env GOVERSION).
TABLE
