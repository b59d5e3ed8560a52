#!/usr/bin/env bash
# `strata inspect` on a ROW_FORMAT=COMPRESSED table against the same rows uncompressed, both
# written by a private MariaDB in the same run.
#
#   tests/bench/compressed_bench.sh [--rows N] [--key-block-size K] [--keep]
#                                               (default 1,000,000 rows, 8 KiB; --keep: leave the
#                                               files in the directory it prints)
#
# Loads N sbtest rows (from `strata bench insert --rows-out`) into two tables of a private
# MariaDB, one ROW_FORMAT=DYNAMIC and one ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=K, stops it
# slowly so every page is on disk, then times (best of 3, page cache warm, output to
# /dev/null) `strata inspect summary`, `check` and `rows` on each file, and MariaDB's
# `innochecksum` as the peer. Prints a Markdown table with each compressed/plain ratio.
# (scripts/install-deps.sh bench mariadb first.)
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
rows=1000000
kbs=8
KEEP_WORK=0
# shellcheck source=scripts/mariadb/lib.sh
. "$top/scripts/mariadb/lib.sh"
while [ $# -gt 0 ]; do
  case $1 in
    --rows) [ $# -ge 2 ] || die "--rows needs a value"; rows=$2; shift 2 ;;
    --key-block-size) [ $# -ge 2 ] || die "--key-block-size needs a value"; kbs=$2; shift 2 ;;
    --keep) KEEP_WORK=1; shift ;;
    -h | --help) print_help; exit 0 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
check_rows_and_tools
[[ $kbs =~ ^(1|2|4|8|16)$ ]] || die "--key-block-size must be 1, 2, 4, 8 or 16, not '$kbs'"
mariadb_require_server
innochecksum=$(mariadb_find_tool innochecksum) || die "innochecksum is missing: scripts/install-deps.sh mariadb"

work_init strata-compressed-bench "${TMPDIR:-/tmp}"
dir=$WORK

progress "generating $rows sbtest rows"
"$strata" bench insert --datadir "$dir/strata" --rows "$rows" --batch 1000 --disable-redo \
  --flush-log-at-trx-commit 0 --keys seq --rows-out "$dir/rows.tsv" >&2
rm -rf "$dir/strata"

progress "loading them into a private MariaDB, plain and compressed"
port=$(mariadb_free_port 33095)
mariadb_start "$dir/mariadb" "$port" 0 "innodb_buffer_pool_size=1G
innodb_log_file_size=512M
innodb_read_only_compressed=OFF
local_infile=1"
sql() { "$SERVER" sql "$dir/mariadb" "$@"; }
sql -e "CREATE DATABASE bench"
for t in plain zip; do
  format="ROW_FORMAT=DYNAMIC"
  [ $t = zip ] && format="ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$kbs"
  sql -e "CREATE TABLE bench.$t (id INT NOT NULL PRIMARY KEY, k INT UNSIGNED NOT NULL DEFAULT 0,
    c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', KEY k_1 (k)) ENGINE=InnoDB $format"
  sql --local-infile=1 -e "LOAD DATA LOCAL INFILE '$dir/rows.tsv' INTO TABLE bench.$t"
  loaded=$(sql -N -e "SELECT COUNT(*) FROM bench.$t")
  [ "$loaded" = "$rows" ] || die "MariaDB holds $loaded rows in $t, not $rows"
done
sql -e "SET GLOBAL innodb_fast_shutdown=0"
mariadb_stop "$dir/mariadb"
for t in plain zip; do
  cp "$dir/mariadb/data/bench/$t.ibd" "$dir/$t.ibd"
  cp "$dir/mariadb/data/bench/$t.frm" "$dir/$t.frm"
  cat "$dir/$t.ibd" > /dev/null
done


echo
echo "$rows sbtest rows; plain.ibd $(($(stat -c %s "$dir/plain.ibd") / 1048576)) MiB (16 KiB pages), zip.ibd" \
     "$(($(stat -c %s "$dir/zip.ibd") / 1048576)) MiB (KEY_BLOCK_SIZE=$kbs); $(nproc) cores; best of 3, page cache warm."
echo
echo "| command | plain s | compressed s | compressed / plain |"
echo "|---|---:|---:|---:|"
row() {
  local name=$1 p z
  shift
  progress "timing: $name"
  p=$(measure "$@" "$dir/plain.ibd")
  z=$(measure "$@" "$dir/zip.ibd")
  awk -v n="$name" -v p="$p" -v z="$z" 'BEGIN { printf "| %s | %.2f | %.2f | %.2f |\n", n, p, z, (p > 0 ? z / p : 0) }'
}
row "innochecksum FILE" "$innochecksum"
row "strata inspect summary FILE" "$strata" inspect summary
row "strata inspect check FILE" "$strata" inspect check
row "strata inspect rows FILE" "$strata" inspect rows
