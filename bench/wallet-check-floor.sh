#!/usr/bin/env bash
# wallet-check-floor.sh puts botpay's wallet/check beside its floor on the
# same machine, in one run: pgbench -S (select-only) at CLIENTS clients,
# then, each driven by wrk (a C client as lean as pgbench's) with CLIENTS
# connections, bench/httpfloor answering a fixed JSON body of wallet/check's
# size without the database, httpfloor with one pgbench -S read per request
# through pgx, and botpay's GET /api/v1/bot/wallet/check of a claimed,
# funded bot. For each it prints throughput, the ratio to pgbench -S, and
# CPU per request of the server process, of PostgreSQL's backends of the
# database used, and of the client, from /proc. The httpfloor rows are what
# any Go HTTP endpoint making one PostgreSQL read costs here before any
# service code runs: the gap between them and pgbench is the cost of HTTP
# and of the Go server, the gap between them and botpay is botpay's own.
#
# Settings (environment): PGURL_BASE (default postgres://postgres@127.0.0.1:5432,
# trust auth; two databases are created and dropped), CLIENTS (16),
# DURATION seconds per measurement (15), ROUNDS (3), SCALE for pgbench (16).
set -euo pipefail
cd "$(dirname "$0")/.."

PGURL_BASE=${PGURL_BASE:-postgres://postgres@127.0.0.1:5432}
CLIENTS=${CLIENTS:-16}
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-3}
SCALE=${SCALE:-16}
PGBENCH=${PGBENCH:-$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -n 1)}
command -v wrk >/dev/null || { echo "wrk not found (Debian: apt-get install wrk)" >&2; exit 1; }

work=$(mktemp -d)
db_botpay=floor_botpay_$$
db_pgbench=floor_pgbench_$$
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
	psql -q "$PGURL_BASE/postgres" -c "DROP DATABASE IF EXISTS $db_botpay" -c "DROP DATABASE IF EXISTS $db_pgbench" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
psql -q "$PGURL_BASE/postgres" -c "CREATE DATABASE $db_botpay" -c "CREATE DATABASE $db_pgbench" >/dev/null
"$PGBENCH" -i -q -s "$SCALE" "$PGURL_BASE/$db_pgbench" >/dev/null 2>&1
go build -o "$work/botpay" ./cmd/botpay
go build -o "$work/httpfloor" ./bench/httpfloor

DATABASE_URL="$PGURL_BASE/$db_botpay?sslmode=disable" BOTPAY_ADDR=127.0.0.1:18492 BOTPAY_DATA_DIR="$work/data" \
	BOTPAY_RATE_REGISTER_PER_HOUR=100000 BOTPAY_RATE_SIGNUP_PER_HOUR=100000 BOTPAY_LOG_LEVEL=warn \
	"$work/botpay" serve >"$work/botpay.log" 2>&1 &
botpay_pid=$!
pids+=("$botpay_pid")
for _ in $(seq 50); do curl -fsS http://127.0.0.1:18492/readyz >/dev/null 2>&1 && break; sleep 0.2; done

# A claimed, funded bot, as loadgen's wallet-check scenario sets up.
api=http://127.0.0.1:18492/api/v1
post() { curl -fsS -X POST -H 'Content-Type: application/json' ${3:+-H "Authorization: Bearer $3"} -d "$2" "$api$1"; }
json() { sed -n "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p"; }
owner=$(post /owner/signup '{"email":"floor-owner@example.com","password":"floor-password-1"}' | json token)
code=$(post /owner/pairing-codes '{}' "$owner" | json pairing_code)
reg=$(post /bots/register '{"bot_name":"floor-bot","owner_email":"floor-owner@example.com","pairing_code":"'"$code"'"}')
bot=$(json bot_id <<<"$reg")
key=$(json api_key <<<"$reg")
post "/owner/bots/$bot/fund" '{"amount_usd":1000}' "$owner" >/dev/null
size=$(curl -fsS -H "Authorization: Bearer $key" "$api/bot/wallet/check" | wc -c)

"$work/httpfloor" -addr 127.0.0.1:18493 -bytes "$size" >/dev/null 2>&1 &
static_pid=$!
pids+=("$static_pid")
"$work/httpfloor" -addr 127.0.0.1:18494 -bytes "$size" -database-url "$PGURL_BASE/$db_pgbench" -accounts $((SCALE * 100000)) >/dev/null 2>&1 &
read_pid=$!
pids+=("$read_pid")
sleep 1

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
db_ticks() { # every backend of database $1
	local sum=0 p
	for p in $(pgrep -f "postgres: .* $1 " || true); do sum=$((sum + $(ticks "$p" 2>/dev/null || echo 0))); done
	echo "$sum"
}
busy() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
per() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.0f", n ? t / 100 * 1e6 / n : 0 }'; }

# measure NAME SERVER_PID DATABASE URL: wrk against URL, CPU from /proc.
measure() {
	local name=$1 pid=$2 db=$3 url=$4 s0 d0 b0 s1 d1 b1 n rps c
	wrk -t 2 -c "$CLIENTS" -d 2s -H "Authorization: Bearer $key" "$url" >/dev/null
	s0=$(ticks "$pid") d0=$(db_ticks "$db") b0=$(busy)
	/usr/bin/time -f '%U %S' -o "$work/wrk.time" wrk -t 2 -c "$CLIENTS" -d "${DURATION}s" --latency -H "Authorization: Bearer $key" "$url" >"$work/wrk.txt"
	s1=$(ticks "$pid") d1=$(db_ticks "$db") b1=$(busy)
	n=$(awk '/requests in/ { print $1 }' "$work/wrk.txt")
	rps=$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' "$work/wrk.txt")
	c=$(awk '{ printf "%.0f", ($1 + $2) * 100 }' "$work/wrk.time")
	rows+="| $round | $name | $rps | $(awk -v a="$rps" -v b="$pg_tps" 'BEGIN { printf "%.2f", a / b }') | $(awk '/ 99%/ { print $2 }' "$work/wrk.txt") | $(per $((s1 - s0)) "$n") | $(per $((d1 - d0)) "$n") | $(per "$c" "$n") | $(awk -v a="$b0" -v b="$b1" -v d="$DURATION" 'BEGIN { printf "%.2f", (b - a) / 100 / d }') |"$'\n'
}

rows=""
for round in $(seq "$ROUNDS"); do
	echo "== round $round/$ROUNDS" >&2
	b0=$(busy)
	/usr/bin/time -f '%U %S' -o "$work/pgbench.time" "$PGBENCH" -S -c "$CLIENTS" -j 2 -T "$DURATION" -M prepared "$PGURL_BASE/$db_pgbench" >"$work/pgbench.txt" 2>&1
	b1=$(busy)
	pg_tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/pgbench.txt" | head -n 1)
	n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$work/pgbench.txt")
	client=$(awk '{ printf "%.0f", ($1 + $2) * 100 }' "$work/pgbench.time")
	rows+="| $round | pgbench -S | $(printf '%.0f' "$pg_tps") | 1.00 | | | $(per $((b1 - b0 - client)) "$n") (machine less client) | $(per "$client" "$n") | $(awk -v a="$b0" -v b="$b1" -v d="$DURATION" 'BEGIN { printf "%.2f", (b - a) / 100 / d }') |"$'\n'
	measure "httpfloor, no database" "$static_pid" none "http://127.0.0.1:18493/"
	measure "httpfloor, one pgbench -S read" "$read_pid" "$db_pgbench" "http://127.0.0.1:18494/"
	measure "botpay wallet/check" "$botpay_pid" "$db_botpay" "$api/bot/wallet/check"
done

cat <<TABLE
| round | what | requests/s ($CLIENTS connections) | ratio to pgbench -S | p99 | server CPU µs / request | PostgreSQL CPU µs / request | client CPU µs / request | busy cores |
|---|---|---:|---:|---|---:|---:|---:|---:|
$rows
Answer size $size bytes. Machine: $(nproc) CPUs, $(uname -sr), $(psql -tA "$PGURL_BASE/postgres" -c 'SHOW server_version' | head -n 1 | sed 's/^/PostgreSQL /'), Go $(go env GOVERSION), $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2).
TABLE
