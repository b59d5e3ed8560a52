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
check_rows_and_tools
mariadb_require_server
dump=$(mariadb_find_tool mariadb-dump) || die "mariadb-dump is missing: scripts/install-deps.sh mariadb"

KEEP_WORK=0
work_init strata-rows-bench "${TMPDIR:-/tmp}"
dir=$WORK

progress "generating $rows sbtest rows"
"$strata" bench insert --datadir "$dir/strata" --rows "$rows" --batch 1000 --disable-redo \
  --flush-log-at-trx-commit 0 --keys seq --rows-out "$dir/rows.tsv" >&2
file=$dir/strata/bench/sbtest1.ibd
bytes=$(stat -c %s "$file")
cat "$file" > /dev/null

best_of_3 "cat FILE" cat "$file"
best_of_3 "strata inspect rows (tsv)" "$strata" inspect rows "$file"
best_of_3 "strata inspect rows --format sql" "$strata" inspect rows --format sql "$file"

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
best_of_3 "mariadb -B -e 'SELECT * FROM t'" "$client" -uroot -S "$sock" -B -e 'SELECT * FROM bench.sbtest1'
best_of_3 "mariadb-dump t" "$dump" -uroot -S "$sock" bench sbtest1

echo
echo "Table: $rows rows, tablespace $((bytes / 1048576)) MiB; $(nproc) cores; best of 3, page cache / buffer pool warm."
echo
echo "| command | seconds | MB/s of tablespace | peak RSS MiB |"
echo "|---|---:|---:|---:|"
for name in "cat FILE" "strata inspect rows (tsv)" "strata inspect rows --format sql" \
            "mariadb -B -e 'SELECT * FROM t'" "mariadb-dump t"; do
  s=${best_secs[$name]}
  awk -v n="$name" -v s="$s" -v b="$bytes" -v m="${best_kib[$name]}" \
    'BEGIN { printf "| %s | %.2f | %.0f | %.0f |\n", n, s, (s > 0 ? b / s / 1e6 : 0), m / 1024 }'
done
