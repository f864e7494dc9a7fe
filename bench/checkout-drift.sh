#!/usr/bin/env bash
# checkout-drift.sh runs botpay's checkout under load for one long run
# and prints, every 10 seconds, what each commit cost in that window:
# PostgreSQL CPU per commit of botpay's database (its backends, the exited
# ones and autovacuum workers included), server CPU per commit, WAL bytes
# and full-page images per commit. A round of checkout-vs-pgbench.sh gives
# one average; this shows when in a run the cost changes (a checkpoint, an
# autovacuum, a plan) and whether it stays changed. The server log of PostgreSQL says what happened when.
# The first window holds loadgen's set-up (owners, bots, cards) and its
# 3 s warm-up.
#
# Settings (environment): PGURL_BASE (default postgres://postgres@127.0.0.1:5432,
# trust auth, a superuser: pg_stat_wal is read; a database is created and
# dropped), SECONDS_RUN (100), CLIENTS (8), PORT (18495), BOTPAY_BIN (a
# botpay binary to run instead of building this tree's).
set -euo pipefail
cd "$(dirname "$0")/.."

PGURL_BASE=${PGURL_BASE:-postgres://postgres@127.0.0.1:5432}
SECONDS_RUN=${SECONDS_RUN:-100}
CLIENTS=${CLIENTS:-8}
PORT=${PORT:-18495}
work=$(mktemp -d)
db=bench_drift_$$
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
	psql -q "$PGURL_BASE/postgres" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
psql -q "$PGURL_BASE/postgres" -c "CREATE DATABASE $db" >/dev/null
. bench/serve-for-load.sh
start_botpay_for_load "$PGURL_BASE/$db?sslmode=disable" "$PORT"
"$work/loadgen" -url "http://127.0.0.1:$PORT" -scenario checkout -c "$CLIENTS" -d "${SECONDS_RUN}s" -warmup 3s -callback-url "" >/dev/null &
loadgen_pid=$!

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
reaped_ticks() { awk '{ print $16 + $17 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# backend_ticks is the CPU botpay's backends ("postgres: … <user> <database>
# <host>(<port>) <state>") used so far: the live ones', and what those
# that exited (the server replaces its connections every 30 s) left to
# their parent, the postmaster, with its other exited children
# (autovacuum workers, this script's psql).
postmaster=$(head -n 1 "$(psql -tA "$PGURL_BASE/postgres" -c 'SHOW data_directory')/postmaster.pid")
backend_ticks() {
	local sum=0 p
	for p in $(pgrep -f "postgres: .* $db " || true); do sum=$((sum + $(ticks "$p"))); done
	echo $((sum + $(reaped_ticks "$postmaster")))
}
sample() { echo "$(backend_ticks) $(ticks "$server_pid") $(psql -tA -F ' ' "$PGURL_BASE/postgres" \
	-c "SELECT d.xact_commit, w.wal_bytes, w.wal_fpi FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = '$db'")"; }

echo "| time | commits/s | PostgreSQL CPU µs / commit | server CPU µs / commit | WAL bytes / commit | full-page images / commit |"
echo "|---|---:|---:|---:|---:|---:|"
before=$(sample)
while kill -0 "$loadgen_pid" 2>/dev/null; do
	sleep 10
	after=$(sample)
	awk -v a="$before" -v b="$after" -v t="$(date +%T)" 'BEGIN {
		split(a, x); split(b, y); n = y[3] - x[3]
		if (n > 0) printf "| %s | %d | %.0f | %.0f | %.0f | %.2f |\n", t, n / 10, (y[1] - x[1]) * 1e4 / n, (y[2] - x[2]) * 1e4 / n, (y[4] - x[4]) / n, (y[5] - x[5]) / n
	}'
	before=$after
done
echo
echo "Machine: $(nproc) CPUs, $(uname -sr), $(psql -tA "$PGURL_BASE/postgres" -c 'SHOW server_version' | head -n 1 | sed 's/^/PostgreSQL /'), max_wal_size $(psql -tA "$PGURL_BASE/postgres" -c 'SHOW max_wal_size'), Go $(go env GOVERSION)."
