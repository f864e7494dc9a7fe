#!/usr/bin/env bash
# Load figure of the x402 sign endpoint (POST /api/v1/processor-wallet/bot/sign)
# on PostgreSQL and SQLite, beside pgbench's TPC-B on the same PostgreSQL
# server in the same run (docs/performance.md). Uses scratch databases
# bench_pgbench and bench_sign on 127.0.0.1:5432 (user postgres, trust) and
# stops every process it starts.
#
#   bench/sign-vs-pgbench.sh            # 8 clients, 15 s per run
#   CONCURRENCY=16 DURATION=30s bench/sign-vs-pgbench.sh
set -euo pipefail
cd "$(dirname "$0")/.."

C=${CONCURRENCY:-8}
DUR=${DURATION:-15s}
SECS=${DUR%s}
PGBENCH=${PGBENCH:-$(ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -1)}
PSQL=(psql -h 127.0.0.1 -U postgres -d postgres -q)
ADDR=127.0.0.1:18091
work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

[ -x "$PGBENCH" ] || { echo "pgbench not found (Debian: postgresql server package); set PGBENCH=" >&2; exit 1; }
go build -o "$work/botpay" ./cmd/botpay
go build -o "$work/loadgen" ./bench/loadgen

echo "== pgbench TPC-B (scale 10, $C clients, ${SECS}s)"
"${PSQL[@]}" -c "DROP DATABASE IF EXISTS bench_pgbench" -c "CREATE DATABASE bench_pgbench"
"$PGBENCH" -h 127.0.0.1 -U postgres -i -s 10 -q bench_pgbench >/dev/null 2>&1
# A checkpoint before each measured workload, so neither pays for flushing
# the pages the previous step dirtied.
"${PSQL[@]}" -c CHECKPOINT
"$PGBENCH" -h 127.0.0.1 -U postgres -c "$C" -j 2 -T "$SECS" -M prepared bench_pgbench | tee "$work/pgbench.txt" | grep -E "^(tps|latency)"
"${PSQL[@]}" -c CHECKPOINT

serve_and_load() { # label, then env assignments for the server
  local label=$1; shift
  env "$@" BOTPAY_ADDR=$ADDR BOTPAY_DATA_DIR="$work/$label" BOTPAY_LOG_LEVEL=warn BOTPAY_RATE_REGISTER_PER_HOUR=100000 "$work/botpay" serve >"$work/$label.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -fs "http://$ADDR/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
  for scenario in sign sign-one-bot; do
    "$work/loadgen" -url "http://$ADDR" -scenario $scenario -c "$C" -d "$DUR" -label "$label" -out "$work/$label-$scenario.json" >/dev/null
  done
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
}

echo "== sign endpoint on PostgreSQL"
"${PSQL[@]}" -c "DROP DATABASE IF EXISTS bench_sign" -c "CREATE DATABASE bench_sign"
serve_and_load postgres DATABASE_URL="postgres://postgres@127.0.0.1:5432/bench_sign?sslmode=disable"
echo "== sign endpoint on SQLite"
serve_and_load sqlite

echo
echo "pgbench TPC-B: $(grep -E '^tps' "$work/pgbench.txt" | head -1)"
"$work/loadgen" -report "$work"/postgres-*.json "$work"/sqlite-*.json
"${PSQL[@]}" -c "DROP DATABASE IF EXISTS bench_pgbench" -c "DROP DATABASE IF EXISTS bench_sign"
