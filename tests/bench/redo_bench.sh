#!/usr/bin/env bash
# `strata inspect redo` on a crashed MariaDB's redo log against the server's own recovery of it.
#
#   tests/bench/redo_bench.sh [--rows N] [--keep]   (default 2,000,000 rows; --keep: leave the
#                                                   files in the directory it prints)
#
# A private MariaDB with a 1 GiB log and lazy flushing (so the checkpoint stays far behind)
# inserts N rows in batches, is killed with SIGKILL, and then:
# - `strata inspect redo` walks the log after the checkpoint and decodes every record (best of
#   3, page cache warm, output discarded): its speed in MB/s of log after the checkpoint;
# - the server recovers a copy of the files (start until it answers): the peer's time for the
#   same log, which parses it and applies it.
# Both must agree on the checkpoint and on where the log ends (the server's error log lines).
# Prints a Markdown table. (scripts/install-deps.sh bench mariadb first.)
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
rows=2000000
KEEP_WORK=0
# shellcheck source=scripts/mariadb/lib.sh
. "$top/scripts/mariadb/lib.sh"
while [ $# -gt 0 ]; do
  case $1 in
    --rows) [ $# -ge 2 ] || die "--rows needs a value"; rows=$2; shift 2 ;;
    --keep) KEEP_WORK=1; shift ;;
    -h | --help) print_help; exit 0 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
check_rows_and_tools
mariadb_require_server

work_init strata-redo-bench "${TMPDIR:-/tmp}"
dir=$WORK

cnf="innodb_buffer_pool_size=3G
innodb_log_file_size=1G
innodb_log_buffer_size=64M
innodb_max_dirty_pages_pct=99
innodb_max_dirty_pages_pct_lwm=0
innodb_adaptive_flushing=OFF
innodb_io_capacity=100
innodb_io_capacity_max=100"
port=$(mariadb_free_port 33097)
progress "inserting $rows rows into a private MariaDB"
mariadb_start "$dir/mariadb" "$port" 2 "$cnf"
sql() { "$SERVER" sql "$1" "${@:2}"; }
sql "$dir/mariadb" -e "CREATE DATABASE bench; CREATE TABLE bench.t (id INT NOT NULL PRIMARY KEY, k INT NOT NULL,
  c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL, KEY k_1 (k)) ENGINE=InnoDB"
for ((done = 0; done < rows; done += 100000)); do
  n=$((rows - done < 100000 ? rows - done : 100000))
  sql "$dir/mariadb" bench -e "INSERT INTO bench.t SELECT seq, seq * 7919 % 1000003, MD5(seq), SHA1(seq) FROM seq_$((done + 1))_to_$((done + n))"
done
status() { sql "$dir/mariadb" -N -e "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '$1'"; }
lsn=$(status INNODB_LSN_CURRENT)
checkpoint=$(status INNODB_LSN_LAST_CHECKPOINT)
progress "LSN $lsn, checkpoint $checkpoint: $(((lsn - checkpoint) / 1048576)) MiB of log to recover; SIGKILL"
pid=$(cat "$dir/mariadb/mariadbd.pid")
kill -9 "$pid"
while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
mkdir -p "$dir/recover"
cp -a "$dir/mariadb/data" "$dir/recover/data"
log=$dir/mariadb/data/ib_logfile0
cat "$log" > /dev/null

progress "timing: strata inspect redo"
ours=$(measure "$strata" inspect redo "$log")
"$strata" inspect redo --json "$log" > "$dir/redo.json"
read -r our_cp our_end mtrs pages < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["files"][0]
print(j["checkpoint_lsn"], j["lsn_end"], j["mini_transactions"], j["pages_changed"])' "$dir/redo.json")

progress "timing: MariaDB's recovery of a copy"
start=$(date +%s.%N)
mariadb_start "$dir/recover" "$port" 2 "$cnf"
peer=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
server_cp=$(sed -n 's/.*Starting crash recovery from checkpoint LSN=\([0-9]*\).*/\1/p' "$dir/recover/mariadbd.err" | head -n 1)
server_end=$(sed -n 's/.*End of log at LSN=\([0-9]*\).*/\1/p' "$dir/recover/mariadbd.err" | head -n 1)
mariadb_stop "$dir/recover"
[ "$our_cp" = "$server_cp" ] || die "checkpoint: strata $our_cp, the server $server_cp"
[ "$our_end" = "$server_end" ] || die "end of log: strata $our_end, the server $server_end"

mib=$(awk -v a="$our_cp" -v b="$our_end" 'BEGIN { printf "%.1f", (b - a) / 1048576 }')
echo
echo "$rows rows inserted, SIGKILL; $mib MiB of log after the checkpoint (LSN $our_cp to $our_end, as the" \
     "server's recovery said), $mtrs mini-transactions, $pages pages; $(nproc) cores; page cache warm."
echo
echo "| reader | seconds | MB/s of log | vs MariaDB |"
echo "|---|---:|---:|---:|"
awk -v s="$ours" -v p="$peer" -v m="$mib" 'BEGIN {
  printf "| strata inspect redo (walk, decode, count; best of 3) | %.2f | %.0f | %.2f |\n", s, (s > 0 ? m * 1.048576 / s : 0), (p > 0 ? s / p : 0)
  printf "| MariaDB recovery of a copy (start until it answers; parses and applies) | %.2f | %.0f | 1.00 |\n", p, (p > 0 ? m * 1.048576 / p : 0) }'
