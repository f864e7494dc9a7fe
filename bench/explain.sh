#!/usr/bin/env bash
# bench/explain.sh — the plan PostgreSQL really uses for every statement of
# the scale scenarios, with its real parameters: auto_explain (ANALYZE,
# BUFFERS, WAL) is switched on for one database only, bench/run.sh sends a few
# requests of each scenario at concurrency 1, the setting is reset, and the
# last plan of each distinct statement is printed with how often it ran.
#
# Needs a PostgreSQL superuser (the default postgres on 127.0.0.1) and read
# access to the server's log, whose path is EXPLAIN_LOG.
#
# Settings (environment): EXPLAIN_DB (default botpay_scale_full), EXPLAIN_LOG (default
# /var/log/postgresql/postgresql-15-main.log), EXPLAIN_REQUESTS (default 12), BENCH_SCENARIOS
# (default: the scale scenarios).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DB=${EXPLAIN_DB:-botpay_scale_full}
LOG=${EXPLAIN_LOG:-/var/log/postgresql/postgresql-15-main.log}
export BENCH_SCENARIOS=${BENCH_SCENARIOS:-"wallet-check checkout transactions sales dashboard-home dashboard dashboard-spending dashboard-earning"}
psql_db() { psql -X -q -v ON_ERROR_STOP=1 -h "${BENCH_PG_HOST:-127.0.0.1}" -U "${BENCH_PG_USER:-postgres}" -d "$DB" "$@"; }

reset() {
	psql_db -c "ALTER DATABASE $DB RESET session_preload_libraries" -c "ALTER DATABASE $DB RESET auto_explain.log_min_duration" \
		-c "ALTER DATABASE $DB RESET auto_explain.log_analyze" -c "ALTER DATABASE $DB RESET auto_explain.log_buffers" \
		-c "ALTER DATABASE $DB RESET auto_explain.log_wal"
}
trap reset EXIT
psql_db -c "ALTER DATABASE $DB SET session_preload_libraries = 'auto_explain'" \
	-c "ALTER DATABASE $DB SET auto_explain.log_min_duration = 0" \
	-c "ALTER DATABASE $DB SET auto_explain.log_analyze = on" -c "ALTER DATABASE $DB SET auto_explain.log_buffers = on" \
	-c "ALTER DATABASE $DB SET auto_explain.log_wal = on"
start=$(wc -c <"$LOG")
BENCH_ENGINES=postgres BENCH_PG_DB="$DB" BENCH_CONCURRENCY=1 BENCH_REQUESTS=${EXPLAIN_REQUESTS:-12} BENCH_WARMUP=0s \
	BENCH_QUIET_WAIT=0 BENCH_LABEL=explain "$ROOT/bench/run.sh" >/dev/null
reset
trap - EXIT

# Each auto_explain entry is a "duration: … plan:" line followed by tab-led
# lines: the query text, then the plan from its first "(cost=" node on.
tail -c +"$((start + 1))" "$LOG" | awk -v db="$DB" '
	function flush() {
		if (text == "") return
		if (!(text in count)) order[++n] = text
		count[text]++; last[text] = plan; took[text] = dur; text = ""
	}
	/ LOG:  duration: .* plan:/ {
		flush(); inplan = (index($0, "@" db " ") > 0); intext = 0; plan = ""
		dur = $0; sub(/.*duration: /, "", dur); sub(/ ms.*/, "", dur); next
	}
	inplan && /^\t/ {
		line = substr($0, 2)
		if (line ~ /^Query Text:/) intext = 1
		if (intext && line ~ /\(cost=/) intext = 0
		if (intext) text = text line "\n"; else plan = plan line "\n"
		next
	}
	{ flush(); inplan = 0 }
	END {
		flush()
		for (i = 1; i <= n; i++) {
			t = order[i]
			printf "```\n-- ran %d times; the last took %s ms\n%s%s```\n\n", count[t], took[t], t, last[t]
		}
	}'
