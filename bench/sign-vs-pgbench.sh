#!/usr/bin/env bash
# Load figure of the x402 sign endpoint (POST /api/v1/processor-wallet/bot/sign)
# on PostgreSQL and SQLite, beside pgbench's TPC-B on the same PostgreSQL
# server in the same run (docs/performance.md). Uses scratch databases
# bench_pgbench and bench_sign on 127.0.0.1:5432 (user postgres, trust) and
# stops every process it starts.
#
#   bench/sign-vs-pgbench.sh            # 8 clients, 15 s per run
#   CONCURRENCY=16 DURATION=30s bench/sign-vs-pgbench.sh
#   ROUNDS=5 bench/sign-vs-pgbench.sh   # pgbench and sign alternate in rounds (3)
set -euo pipefail
cd "$(dirname "$0")/.."

C=${CONCURRENCY:-8}
DUR=${DURATION:-15s}
ROUNDS=${ROUNDS:-3}
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

"${PSQL[@]}" -c "DROP DATABASE IF EXISTS bench_pgbench" -c "CREATE DATABASE bench_pgbench"
"$PGBENCH" -h 127.0.0.1 -U postgres -i -s 10 -q bench_pgbench >/dev/null 2>&1

start_server() { # label, then env assignments for the server
  local label=$1; shift
  env "$@" BOTPAY_ADDR=$ADDR BOTPAY_DATA_DIR="$work/$label" BOTPAY_LOG_LEVEL=warn BOTPAY_RATE_REGISTER_PER_HOUR=100000 BOTPAY_RATE_SIGNUP_PER_HOUR=100000 "$work/botpay" serve >"$work/$label.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -fs "http://$ADDR/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }
field() { sed -n "s/.*\"$1\": *\([0-9.]*\).*/\1/p" "$2" | head -n 1; }

# PostgreSQL: pgbench and the sign scenario alternate in ROUNDS rounds, each
# round's ratio comparing two measurements a few seconds apart (the VM's
# speed drifts); each sign round sets up its own 256 bots, not measured.
"${PSQL[@]}" -c "DROP DATABASE IF EXISTS bench_sign" -c "CREATE DATABASE bench_sign"
start_server postgres DATABASE_URL="postgres://postgres@127.0.0.1:5432/bench_sign?sslmode=disable"
ratios=()
rows=""
for round in $(seq "$ROUNDS"); do
  echo "== round $round/$ROUNDS: pgbench TPC-B (scale 10, $C clients, ${SECS}s), then the sign endpoint on PostgreSQL"
  "${PSQL[@]}" -c CHECKPOINT
  "$PGBENCH" -h 127.0.0.1 -U postgres -c "$C" -j 2 -T "$SECS" -M prepared bench_pgbench >"$work/pgbench.txt" 2>&1
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/pgbench.txt" | head -n 1)
  "${PSQL[@]}" -c CHECKPOINT
  out="$work/postgres-sign-$round.json"
  "$work/loadgen" -url "http://$ADDR" -scenario sign -c "$C" -d "$DUR" -label postgres -json -out "$out" >/dev/null
  rps=$(field requests_per_second "$out")
  ratio=$(awk -v a="$rps" -v b="$tps" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$ratio")
  rows+="| $round | $(printf '%.0f' "$tps") | $(printf '%.0f' "$rps") | $ratio | $(field p50 "$out") | $(field p99 "$out") |"$'\n'
done
"$work/loadgen" -url "http://$ADDR" -scenario sign-one-bot -c "$C" -d "$DUR" -label postgres -out "$work/postgres-sign-one-bot.json" >/dev/null
stop_server
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')

serve_and_load() { # label, then env assignments for the server
  local label=$1; shift
  start_server "$label" "$@"
  for scenario in sign sign-one-bot; do
    "$work/loadgen" -url "http://$ADDR" -scenario $scenario -c "$C" -d "$DUR" -label "$label" -out "$work/$label-$scenario.json" >/dev/null
  done
  stop_server
}

echo "== sign endpoint on SQLite"
serve_and_load sqlite

echo
echo "| round | pgbench TPC-B tps | sign/s PostgreSQL | ratio | p50 ms | p99 ms |"
echo "|---|---|---|---|---|---|"
printf '%s' "$rows"
echo
echo "sign / TPC-B throughput ratio on PostgreSQL, median of $ROUNDS rounds: **$median** (target ≥ 0.5)"
echo
"$work/loadgen" -report "$work"/postgres-*.json "$work"/sqlite-*.json
"${PSQL[@]}" -c "DROP DATABASE IF EXISTS bench_pgbench" -c "DROP DATABASE IF EXISTS bench_sign"
