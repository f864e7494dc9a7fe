#!/usr/bin/env bash
# Compares the HTTP exchanges the OpenAPI contract checker sees in the tests
# of two commits: contract-exchanges.sh BASE [HEAD] (HEAD: this checkout's).
#
# For each commit it makes a detached worktree, adds the recorder
# (internal/testserver's BOTPAY_CONTRACT_RECORD) by cherry-picking, without
# committing, the commits that made it when the commit lacks it, runs the
# test packages that start a test server on SQLite and PostgreSQL with the
# record on, and keeps the sorted distinct exchanges (the line less its
# last field, the test's name). Then it prints how many each has and which
# are only in one, each with the tests that made it.
#
# Settings (environment):
#   OUT        where records, logs and worktrees go (/tmp/contract-exchanges)
#   PKGS       the packages to run (default: those whose tests name
#              testserver, but internal/archtest, which starts none)
#   SKIP       packages to leave out of the default (space-separated)
#   P          go test -p (1)
#   RECORDER   the commits that add the recorder, oldest first (default:
#              those of this checkout that touched its files)
#   FRESH=1    run every package again, even those recorded before
#   LENIENT=1  let a suite whose tool is missing skip (by default every
#              suite is required, as in CI)
#   RUN=name   a label for HEAD's record, so that a commit can be compared
#              with a second run of itself (contract-exchanges.sh X X)
set -euo pipefail

BASE=${1:?usage: contract-exchanges.sh BASE [HEAD]}
HEAD=${2:-HEAD}
repo=$(git rev-parse --show-toplevel)
OUT=${OUT:-/tmp/contract-exchanges}
P=${P:-1}
mkdir -p "$OUT"
RECORDER=${RECORDER:-$(git -C "$repo" log --reverse --format=%H HEAD -- \
  internal/openapi/contract/record.go internal/openapi/contract/record_test.go)}
main=$(git -C "$repo" worktree list --porcelain | awk '/^worktree /{print $2; exit}')

export TEST_DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
export TEST_POSTGRES_REQUIRED=1
# A suite that skipped on one side only would show as differences: every
# suite is required, so a missing tool fails instead (leave its package out
# with SKIP).
if [ -z "${LENIENT:-}" ]; then
  for v in X402_INTEROP WEBHOOKS_INTEROP MCP_INTEROP OPENAPI_CLIENT SDK_TYPESCRIPT CHAIN_TESTS \
    SDK_PYTHON PDFTOTEXT BROWSER_TESTS WALLET_SCRIPT_TESTS README_TESTS; do
    export "${v}_REQUIRED=1"
  done
fi

# record COMMIT [LABEL]: leaves $OUT/<sha>[.LABEL].exchanges and .raw, and
# in $OUT/<sha>[.LABEL]/ each package's record and test log (-v). A package whose
# record is there already is not run again (unless FRESH=1).
record() {
  local sha name wt pkgs pkg f
  sha=$(git -C "$repo" rev-parse --short=7 "$1^{commit}")
  name=$sha${2:+.$2}
  wt=$OUT/wt-$name
  [ -d "$wt" ] && git -C "$repo" worktree remove --force "$wt"
  git -C "$repo" worktree add --detach "$wt" "$sha" >&2
  if ! grep -q BOTPAY_CONTRACT_RECORD "$wt/internal/testserver/contract.go"; then
    echo "$name: cherry-picking the recorder ($(echo $RECORDER))" >&2
    # shellcheck disable=SC2086 # one commit per word
    git -C "$wt" cherry-pick --no-commit $RECORDER >&2
  fi
  for d in chain interop interop/webhooks interop/mcp tsclient sdk/typescript browser; do
    if [ -d "$main/$d/node_modules" ] && [ ! -d "$wt/$d/node_modules" ]; then
      cp -a "$main/$d/node_modules" "$wt/$d/"
    fi
  done
  pkgs=${PKGS:-$(cd "$wt" && grep -rl testserver --include='*_test.go' . | xargs -n1 dirname |
    sort -u | grep -v '^./internal/archtest$' || true)}
  for s in ${SKIP:-}; do pkgs=$(printf '%s\n' $pkgs | grep -vx "$s" || true); done
  echo $pkgs >"$OUT/$name.pkgs"
  [ "${FRESH:-0}" = 1 ] && rm -rf "${OUT:?}/$name"
  mkdir -p "$OUT/$name"
  : >"$OUT/$name.raw"
  for pkg in $pkgs; do
    f=$OUT/$name/$(echo "${pkg#./}" | tr / _)
    if [ -s "$f.raw" ]; then
      echo "$name: $pkg kept from an earlier run" >&2
      cat "$f.raw" >>"$OUT/$name.raw"
      continue
    fi
    echo "$name: $(date -u +%H:%M:%S) go test -p $P $pkg" >&2
    (cd "$wt" && BOTPAY_CONTRACT_RECORD="$f.raw" go test -count=1 -v -p "$P" -timeout 60m "$pkg") \
      >"$f.log" 2>&1 || echo "$name: $pkg failed, see $f.log" >&2
    tail -1 "$f.log" >&2
    cat "$f.raw" >>"$OUT/$name.raw" 2>/dev/null || true
  done
  cut -f1-7 "$OUT/$name.raw" | LC_ALL=C sort -u >"$OUT/$name.exchanges"
  git -C "$repo" worktree remove --force "$wt"
  echo "$name"
}

# only A B: the exchanges of A that B lacks, each followed by the tests that made it.
only() {
  LC_ALL=C comm -23 "$OUT/$1.exchanges" "$OUT/$2.exchanges" >"$OUT/only-$1-not-$2"
  awk -F'\t' 'FILENAME == ARGV[1] {want[$0]=1; next}
    { key=$1; for (i=2; i<=7; i++) key=key "\t" $i
      if (key in want && !seen[key, $8]++) tests[key]=tests[key] " " substr($8, 6) }
    END { for (k in want) print k "\t<- tests:" tests[k] }' \
    "$OUT/only-$1-not-$2" "$OUT/$1.raw" | LC_ALL=C sort >"$OUT/only-$1-not-$2.tests"
}

base=$(record "$BASE")
head=$(record "$HEAD" "${RUN:-}")
only "$base" "$head"
only "$head" "$base"
printf '%s: %d distinct exchanges (%d recorded), packages: %s\n' "$base" \
  "$(wc -l <"$OUT/$base.exchanges")" "$(wc -l <"$OUT/$base.raw")" "$(cat "$OUT/$base.pkgs")"
printf '%s: %d distinct exchanges (%d recorded), packages: %s\n' "$head" \
  "$(wc -l <"$OUT/$head.exchanges")" "$(wc -l <"$OUT/$head.raw")" "$(cat "$OUT/$head.pkgs")"
printf 'only in %s: %d\nonly in %s: %d\n' "$base" "$(wc -l <"$OUT/only-$base-not-$head")" \
  "$head" "$(wc -l <"$OUT/only-$head-not-$base")"
# Each line as far as 300 characters (the answer of /openapi.json is the
# shape of the whole document), then the tests that made it.
for f in "only-$base-not-$head" "only-$head-not-$base"; do
  echo "== $f (the whole lines: $OUT/$f.tests)"
  awk -F'\t<- ' '{ line=$1; if (length(line) > 300) line=substr(line, 1, 300) "…"
    print line; print "    <- " $2 }' "$OUT/$f.tests"
done
