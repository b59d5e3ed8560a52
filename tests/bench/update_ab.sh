#!/usr/bin/env bash
# The UPDATE path of two builds of `strata` against each other, interleaved in one run: sysbench's
# update statements through `strata sql` and the hot row through `strata bench hotrow`.
#
#   tests/bench/update_ab.sh OLD_STRATA NEW_STRATA [ROUNDS]     (default 3 rounds)
#
# Per round and side, in a fresh data directory under $STRATA_BENCH_DIR (or /tmp):
#   update_non_index  sbtest1 of 10,000 rows (sysbench's columns and k index), then 100,000
#                     autocommit `UPDATE sbtest1 SET c=... WHERE id=N` (random N), with
#                     innodb_flush_log_at_trx_commit=0 so that the statement path, not the disk,
#                     is measured: statements/s of the update part alone
#   update_index      the same with `SET k=k+1` (the secondary index k changes too)
#   hotrow            `strata bench hotrow --threads 16 --updates 1000 --mode elr+group-commit`: TPS
# Prints a Markdown table: each side's median, NEW/OLD and each side's range.
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
[ $# -ge 2 ] || usage
old=$1 new=$2 rounds=${3:-3}
for bin in "$old" "$new"; do [ -x "$bin" ] || die "$bin is not an executable"; done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
scratch=$(mktemp -d "${STRATA_BENCH_DIR:-/tmp}/strata-update-ab.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
results=$scratch/results

# The load and the two update scripts, made once (the same statements for both sides).
python3 - "$scratch" <<'PY'
import random, sys
d = sys.argv[1]
rnd = random.Random(47)
pad = lambda n: "-".join("%011d" % rnd.randrange(10**11) for _ in range(n))
with open(f"{d}/load.sql", "w") as f:
    f.write("CREATE DATABASE sbtest; USE sbtest;\n"
            "CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, "
            "c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k));\n")
    for start in range(1, 10001, 500):
        rows = ",".join(f"({i},{rnd.randrange(10000)},'{pad(10)}','{pad(5)}')" for i in range(start, start + 500))
        f.write(f"INSERT INTO sbtest1 VALUES {rows};\n")
for name, assignment in (("update_non_index", lambda: f"c='{pad(10)}'"), ("update_index", lambda: "k=k+1")):
    with open(f"{d}/{name}.sql", "w") as f:
        f.write("USE sbtest;\nSET GLOBAL innodb_flush_log_at_trx_commit = 0;\n")
        for _ in range(100000):
            f.write(f"UPDATE sbtest1 SET {assignment()} WHERE id={rnd.randrange(1, 10001)};\n")
PY

# statements SIDE BIN NAME: the update script's statements per second on a freshly loaded table.
statements() {
  local side=$1 bin=$2 name=$3 dir start end
  dir=$(mktemp -d "$scratch/d.XXXXXX")
  "$bin" sql --datadir "$dir" <"$scratch/load.sql" >/dev/null || die "$side: load failed"
  start=$(date +%s.%N)
  "$bin" sql --datadir "$dir" <"$scratch/$name.sql" >/dev/null || die "$side: $name failed"
  end=$(date +%s.%N)
  printf '%s\t%s\t%s\n' "$name statements/s" "$side" "$(awk "BEGIN{print 100000 / ($end - $start)}")" >>"$results"
  rm -rf "$dir"
}

hotrow() {
  local side=$1 bin=$2 dir tps
  dir=$(mktemp -d "$scratch/d.XXXXXX")
  tps=$("$bin" bench hotrow --datadir "$dir" --threads 16 --updates 1000 --mode elr+group-commit --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["tps"])') || die "$side: bench hotrow failed"
  printf '%s\t%s\t%s\n' "hotrow elr+group-commit TPS" "$side" "$tps" >>"$results"
  rm -rf "$dir"
}

for ((round = 1; round <= rounds; round++)); do
  progress "round $round of $rounds"
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    statements $side "$bin" update_non_index
    statements $side "$bin" update_index
    hotrow $side "$bin"
  done
done

ab_table "$results" "$old" "$new"
