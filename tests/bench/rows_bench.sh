#!/usr/bin/env bash
# `strata inspect rows` against the server reading the same rows, in the same run.
#
#   tests/bench/rows_bench.sh [--rows N]        (default 2,000,000: a ~480 MiB sbtest table)
#
# Makes an sbtest table with the engine (`strata bench insert`, redo off), warms the page
# cache, and times (best of 3, output to /dev/null) `cat` of the tablespace, `strata inspect
# rows` as TSV and as SQL, and, on a private MariaDB holding the same rows (LOAD DATA from the
# generator's TSV, buffer pool large enough to hold them), `mariadb -B -e 'SELECT * ...'` and
# `mariadb-dump` of the table, after one warming read. Prints a Markdown table; throughput is
# tablespace bytes per second. (scripts/install-deps.sh bench mariadb first.)
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
rows=2000000
# shellcheck source=scripts/mariadb/lib.sh
. "$top/scripts/mariadb/lib.sh"
while [ $# -gt 0 ]; do
  case $1 in
    --rows) [ $# -ge 2 ] || die "--rows needs a value"; rows=$2; shift 2 ;;
    --rows=*) rows=${1#--rows=}; shift ;;
    -h | --help) print_help; exit 0 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
[[ $rows =~ ^[1-9][0-9]*$ ]] || die "--rows must be a positive integer, not '$rows'"
[ -x "$strata" ] || die "build first (make build)"
command -v /usr/bin/time >/dev/null || die "/usr/bin/time is missing: scripts/install-deps.sh bench"
mariadb_require_server
dump=$(mariadb_find_tool mariadb-dump) || die "mariadb-dump is missing: scripts/install-deps.sh mariadb"

dir=$(mktemp -d "${TMPDIR:-/tmp}/strata-rows-bench.XXXXXX")
trap 'mariadb_stop_if_running "$dir/mariadb"; rm -rf "$dir"' EXIT

progress "generating $rows sbtest rows"
"$strata" bench insert --datadir "$dir/strata" --rows "$rows" --batch 1000 --disable-redo \
  --flush-log-at-trx-commit 0 --keys seq --rows-out "$dir/rows.tsv" >&2
file=$dir/strata/bench/sbtest1.ibd
bytes=$(stat -c %s "$file")
cat "$file" > /dev/null

measure() {  # best-of-3 seconds and peak RSS (KiB) of a command, output discarded
  local best="" rss=0 t m
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@" > /dev/null 2>"$dir/stderr" || die "failed: $* ($(tail -n 1 "$dir/stderr"))"
    read -r t m < <(tail -n 1 "$dir/time")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    [ "$m" -gt "$rss" ] && rss=$m
  done
  echo "$best $rss"
}
declare -A secs mem
run() {
  local name=$1 r
  shift
  progress "timing: $name"
  r=$(measure "$@")
  secs[$name]=${r% *}
  mem[$name]=${r#* }
}
run "cat FILE" cat "$file"
run "strata inspect rows (tsv)" "$strata" inspect rows "$file"
run "strata inspect rows --format sql" "$strata" inspect rows --format sql "$file"

progress "loading the same rows into a private MariaDB"
pool_mib=$(( bytes / 1048576 * 2 + 256 ))
port=$(mariadb_free_port 33090)
mariadb_start "$dir/mariadb" "$port" 0 "innodb_buffer_pool_size=${pool_mib}M
innodb_log_file_size=512M
local_infile=1"
sql() { "$SERVER" sql "$dir/mariadb" "$@"; }
sql -e "CREATE DATABASE bench; CREATE TABLE bench.sbtest1 (id INT NOT NULL PRIMARY KEY, k INT UNSIGNED NOT NULL DEFAULT 0,
  c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', KEY k_1 (k)) ENGINE=InnoDB"
sql --local-infile=1 -e "LOAD DATA LOCAL INFILE '$dir/rows.tsv' INTO TABLE bench.sbtest1"
loaded=$(sql -N -e 'SELECT COUNT(*) FROM bench.sbtest1')
[ "$loaded" = "$rows" ] || die "MariaDB holds $loaded rows, not $rows"
sock=$dir/mariadb/mariadbd.sock
client=$(mariadb_find_tool mariadb)
"$client" -uroot -S "$sock" -B -e 'SELECT * FROM bench.sbtest1' > /dev/null  # into the buffer pool
run "mariadb -B -e 'SELECT * FROM t'" "$client" -uroot -S "$sock" -B -e 'SELECT * FROM bench.sbtest1'
run "mariadb-dump t" "$dump" -uroot -S "$sock" bench sbtest1

echo
echo "Table: $rows rows, tablespace $((bytes / 1048576)) MiB; $(nproc) cores; best of 3, page cache / buffer pool warm."
echo
echo "| command | seconds | MB/s of tablespace | peak RSS MiB |"
echo "|---|---:|---:|---:|"
for name in "cat FILE" "strata inspect rows (tsv)" "strata inspect rows --format sql" \
            "mariadb -B -e 'SELECT * FROM t'" "mariadb-dump t"; do
  s=${secs[$name]}
  awk -v n="$name" -v s="$s" -v b="$bytes" -v m="${mem[$name]}" \
    'BEGIN { printf "| %s | %.2f | %.0f | %.0f |\n", n, s, (s > 0 ? b / s / 1e6 : 0), m / 1024 }'
done
