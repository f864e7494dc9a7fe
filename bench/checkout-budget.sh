#!/usr/bin/env bash
# checkout-budget.sh counts what one auto-approved checkout makes
# PostgreSQL write: rows inserted, updated (and how many of the updates
# were HOT, i.e. touched no index), index entries, and WAL bytes, per
# checkout, table by table. Unlike throughput these counts do not depend on
# how busy the machine is, so they can be compared across builds and days.
# The dispatcher that stages each event runs in the server as in
# production, so its writes are counted too.
#
# Settings (environment): PGURL_BASE (default postgres://postgres@127.0.0.1:5432,
# trust auth; a database is created and dropped), CHECKOUTS (default 20000),
# CLIENTS (8), PORT (18483). WAL bytes are the cluster's: run it with
# nothing else writing to this PostgreSQL server. When the server has
# pg_stat_statements loaded (shared_preload_libraries), the statements of
# the measured run are listed too, per checkout: calls, execution time,
# buffers and WAL bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
PGURL_BASE=${PGURL_BASE:-postgres://postgres@127.0.0.1:5432}
CHECKOUTS=${CHECKOUTS:-20000}
CLIENTS=${CLIENTS:-8}
PORT=${PORT:-18483}
db=bench_budget_$$
work=$(mktemp -d)
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
	psql -q "$PGURL_BASE/postgres" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
q() { psql -X -qtA "$PGURL_BASE/$db" -c "$1"; }
psql -q "$PGURL_BASE/postgres" -c "CREATE DATABASE $db" >/dev/null
go build -o "$work/botpay" ./cmd/botpay
go build -o "$work/loadgen" ./bench/loadgen
DATABASE_URL="$PGURL_BASE/$db?sslmode=disable" BOTPAY_ADDR=127.0.0.1:$PORT BOTPAY_DATA_DIR="$work/data" \
	BOTPAY_RATE_REGISTER_PER_HOUR=100000 BOTPAY_RATE_SIGNUP_PER_HOUR=100000 BOTPAY_RATE_CHECKOUT_PER_HOUR=1000000000 \
	BOTPAY_LOG_LEVEL=warn "$work/botpay" serve >"$work/server.log" 2>&1 &
server_pid=$!
"$work/loadgen" -url "http://127.0.0.1:$PORT" -wait-ready 30s >/dev/null
# The bots are set up and warmed up by a first, unmeasured run.
"$work/loadgen" -url "http://127.0.0.1:$PORT" -scenario checkout -c "$CLIENTS" -n 2000 -warmup 1s -d 0 >/dev/null
sleep 2 # let the dispatcher stage what the warm-up emitted
snapshot() {
	q "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del,
	          (SELECT count(*) FROM pg_index i WHERE i.indrelid = s.relid)
	   FROM pg_stat_user_tables s ORDER BY relname" >"$1"
}
q "SELECT pg_stat_force_next_flush()" >/dev/null 2>&1 || true
sleep 1
snapshot "$work/before"
statements=
if q "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()" >/dev/null 2>&1; then
	statements=1
fi
wal0=$(q "SELECT pg_current_wal_lsn()")
"$work/loadgen" -url "http://127.0.0.1:$PORT" -scenario checkout -c "$CLIENTS" -n "$CHECKOUTS" -warmup 0s -d 0 -json -out "$work/run.json" >/dev/null
sleep 3 # the dispatcher stages the last events
wal1=$(q "SELECT pg_current_wal_lsn()")
sleep 1
snapshot "$work/after"
ok=$(sed -n 's/.*"success": *\([0-9]*\).*/\1/p' "$work/run.json" | head -n 1)
wal=$(q "SELECT pg_wal_lsn_diff('$wal1', '$wal0')")
echo "Checkouts measured: $ok (of $CHECKOUTS asked; $CLIENTS workers). $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD)."
echo
echo "| table | rows inserted / checkout | rows updated / checkout | of them HOT | deleted / checkout | indexes | index entries / checkout |"
echo "|---|---:|---:|---:|---:|---:|---:|"
join -t'|' "$work/before" "$work/after" | awk -F'|' -v n="$ok" '
	{ ins = $7 - $2; upd = $8 - $3; hot = $9 - $4; del = $10 - $5; idx = $11
	  if (ins + upd + del == 0) next
	  entries = (ins + (upd - hot)) * idx
	  ti += ins; tu += upd; th += hot; td += del; te += entries
	  printf "| %s | %.2f | %.2f | %.2f | %.2f | %d | %.2f |\n", $1, ins / n, upd / n, hot / n, del / n, idx, entries / n }
	END { printf "| **all** | **%.2f** | **%.2f** | **%.2f** | **%.2f** | | **%.2f** |\n", ti / n, tu / n, th / n, td / n, te / n }'
echo
per=$(awk -v w="$wal" -v n="$ok" 'BEGIN { printf "%.0f", w / n }')
echo "WAL: $wal bytes in all, **$per bytes per checkout** (the whole cluster's, the dispatcher's staging included)."
echo
echo "Each loadgen run sets up its own 256 bots (register, claim, fund, card): the rows of bots,"
echo "cards, owners and the like, and part of wallets, are that set-up spread over the checkouts."
[ -n "$statements" ] || exit 0
echo
echo "Statements of the measured run (pg_stat_statements, this database only), per checkout:"
echo
echo "| calls | exec µs | rows | buffers hit | dirtied | WAL bytes | statement |"
echo "|---:|---:|---:|---:|---:|---:|---|"
q "SELECT format('| %s | %s | %s | %s | %s | %s | %s |',
	round(calls::numeric / $ok, 2), round((total_exec_time * 1000 / $ok)::numeric, 1), round(rows::numeric / $ok, 2),
	round(shared_blks_hit::numeric / $ok, 1), round(shared_blks_dirtied::numeric / $ok, 2), round(wal_bytes::numeric / $ok),
	replace(left(regexp_replace(query, '\s+', ' ', 'g'), 90), '|', '\|'))
   FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
   WHERE d.datname = current_database() AND calls >= $ok / 100
   ORDER BY total_exec_time DESC LIMIT 20"
