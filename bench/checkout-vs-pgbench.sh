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
# The same comparison serves the other hot paths: SCENARIO names loadgen's
# scenario (checkout by default; sign, wallet-check) and PGBENCH_BUILTIN
# pgbench's built-in script (tpcb-like by default; select-only, as
# `pgbench -S`, is the reference of a read such as wallet-check):
#
#   SCENARIO=sign bench/checkout-vs-pgbench.sh
#   SCENARIO=wallet-check PGBENCH_BUILTIN=select-only CLIENTS=16 bench/checkout-vs-pgbench.sh
#
# Settings (environment): PGURL_BASE (default postgres://postgres@127.0.0.1:5432,
# trust auth; the script creates and drops two databases), CLIENTS (8),
# DURATION seconds per measurement (20), ROUNDS of both workloads (3), SCALE for pgbench (= CLIENTS),
# PORT for the botpay server (18482), PGBENCH (found on PATH or under
# /usr/lib/postgresql/*/bin), BOTPAY_DB (run botpay on this existing
# database, e.g. one filled by bench/seed, instead of a fresh one; it is kept),
# CALLBACK_URL (the checkout bots' callback URL; unset: loadgen's default, an
# address that never answers, so the dispatcher retries and stages every
# event; set and empty: none, every event staged as a pending message when
# written), BOTPAY_BIN (a botpay binary to measure instead of building this
# tree's, e.g. an older commit's, so that both run under this script),
# LOADGEN_CLIENT (loadgen's -client: conn, the default, or transport).
#
# pgbench logs one transaction in ten (--log --sampling-rate=0.1), so the
# table shows its p99 beside botpay's: the reference's tail on the same
# machine.
#
# CPU per transaction, on Linux: for botpay, loadgen reads the server's and
# its PostgreSQL backends' ticks in /proc; for pgbench, whose backends exit
# with it, the machine's busy ticks (/proc/stat) during the run less
# pgbench's own user and system time.
set -euo pipefail
cd "$(dirname "$0")/.."

PGURL_BASE=${PGURL_BASE:-postgres://postgres@127.0.0.1:5432}
CLIENTS=${CLIENTS:-8}
DURATION=${DURATION:-20}
ROUNDS=${ROUNDS:-3}
SCALE=${SCALE:-$CLIENTS}
PORT=${PORT:-18482}
SCENARIO=${SCENARIO:-checkout}
PGBENCH_BUILTIN=${PGBENCH_BUILTIN:-tpcb-like}
PGBENCH=${PGBENCH:-$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -n 1)}
[ -x "$PGBENCH" ] || { echo "pgbench not found; set PGBENCH" >&2; exit 1; }

work=$(mktemp -d)
tag=$$
db_botpay=${BOTPAY_DB:-bench_botpay_$tag}
db_pgbench=bench_pgbench_$tag
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
	[ -n "${BOTPAY_DB:-}" ] || psql -q "$PGURL_BASE/postgres" -c "DROP DATABASE IF EXISTS $db_botpay" >/dev/null 2>&1 || true
	psql -q "$PGURL_BASE/postgres" -c "DROP DATABASE IF EXISTS $db_pgbench" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
[ -n "${BOTPAY_DB:-}" ] || psql -q "$PGURL_BASE/postgres" -c "CREATE DATABASE $db_botpay" >/dev/null
psql -q "$PGURL_BASE/postgres" -c "CREATE DATABASE $db_pgbench" >/dev/null

"$PGBENCH" -i -q -s "$SCALE" "$PGURL_BASE/$db_pgbench" >/dev/null 2>&1
. bench/serve-for-load.sh
start_botpay_for_load "$PGURL_BASE/$db_botpay?sslmode=disable" "$PORT"

# The machine's speed drifts (a shared VM): the two workloads alternate in
# ROUNDS rounds of DURATION seconds each, and each round's ratio compares
# measurements taken a few seconds apart. Each checkout round sets up its own
# 256 bots (not measured) and warms up for 3 s. A checkpoint before each
# measured workload, so neither pays for flushing the pages the other (or
# pgbench's initialisation) dirtied.
# The cluster's WAL bytes and full-page images, and the commits of botpay's
# database: from just before loadgen starts (set-up and warm-up included)
# to its end only botpay writes, so their ratio is its WAL per transaction.
wal_and_commits() {
	psql -tA -F ' ' "$PGURL_BASE/postgres" -c "SELECT w.wal_bytes, w.wal_fpi, d.xact_commit FROM pg_stat_wal w, pg_stat_database d WHERE d.datname = '$db_botpay'"
}
busy_ticks() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
field() { sed -n "s/.*\"$1\": *\([0-9.]*\).*/\1/p" "$2" | head -n 1; }
# pgbench_p99 is the 99th percentile of the transaction latencies pgbench
# logged (one in ten, sampled: logging every one would cost the reference
# client time it does not spend otherwise), in ms; field 3 of a log line is
# the latency in µs.
pgbench_p99() {
	cat "$work"/pglog.* | awk '{ print $3 }' | sort -n | awk '{ a[NR] = $1 } END { i = int(NR * 0.99 + 0.5); if (i < 1) i = 1; if (NR) printf "%.3f", a[i] / 1000 }'
}

ratios=()
rows=""
for round in $(seq "$ROUNDS"); do
	echo "== round $round/$ROUNDS: pgbench $PGBENCH_BUILTIN (scale $SCALE, $CLIENTS clients, ${DURATION}s), then botpay $SCENARIO" >&2
	psql -q "$PGURL_BASE/postgres" -c CHECKPOINT
	before=$(busy_ticks)
	rm -f "$work"/pglog.*
	/usr/bin/time -f '%U %S' -o "$work/pgbench.time" \
		"$PGBENCH" -b "$PGBENCH_BUILTIN" -c "$CLIENTS" -j 2 -T "$DURATION" -M prepared \
		--log --sampling-rate=0.1 --log-prefix="$work/pglog" "$PGURL_BASE/$db_pgbench" >"$work/pgbench.txt" 2>&1
	after=$(busy_ticks)
	pg_p99=$(pgbench_p99)
	pg_tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/pgbench.txt" | head -n 1)
	pg_txns=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$work/pgbench.txt" | head -n 1)
	pg_us=$(awk -v a="$before" -v b="$after" -v n="$pg_txns" '{ printf "%.0f", ((b - a) / 100 - $1 - $2) * 1e6 / n }' "$work/pgbench.time")
	pg_busy=$(awk -v a="$before" -v b="$after" -v d="$DURATION" 'BEGIN { printf "%.2f", (b - a) / 100 / d }')
	pgclient_us=$(awk -v n="$pg_txns" '{ printf "%.0f", ($1 + $2) * 1e6 / n }' "$work/pgbench.time")
	psql -q "$PGURL_BASE/postgres" -c CHECKPOINT
	wal_before=$(wal_and_commits)
	"$work/loadgen" -url "http://127.0.0.1:$PORT" -scenario "$SCENARIO" -c "$CLIENTS" -d "${DURATION}s" -warmup 3s \
		-label postgres -json -out "$work/checkout.json" -watch-pid "$server_pid" -watch-cmdline "$db_botpay" \
		${CALLBACK_URL+-callback-url "$CALLBACK_URL"} ${LOADGEN_CLIENT:+-client "$LOADGEN_CLIENT"} >/dev/null
	wal_after=$(wal_and_commits)
	wal_per=$(awk -v a="$wal_before" -v b="$wal_after" 'BEGIN { split(a, x); split(b, y); n = y[3] - x[3]; printf "%.0f | %.2f", n ? (y[1] - x[1]) / n : 0, n ? (y[2] - x[2]) / n : 0 }')
	rps=$(field requests_per_second "$work/checkout.json")
	ok=$(field success "$work/checkout.json")
	failed=$(field failed "$work/checkout.json")
	p50=$(field p50 "$work/checkout.json")
	p99=$(field p99 "$work/checkout.json")
	server_us=$(printf '%.0f' "$(field server_cpu_us_per_request "$work/checkout.json")")
	db_us=$(printf '%.0f' "$(field database_cpu_us_per_request "$work/checkout.json")")
	loadgen_us=$(printf '%.0f' "$(field loadgen_cpu_us_per_request "$work/checkout.json")")
	busy=$(field busy_cores "$work/checkout.json")
	ratio=$(awk -v a="$rps" -v b="$pg_tps" 'BEGIN { printf "%.2f", a / b }')
	ratios+=("$ratio")
	rows+="| $round | $(printf '%.0f' "$pg_tps") | $(printf '%.0f' "$rps") | $ratio | $p50 | $p99 | $pg_p99 | $failed of $((ok + failed)) | $pg_us | $pgclient_us | $pg_busy | $server_us | $db_us | $loadgen_us | $busy | $wal_per |"$'\n'
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')

cat <<TABLE
| round | pgbench $PGBENCH_BUILTIN tps ($CLIENTS clients, scale $SCALE, prepared) | $SCENARIO/s ($CLIENTS workers, HTTP) | ratio | $SCENARIO p50 ms | $SCENARIO p99 ms | pgbench p99 ms (one in ten sampled) | failed | PostgreSQL CPU µs / pgbench txn | pgbench client CPU µs / txn | busy cores during pgbench | server CPU µs / $SCENARIO | PostgreSQL CPU µs / $SCENARIO | loadgen CPU µs / $SCENARIO | busy cores during $SCENARIO | WAL bytes / botpay commit | full-page images / commit |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
$rows
$SCENARIO / pgbench $PGBENCH_BUILTIN throughput ratio, median of $ROUNDS rounds: **$median** (checkout's target ≥ 0.6 with p99 ≤ 15 ms, sign's ≥ 0.6, wallet-check's ≥ 0.3 of select-only at 16 clients). The CPU columns are sound on a quiet machine only: the pgbench one counts every process of the machine but pgbench.
Machine: $(nproc) CPUs, $(uname -sr), $(psql -tA "$PGURL_BASE/postgres" -c 'SHOW server_version' 2>/dev/null | head -n 1 | sed 's/^/PostgreSQL /'), Go $(go env GOVERSION).
TABLE
