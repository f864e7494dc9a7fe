#!/usr/bin/env bash
# bench/run.sh — botpay's benchmark: builds botpay and bench/loadgen, then for
# each engine starts `botpay serve` on a free 127.0.0.1 port with a fresh data
# folder (and, for PostgreSQL, a dedicated database created and dropped for
# the run), waits for /readyz, runs the load scenarios, prints a summary table
# and stops the server. Nothing is left running and nothing outside a
# temporary folder is written (unless BENCH_OUT is set).
#
# Needs: Go. For the postgres engine also psql and a reachable server; when
# either is missing that engine is skipped with a note.
#
# Settings (environment):
#   BENCH_ENGINES      engines to run                  (default "sqlite postgres")
#   BENCH_SCENARIOS    loadgen scenarios               (default "wallet-check register")
#   BENCH_DURATION     measured time per scenario      (default 10s)
#   BENCH_REQUESTS     measured requests per scenario instead of a time (e.g. 12 for bench/explain.sh)
#   BENCH_WARMUP       unmeasured warm-up per scenario (default 2s)
#   BENCH_CONCURRENCY  concurrent workers; a list runs each (default 32; e.g. "8 32")
#   BENCH_REPEAT       runs of each scenario           (default 1; every run is a row of the table)
#   BENCH_LOG_LEVEL    server BOTPAY_LOG_LEVEL         (default info: one access-log line per request, as in production)
#   BENCH_PG_HOST, BENCH_PG_PORT, BENCH_PG_USER, BENCH_PG_ADMIN_DB
#                      PostgreSQL to use               (default 127.0.0.1, 5432, postgres, postgres)
#                      (PGPASSWORD is passed through to psql and embedded nowhere)
#   BENCH_QUIET_WAIT   seconds to wait, before each run, for the rest of the machine to be idle
#                      (busy < BENCH_QUIET_CORES cores over 2 s; default 120 s, 0.3 cores); the
#                      run starts anyway after that, and the table's "other" CPU shows the disturbance
#   BENCH_BOTPAY_BIN   use this prebuilt botpay binary instead of building ./cmd/botpay (A/B comparisons)
#   BENCH_LABEL        text added to the engine column of the table, e.g. the variant being compared
#   BENCH_SEED_BOTS    seed the database with this many bots (bench/seed: 10 ledger rows, 2 purchases,
#                      1 event each) before the server starts; 0 = empty (default 0)
#   BENCH_PG_DB        run on this existing PostgreSQL database (e.g. one filled by bench/seed) instead of
#                      a fresh one; it is neither created nor dropped
#   BENCH_SQLITE_DIR   run on this existing SQLite data folder instead of a fresh one; it is kept
#   BENCH_OUT          folder to copy result JSON files and server logs into (default: none)
#   BENCH_KEEP=1       keep the temporary folder (data, logs, results) for inspection
#
# Usage: bench/run.sh                      (from anywhere)
#        BENCH_ENGINES=sqlite BENCH_DURATION=5s bench/run.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ENGINES=${BENCH_ENGINES:-"sqlite postgres"}
SCENARIOS=${BENCH_SCENARIOS:-"wallet-check register"}
DURATION=${BENCH_DURATION:-10s}
WARMUP=${BENCH_WARMUP:-2s}
CONCURRENCY=${BENCH_CONCURRENCY:-32}
REPEAT=${BENCH_REPEAT:-1}
QUIET_WAIT=${BENCH_QUIET_WAIT:-120}
QUIET_CORES=${BENCH_QUIET_CORES:-0.3}
LOG_LEVEL=${BENCH_LOG_LEVEL:-info}
PG_HOST=${BENCH_PG_HOST:-127.0.0.1}
PG_PORT=${BENCH_PG_PORT:-5432}
PG_USER=${BENCH_PG_USER:-postgres}
PG_ADMIN_DB=${BENCH_PG_ADMIN_DB:-postgres}
PG_DB=${BENCH_PG_DB:-"botpay_bench_$$"}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/botpay-bench.XXXXXX")
SERVER_PID=""
LOADGEN_PID=""
PG_CREATED=""
RESULTS=()

log() { printf '==> %s\n' "$*" >&2; }

# stop_server sends SIGTERM, waits up to 25 s for a graceful stop, then kills.
stop_server() {
	[[ -n "$SERVER_PID" ]] || return 0
	if kill -0 "$SERVER_PID" 2>/dev/null; then
		kill -TERM "$SERVER_PID" 2>/dev/null || true
		for _ in $(seq 250); do
			kill -0 "$SERVER_PID" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$SERVER_PID" 2>/dev/null; then
			log "server $SERVER_PID did not stop in 25 s; killing it"
			kill -KILL "$SERVER_PID" 2>/dev/null || true
		fi
	fi
	wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=""
}

psql_admin() {
	psql -X -q -v ON_ERROR_STOP=1 -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d "$PG_ADMIN_DB" "$@"
}

drop_pg_db() {
	[[ -n "$PG_CREATED" ]] || return 0
	psql_admin -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 ||
		log "could not drop database $PG_DB; drop it by hand"
	PG_CREATED=""
}

cleanup() {
	local rc=$?
	if [[ -n "$LOADGEN_PID" ]]; then
		kill -TERM "$LOADGEN_PID" 2>/dev/null || true
		wait "$LOADGEN_PID" 2>/dev/null || true
	fi
	stop_server
	drop_pg_db
	if [[ -n "${BENCH_OUT:-}" ]]; then
		mkdir -p "$BENCH_OUT"
		cp "$WORK"/*.json "$WORK"/*.log "$BENCH_OUT"/ 2>/dev/null || true
	fi
	if [[ "${BENCH_KEEP:-}" == 1 ]]; then
		log "kept $WORK"
	else
		rm -rf "$WORK"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

build() {
	log "building botpay and loadgen ($(go version | cut -d' ' -f3))"
	(cd "$ROOT" && go build -o "$WORK/loadgen" ./bench/loadgen && go build -o "$WORK/seed" ./bench/seed)
	if [[ -n "${BENCH_BOTPAY_BIN:-}" ]]; then
		log "using prebuilt $BENCH_BOTPAY_BIN"
		cp "$BENCH_BOTPAY_BIN" "$WORK/botpay"
	else
		(cd "$ROOT" && go build -o "$WORK/botpay" ./cmd/botpay)
	fi
}

postgres_available() {
	if ! command -v psql >/dev/null; then
		log "postgres: psql not found; skipping"
		return 1
	fi
	if ! psql_admin -c 'SELECT 1' >/dev/null 2>&1; then
		log "postgres: no server answers at $PG_USER@$PG_HOST:$PG_PORT/$PG_ADMIN_DB; skipping"
		return 1
	fi
}

create_pg_db() {
	if [[ -n "${BENCH_PG_DB:-}" ]]; then
		log "postgres: using the existing database $PG_DB"
		return 0
	fi
	psql_admin -c "CREATE DATABASE $PG_DB" >/dev/null
	PG_CREATED=1
	log "postgres: created database $PG_DB"
}

# start_server ENGINE: a fresh data folder, a free port, a high registration
# limit; waits for /readyz. Sets SERVER_PID and BASE_URL.
start_server() {
	local engine=$1 port dburl=""
	port=$("$WORK/loadgen" -free-port)
	BASE_URL="http://127.0.0.1:$port"
	if [[ "$engine" == postgres ]]; then
		dburl="postgres://$PG_USER@$PG_HOST:$PG_PORT/$PG_DB?sslmode=disable"
	fi
	local data="$WORK/data-$engine"
	[[ "$engine" == sqlite && -n "${BENCH_SQLITE_DIR:-}" ]] && data=$BENCH_SQLITE_DIR
	mkdir -p "$data"
	if ((${BENCH_SEED_BOTS:-0} > 0)); then
		log "$engine: seeding ${BENCH_SEED_BOTS} bots"
		"$WORK/seed" -bots "$BENCH_SEED_BOTS" -data-dir "$data" -database-url "$dburl" >&2
	fi
	# The checkout scenario buys far more often than the default 30 per bot an hour.
	env BOTPAY_ADDR="127.0.0.1:$port" BOTPAY_BASE_URL="$BASE_URL" BOTPAY_DATA_DIR="$data" \
		DATABASE_URL="$dburl" BOTPAY_RATE_REGISTER_PER_HOUR=100000000 BOTPAY_RATE_SIGNUP_PER_HOUR=100000000 \
		BOTPAY_RATE_CHECKOUT_PER_HOUR=1000000000 BOTPAY_LOG_LEVEL="$LOG_LEVEL" \
		"$WORK/botpay" serve >"$WORK/server-$engine.log" 2>&1 &
	SERVER_PID=$!
	if ! "$WORK/loadgen" -url "$BASE_URL" -wait-ready 30s; then
		log "$engine: server did not become ready; its log:"
		tail -20 "$WORK/server-$engine.log" >&2
		return 1
	fi
	log "$engine: botpay serve (pid $SERVER_PID) ready at $BASE_URL"
}

# busy_cores prints how many cores the whole machine kept busy over 2 s.
busy_cores() {
	local a b
	a=$(head -1 /proc/stat)
	sleep 2
	b=$(head -1 /proc/stat)
	awk -v a="$a" -v b="$b" 'BEGIN {
		split(a, x); split(b, y); busy = 0
		for (i = 2; i <= 9; i++) if (i != 5 && i != 6) busy += y[i] - x[i]
		printf "%.2f", busy / 100 / 2 }'
}

# wait_quiet waits up to QUIET_WAIT seconds for other processes to calm down.
wait_quiet() {
	[[ -r /proc/stat ]] || return 0
	local waited=0 busy
	while :; do
		busy=$(busy_cores)
		if awk -v b="$busy" -v t="$QUIET_CORES" 'BEGIN { exit !(b < t) }'; then
			return 0
		fi
		if ((waited >= QUIET_WAIT)); then
			log "machine still busy ($busy cores used by other processes); measuring anyway"
			return 0
		fi
		((waited == 0)) && log "waiting for other processes to go quiet ($busy cores busy)"
		waited=$((waited + 2))
	done
}

# run_scenario ENGINE SCENARIO CONCURRENCY RUN: one measured loadgen run.
# loadgen also reports the CPU time of the server, of this run's PostgreSQL
# backends and of every other process (other sessions on a shared machine).
run_scenario() {
	local engine=$1 scenario=$2 conc=$3 n=$4 out="$WORK/result-$1-$2-c$3-$4.json" match=""
	[[ "$engine" == postgres ]] && match="$PG_DB"
	wait_quiet
	log "$engine: $scenario for $DURATION (warm-up $WARMUP, concurrency $conc, run $n; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
	# In the background and waited for, so that a signal to this script is
	# handled at once rather than after the run.
	local bound=(-d "$DURATION")
	[[ -n "${BENCH_REQUESTS:-}" ]] && bound=(-d 0 -n "$BENCH_REQUESTS")
	"$WORK/loadgen" -url "$BASE_URL" -scenario "$scenario" -c "$conc" "${bound[@]}" -warmup "$WARMUP" \
		-label "$engine${BENCH_LABEL:+ ($BENCH_LABEL)}${BENCH_SEED_BOTS:+, $BENCH_SEED_BOTS bots seeded}" -watch-pid "$SERVER_PID" -watch-cmdline "$match" -out "$out" >&2 &
	LOADGEN_PID=$!
	wait "$LOADGEN_PID"
	LOADGEN_PID=""
	RESULTS+=("$out")
}

bench_engine() {
	local engine=$1
	case "$engine" in
	sqlite) ;;
	postgres)
		postgres_available || return 0
		create_pg_db
		;;
	*)
		log "unknown engine $engine (want sqlite or postgres)"
		return 1
		;;
	esac
	start_server "$engine"
	for scenario in $SCENARIOS; do
		for conc in $CONCURRENCY; do
			for n in $(seq "$REPEAT"); do
				run_scenario "$engine" "$scenario" "$conc" "$n"
			done
		done
	done
	stop_server
	if [[ "$engine" == postgres ]]; then
		drop_pg_db
	fi
}

machine() {
	local cpu mem pg="-"
	cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
	mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo 2>/dev/null)
	if command -v psql >/dev/null; then
		pg=$(psql_admin -At -c 'SHOW server_version' 2>/dev/null || echo "-")
	fi
	printf '%s, %s CPUs (%s), %s RAM, %s, PostgreSQL %s, duration %s, concurrency %s, log level %s\n' \
		"$(date -u +%Y-%m-%dT%H:%MZ)" "$(nproc)" "$cpu" "$mem" "$(go version | cut -d' ' -f3)" "$pg" \
		"$DURATION" "$CONCURRENCY" "$LOG_LEVEL"
}

main() {
	build
	for engine in $ENGINES; do
		bench_engine "$engine"
	done
	if ((${#RESULTS[@]} == 0)); then
		log "no results"
		return 1
	fi
	echo
	machine
	echo
	"$WORK/loadgen" -report "${RESULTS[@]}"
}

main "$@"
