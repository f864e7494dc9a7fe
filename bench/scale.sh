#!/usr/bin/env bash
# bench/scale.sh — every hot path on a full database beside an empty one:
# ROUNDS rounds, each running bench/run.sh on the full and on a
# fresh empty database of each engine (the order alternates between rounds),
# then one table of full ÷ empty ratios of the medians (loadgen -compare).
#
# The full databases are made once, beforehand, with bench/seed:
#   psql -h 127.0.0.1 -U postgres -c 'CREATE DATABASE botpay_scale_full'
#   go run ./bench/seed -database-url 'postgres://postgres@127.0.0.1:5432/botpay_scale_full?sslmode=disable'
#   go run ./bench/seed -data-dir /tmp/scale/sqlite-full
#
# Settings (environment): SCALE_PG_DB (default botpay_scale_full), SCALE_SQLITE_DIR (default
# /tmp/scale/sqlite-full), ROUNDS (default 3), SCALE_OUT (result folder, default a new temporary one),
# and every BENCH_* setting of bench/run.sh (defaults here: the scale scenarios, 8 workers, 10 s).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROUNDS=${ROUNDS:-3}
OUT=${SCALE_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/botpay-scale.XXXXXX")}
mkdir -p "$OUT"
export BENCH_SCENARIOS=${BENCH_SCENARIOS:-"wallet-check checkout transactions sales dashboard-home dashboard dashboard-spending dashboard-earning"}
export BENCH_CONCURRENCY=${BENCH_CONCURRENCY:-8} BENCH_DURATION=${BENCH_DURATION:-10s} BENCH_WARMUP=${BENCH_WARMUP:-2s}
export BENCH_QUIET_WAIT=${BENCH_QUIET_WAIT:-30}
full_db=(BENCH_PG_DB="${SCALE_PG_DB:-botpay_scale_full}" BENCH_SQLITE_DIR="${SCALE_SQLITE_DIR:-/tmp/scale/sqlite-full}")

# one ENGINE KIND ROUND: bench/run.sh on one database, results kept in $OUT.
one() {
	local engine=$1 kind=$2 round=$3 dir="$OUT/$round-$1-$2" settings=()
	[[ "$kind" == full ]] && settings=("${full_db[@]}")
	env "${settings[@]}" BENCH_ENGINES="$engine" BENCH_LABEL="$kind, round $round" BENCH_OUT="$dir" \
		"$ROOT/bench/run.sh" | tee -a "$OUT/tables.md"
}

for round in $(seq "$ROUNDS"); do
	order="full empty"
	((round % 2 == 0)) && order="empty full"
	for engine in postgres sqlite; do
		for kind in $order; do
			one "$engine" "$kind" "$round"
		done
	done
done
cd "$ROOT" && go build -o "$OUT/loadgen" ./bench/loadgen
echo
echo "Full ÷ empty, medians of $ROUNDS rounds (results in $OUT):"
echo
"$OUT/loadgen" -compare "$OUT"/*/result-*.json | tee "$OUT/comparison.md"
