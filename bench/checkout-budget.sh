#!/usr/bin/env bash
# checkout-budget.sh counts what one auto-approved checkout makes
# PostgreSQL write: rows inserted, updated (and how many of the updates
# were HOT, i.e. touched no index), index entries, and WAL bytes, per
# checkout, table by table and index by index. Unlike throughput these
# counts do not depend on how busy the machine is, so they can be compared
# across builds and days. The dispatcher that stages each event runs in the
# server as in production, so its writes are counted too.
#
# How index entries and WAL bytes are counted: PostgreSQL keeps no count of
# the entries inserted into an index (pg_stat_user_indexes and pg_statio
# count scans and blocks), and "(inserts + non-HOT updates) x indexes"
# over-counts, because a partial index takes no entry for a row outside its
# predicate. So the script reads the WAL of the measured run with
# pg_waldump (kept by a temporary physical replication slot, dropped at
# exit): every entry added to a B-tree leaf is exactly one record on that
# index, INSERT_LEAF, INSERT_POST (into a posting list) or a level-0
# SPLIT_L/SPLIT_R (the split carries the new item); upper-level inserts,
# splits and deduplication add no entry. The same pass adds up each
# record's length under the relation of its first block (heap, index or
# TOAST, attributed to its table), which gives WAL bytes per table of this
# database only; records of no relation (commits, checkpoints) and of other
# databases are counted apart. This needs the server's pg_waldump and read
# access to its pg_wal (root or postgres on the same machine); without them
# the script falls back to the upper bound and says so.
#
# Settings (environment): PGURL_BASE (default postgres://postgres@127.0.0.1:5432,
# trust auth, a superuser; a database is created and dropped), CHECKOUTS
# (default 20000), CLIENTS (8), PORT (18483), PG_WALDUMP (default: the
# server's major version under /usr/lib/postgresql), PGWAL (default: the
# server's data_directory/pg_wal), CALLBACK_URL (the bots' callback URL;
# set and empty: none, so every event is staged as a pending message when
# written; unset: loadgen's unreachable default, whose events the
# dispatcher stages, or emit once the bot is marked unreachable, in a mix
# that depends on timing), BOTPAY_BIN (a botpay binary to measure instead
# of building this tree's, e.g. an older commit's). The "cluster" WAL figure is the whole
# server's: other databases' writes land in it, the per-table ones do not.
# When the server has pg_stat_statements loaded (shared_preload_libraries),
# the statements of the measured run are listed too, per checkout: calls,
# execution time, buffers and WAL bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
PGURL_BASE=${PGURL_BASE:-postgres://postgres@127.0.0.1:5432}
CHECKOUTS=${CHECKOUTS:-20000}
CLIENTS=${CLIENTS:-8}
PORT=${PORT:-18483}
db=bench_budget_$$
work=$(mktemp -d)
server_pid=
slot=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
	[ -n "$slot" ] && psql -q "$PGURL_BASE/postgres" -c "SELECT pg_drop_replication_slot('$slot')" >/dev/null 2>&1 || true
	psql -q "$PGURL_BASE/postgres" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
q() { psql -X -qtA "$PGURL_BASE/$db" -c "$1"; }
psql -q "$PGURL_BASE/postgres" -c "CREATE DATABASE $db" >/dev/null
if [ -n "${BOTPAY_BIN:-}" ]; then cp "$BOTPAY_BIN" "$work/botpay"; else go build -o "$work/botpay" ./cmd/botpay; fi
go build -o "$work/loadgen" ./bench/loadgen
DATABASE_URL="$PGURL_BASE/$db?sslmode=disable" BOTPAY_ADDR=127.0.0.1:$PORT BOTPAY_DATA_DIR="$work/data" \
	BOTPAY_RATE_REGISTER_PER_HOUR=100000 BOTPAY_RATE_SIGNUP_PER_HOUR=100000 BOTPAY_RATE_CHECKOUT_PER_HOUR=1000000000 \
	BOTPAY_LOG_LEVEL=warn "$work/botpay" serve >"$work/server.log" 2>&1 &
server_pid=$!
"$work/loadgen" -url "http://127.0.0.1:$PORT" -wait-ready 30s >/dev/null
# The bots are set up and warmed up by a first, unmeasured run.
callback=()
[ -n "${CALLBACK_URL+set}" ] && callback=(-callback-url "$CALLBACK_URL")
"$work/loadgen" -url "http://127.0.0.1:$PORT" -scenario checkout "${callback[@]}" -c "$CLIENTS" -n 2000 -warmup 1s -d 0 >/dev/null
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
# The WAL of the measured run is read after it: a slot keeps a checkpoint
# from recycling it meanwhile.
major=$(q "SELECT current_setting('server_version_num')::int / 10000")
PG_WALDUMP=${PG_WALDUMP:-/usr/lib/postgresql/$major/bin/pg_waldump}
PGWAL=${PGWAL:-$(q "SELECT current_setting('data_directory')")/pg_wal}
if [ -x "$PG_WALDUMP" ] && [ -r "$PGWAL" ] &&
	q "SELECT pg_create_physical_replication_slot('$db', true)" >/dev/null 2>&1; then
	slot=$db
fi
wal0=$(q "SELECT pg_current_wal_lsn()")
"$work/loadgen" -url "http://127.0.0.1:$PORT" -scenario checkout "${callback[@]}" -c "$CLIENTS" -n "$CHECKOUTS" -warmup 0s -d 0 -json -out "$work/run.json" >/dev/null
sleep 3 # the dispatcher stages the last events
wal1=$(q "SELECT pg_current_wal_lsn()")
sleep 1
snapshot "$work/after"
ok=$(sed -n 's/.*"success": *\([0-9]*\).*/\1/p' "$work/run.json" | head -n 1)
wal=$(q "SELECT pg_wal_lsn_diff('$wal1', '$wal0')")
# relfilenode|table|index (empty for the heap and TOAST)|partial?
q "SELECT c.relfilenode, t.relname, '', '' FROM pg_class t JOIN pg_class c ON c.oid IN (t.oid, t.reltoastrelid)
	WHERE t.relkind = 'r' AND t.relnamespace = 'public'::regnamespace
   UNION ALL SELECT x.relfilenode, t.relname, x.relname, CASE WHEN i.indpred IS NULL THEN '' ELSE 'partial' END
	FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
	WHERE t.relnamespace = 'public'::regnamespace" | sort -t'|' -k1,1 >"$work/rels"
dboid=$(q "SELECT oid FROM pg_database WHERE datname = current_database()")
: >"$work/walrel"
if [ -n "$slot" ]; then
	# walrel: relfilenode|WAL bytes|B-tree leaf entries, then "-other|bytes"
	# (other databases) and "-none|bytes" (records of no relation).
	"$PG_WALDUMP" -p "$PGWAL" -s "$wal0" -e "$wal1" 2>/dev/null | awk -v db="$dboid" '
		{ len = $0; sub(/.*len \(rec\/tot\): *[0-9]+\/ */, "", len); len += 0
		  if (!match($0, /blkref #[0-9]+: rel [0-9]+\/[0-9]+\/[0-9]+/)) { bytes["-none"] += len; next }
		  split(substr($0, RSTART, RLENGTH), w, " "); split(w[4], r, "/")
		  if (r[2] != db) { bytes["-other"] += len; next }
		  bytes[r[3]] += len
		  if ($2 != "Btree") next
		  d = $0; sub(/.*desc: /, "", d)
		  if (d ~ /^INSERT_LEAF / || d ~ /^INSERT_POST / || d ~ /^SPLIT_[LR] level 0,/) entries[r[3]]++ }
		END { for (k in bytes) printf "%s|%d|%d\n", k, bytes[k], entries[k] }' | sort -t'|' -k1,1 >"$work/walrel"
fi
built="$(git rev-parse --short HEAD)"
[ -n "${BOTPAY_BIN:-}" ] && built="server $BOTPAY_BIN, script $built"
bots="the default callback URL of loadgen"
[ -n "${CALLBACK_URL+set}" ] && bots="callback URL '$CALLBACK_URL'"
[ -n "${CALLBACK_URL+set}" ] && [ -z "$CALLBACK_URL" ] && bots="no callback URL"
echo "Checkouts measured: $ok (of $CHECKOUTS asked; $CLIENTS workers; bots with $bots). $(date -u +%Y-%m-%dT%H:%MZ), $built."
echo
if [ -n "$slot" ]; then
	echo "Index entries and WAL bytes per table are read from the run's WAL (pg_waldump): exact, and this database's only."
else
	echo "**pg_waldump or $PGWAL was not available: index entries are the upper bound (inserts + non-HOT updates) x indexes, and WAL bytes per table are not known.**"
fi
echo
echo "| table | rows inserted / checkout | rows updated / checkout | of them HOT | deleted / checkout | indexes | index entries / checkout | WAL bytes / checkout |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
# Per relation: table|index|partial|WAL bytes|entries; the heap's and TOAST's have no index name.
join -t'|' -a1 -o '1.2,1.3,1.4,2.2,2.3' "$work/rels" "$work/walrel" >"$work/per-rel"
join -t'|' "$work/before" "$work/after" | awk -F'|' -v n="$ok" -v exact="$slot" '
	FILENAME == ARGV[1] { w[$1] += $4; if ($2 != "") e[$1] += $5; next }
	{ ins = $7 - $2; upd = $8 - $3; hot = $9 - $4; del = $10 - $5; idx = $11
	  if (ins + upd + del == 0 && w[$1] == 0) next
	  entries = exact ? e[$1] : (ins + (upd - hot)) * idx
	  ti += ins; tu += upd; th += hot; td += del; te += entries; tw += w[$1]
	  printf "| %s | %.2f | %.2f | %.2f | %.2f | %d | %.2f | %s |\n", $1, ins / n, upd / n, hot / n, del / n, idx, entries / n, exact ? sprintf("%.0f", w[$1] / n) : "—" }
	END { printf "| **all** | **%.2f** | **%.2f** | **%.2f** | **%.2f** | | **%.2f** | **%s** |\n", ti / n, tu / n, th / n, td / n, te / n, exact ? sprintf("%.0f", tw / n) : "—" }' "$work/per-rel" -
echo
per=$(awk -v w="$wal" -v n="$ok" 'BEGIN { printf "%.0f", w / n }')
echo "WAL: $wal bytes in all, **$per bytes per checkout** (the whole cluster's, the dispatcher's staging included)."
if [ -n "$slot" ]; then
	awk -F'|' -v n="$ok" '
		$1 == "-none" { none = $2 } $1 == "-other" { other = $2 } $1 !~ /^-/ { mine += $2 }
		END { printf "Of it, per checkout: %.0f bytes on this database'"'"'s relations (tables above, catalogs, sequences), %.0f bytes of records on no relation (commits, checkpoints: the cluster'"'"'s), %.0f bytes of other databases.\n", mine / n, none / n, other / n }' "$work/walrel"
	echo
	echo "Index entries per checkout, index by index (the tables a checkout writes; partial indexes marked):"
	echo
	echo "| table | index | entries / checkout | WAL bytes / checkout |"
	echo "|---|---|---:|---:|"
	awk -F'|' -v n="$ok" '$1 ~ /^(purchases|pending_messages|outbox|ledger|spend_days|wallets)$/ && $2 != "" {
		printf "| %s | %s%s | %.2f | %.0f |\n", $1, $2, $3 == "" ? "" : " (partial)", $5 / n, $4 / n }' "$work/per-rel" | sort
fi
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
