#!/usr/bin/env bash
# Two builds of `strata` against each other on the bench commands, interleaved in one run so
# that both meet the same machine: for a change that should not move performance (a
# redesign), or one that should.
#
#   tests/bench/cli_ab.sh OLD_STRATA NEW_STRATA [ROUNDS]     (default 3 rounds)
#
# Each round runs, for OLD then NEW, in a fresh data directory under $STRATA_BENCH_DIR (or
# /tmp): `bench insert` (200,000 rows, autoinc and uuid keys, flush_log_at_trx_commit=2),
# `bench hotrow` (16 sessions x 300 updates, default and group-commit modes) and `bench
# async-commit` (2,000 loops). Prints a Markdown table: the median of each side, NEW/OLD, and
# each side's range (ranges that overlap are noise).
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
[ $# -ge 2 ] || usage
old=$1 new=$2 rounds=${3:-3}
for bin in "$old" "$new"; do [ -x "$bin" ] || die "$bin is not an executable"; done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
command -v python3 >/dev/null || die "python3 is missing"
scratch=${STRATA_BENCH_DIR:-/tmp}
results=$(mktemp "$scratch/strata-ab.XXXXXX")
trap 'rm -f "$results"' EXIT

# run SIDE FIGURES COMMAND...: one run of `strata bench COMMAND`; FIGURES lists what to keep
# of its JSON as NAME=PATH (PATH: keys joined by dots), separated by ';'.
run() {
  local side=$1 figures=$2 bin dir
  shift 2
  bin=$old
  [ "$side" = new ] && bin=$new
  dir=$(mktemp -d "$scratch/strata-ab.XXXXXX")
  "$bin" bench "$@" --datadir "$dir" --json 2>/dev/null >"$dir.json" || die "$side: bench $* failed"
  python3 - "$dir.json" "$side" "$figures" >>"$results" <<'PY' || die "$side: bench $*: unreadable JSON"
import json, sys
j = json.load(open(sys.argv[1]))
for figure in sys.argv[3].split(";"):
    name, path = figure.split("=", 1)
    value = j
    for key in path.split("."):
        value = value[key]
    print(f"{name}\t{sys.argv[2]}\t{value}")
PY
  rm -rf "$dir" "$dir.json"
}

for ((round = 1; round <= rounds; round++)); do
  progress "round $round of $rounds"
  for side in old new; do
    for keys in autoinc uuid; do
      run $side "insert $keys rows/s=rows_per_second" insert --keys $keys --rows 200000 --flush-log-at-trx-commit 2
    done
    for mode in default group-commit; do
      run $side "hotrow $mode TPS=tps" hotrow --threads 16 --updates 300 --mode $mode
    done
    run $side "async_commit on commits/s=async_commit_on.commits_per_second;async_commit off commits/s=async_commit_off.commits_per_second" \
      async-commit --loops 2000
  done
done

ab_table "$results" "$old" "$new"
