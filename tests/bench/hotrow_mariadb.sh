#!/usr/bin/env bash
# MariaDB on the "hot row": T clients all updating the same row, each statement its own durable
# commit. This is the figure Strata's hot-row group commit (Db::RunGrouped) is set against: the
# row lock serialises the updates, so what a server gets out of it depends on how many commits it
# can put behind one redo log flush.
#
# A private mariadbd (scripts/mariadb/server.sh, its own data directory under a scratch
# directory, 127.0.0.1, binary log off) gets sysbench's sbtest1 with --rows rows (id 1..N), then
# mariadb-slap runs T connections, each sending `UPDATE sbtest1 SET k=k+1 WHERE id=1` U times in
# autocommit mode over the unix socket; the next statement leaves only when the reply to the last
# one has come back, so each update is one client round trip and one commit. The time is
# mariadb-slap's own: from releasing the connected clients to the last one finishing
# (connecting is not in it). k is read before and after: it must have grown by exactly T x U.
#
#   tests/bench/hotrow_mariadb.sh [--threads N] [--updates N] [--flush 1|0|2] [--rows N]
#                                 [--fsync-latency-us N] [--out FILE] [--scratch DIR] [--keep]
#
#   --threads N           client connections (default 50)
#   --updates N           updates per connection (default 2000)
#   --flush 1|0|2         innodb_flush_log_at_trx_commit (default 1: each commit waits for the
#                         redo log's fdatasync, the durability Strata's engine gives)
#   --rows N              rows in sbtest1 (default 100)
#   --fsync-latency-us N  make each fsync/fdatasync of the redo log (ib_logfile0) N microseconds
#                         slower, through tests/bench/fsync_delay.c preloaded into mariadbd
#                         (built here with cc; default 0: not loaded). The kernel here has no
#                         device-mapper, so dm-delay cannot slow the device itself.
#   --out FILE            append a Markdown table row to FILE (a header first if it is empty)
#   --scratch DIR         where the scratch directory is made (default $STRATA_BENCH_DIR, else
#                         /var/tmp); it is removed at exit unless --keep
#   --keep                keep the scratch directory (data directory, server log, slap output)
#
# Environment: STRATA_BENCH_PORT (first port tried, default 33190), STRATA_BENCH_MARIADB_POOL
# (innodb_buffer_pool_size, default 128M), STRATA_BENCH_MARIADB_LOG (innodb_log_file_size,
# default 256M: no checkpoint pressure in a default run).
# Needs: mariadb-server and mariadb-client 10.11 (scripts/install-deps.sh mariadb), and a C
# compiler for --fsync-latency-us. Progress goes to stderr; stdout gets one line such as
#   MariaDB 10.11.19, innodb_flush_log_at_trx_commit=1, 50 threads x 2000 updates: 100000
#   updates in 18.150 s = 5510 TPS (k grew by 100000: ok)
# then a last line `tps=5510`. Exit 1 when k did not grow by T x U or a client failed.
# A default run takes ~30 s on 2 cores with a ~3.5 ms fdatasync (about 18 s of load, the rest
# install, start and slow shutdown), ~60 s with --fsync-latency-us 10000; ~300 MB of disk.
set -euo pipefail
export LC_ALL=C
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
shim_src=$top/tests/bench/fsync_delay.c

threads=50
updates=2000
flush=1
rows=100
latency_us=0
out=""
scratch=${STRATA_BENCH_DIR:-/var/tmp}
KEEP_WORK=0

# shellcheck source=scripts/mariadb/lib.sh
. "$top/scripts/mariadb/lib.sh"

while [ $# -gt 0 ]; do
  case $1 in
    --threads | --updates | --flush | --rows | --fsync-latency-us | --out | --scratch)
      [ $# -ge 2 ] || usage
      opt=$1 val=$2
      shift 2
      ;;
    --*=*) opt=${1%%=*} val=${1#*=}; shift ;;
    --keep) KEEP_WORK=1; shift; continue ;;
    -h | --help) print_help; exit 0 ;;
    *) echo "$prog: unknown argument '$1'" >&2; usage ;;
  esac
  case $opt in
    --threads) threads=$val ;;
    --updates) updates=$val ;;
    --flush) flush=$val ;;
    --rows) rows=$val ;;
    --fsync-latency-us) latency_us=$val ;;
    --out) out=$val ;;
    --scratch) scratch=$val ;;
    *) echo "$prog: unknown option '$opt'" >&2; usage ;;
  esac
done
positive() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 must be a positive integer, not '$2'"; }
positive --threads "$threads"
positive --updates "$updates"
positive --rows "$rows"
[[ $flush =~ ^[012]$ ]] || die "--flush must be 0, 1 or 2, not '$flush'"
[[ $latency_us =~ ^[0-9]+$ ]] || die "--fsync-latency-us must be a number of microseconds, not '$latency_us'"
total=$((threads * updates))

mariadb_require_server
slap=$(mariadb_find_tool mariadb-slap) || die "mariadb-slap is missing (it comes with mariadb-client)"
cc=""
if [ "$latency_us" -gt 0 ]; then
  cc=$(mariadb_find_tool cc || mariadb_find_tool gcc || mariadb_find_tool clang) || die "--fsync-latency-us needs a C compiler (cc)"
fi

# --- scratch directory and clean-up ------------------------------------------------------------
# (work_init's trap ends the clients too: started in the background, they ignore SIGINT.)
work_init strata-hotrow "$scratch"
work=$WORK
mdir=$work/mariadb

# --- the fsync delay, when asked for -----------------------------------------------------------
preload=()
if [ "$latency_us" -gt 0 ]; then
  "$cc" -O2 -Wall -shared -fPIC -o "$work/fsync_delay.so" "$shim_src" -ldl ||
    die "could not build $shim_src"
  # Only mariadbd's processes (server.sh start runs mariadb-install-db and mariadbd) see it.
  preload=(env "LD_PRELOAD=$work/fsync_delay.so" "STRATA_FSYNC_DELAY_US=$latency_us"
    "STRATA_FSYNC_DELAY_MATCH=/ib_logfile0" "STRATA_FSYNC_DELAY_REPORT=$work/fsync_delay.txt")
fi

# --- the server --------------------------------------------------------------------------------
port=$(mariadb_free_port "${STRATA_BENCH_PORT:-33190}")
progress "starting a private MariaDB in $mdir on 127.0.0.1:$port"
mariadb_start "$mdir" "$port" "$flush" "innodb_buffer_pool_size=${STRATA_BENCH_MARIADB_POOL:-128M}
innodb_log_file_size=${STRATA_BENCH_MARIADB_LOG:-256M}
innodb_log_buffer_size=16M
max_connections=$((threads + 20))" "${preload[@]}"
sql() { "$SERVER" sql "$mdir" -N -B "$@"; }
config=$(sql -e "SELECT CONCAT_WS(' ', @@version, @@innodb_flush_log_at_trx_commit,
  @@innodb_flush_method, @@log_bin, @@innodb_buffer_pool_size DIV 1048576,
  @@innodb_log_file_size DIV 1048576)")
read -r version flush_now flush_method log_bin pool_mib log_mib <<<"$config"
[ "$flush_now" = "$flush" ] || die "the server runs with innodb_flush_log_at_trx_commit=$flush_now, not $flush"
version=${version%%-*}
# O_DSYNC makes each redo write synchronous without an fdatasync, which the delay does not see.
if [ "$latency_us" -gt 0 ] && [[ $flush_method == *DSYNC* ]]; then
  die "innodb_flush_method=$flush_method: the redo log is never fdatasync'ed, --fsync-latency-us would do nothing"
fi
progress "MariaDB $version: innodb_flush_log_at_trx_commit=$flush_now, innodb_flush_method=$flush_method, log_bin=$log_bin, buffer pool ${pool_mib}M, redo log ${log_mib}M"

# --- the table -----------------------------------------------------------------------------------
query='UPDATE sbtest1 SET k=k+1 WHERE id=1'
sql -e "CREATE DATABASE sbtest"
sql sbtest -e "CREATE TABLE sbtest1 (id INT UNSIGNED NOT NULL AUTO_INCREMENT, k INT UNSIGNED NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k)) ENGINE=InnoDB;
  INSERT INTO sbtest1 (k, c, pad) SELECT 0, REPEAT('c', 119), REPEAT('p', 59) FROM seq_1_to_$rows;
  $query;"
[ "$(sql sbtest -e 'SELECT COUNT(*), MIN(id), MAX(id) FROM sbtest1')" = "$rows	1	$rows" ] ||
  die "sbtest1 does not hold ids 1..$rows"

status_var() { sql -e "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '$1'"; }
k_before=$(sql sbtest -e 'SELECT k FROM sbtest1 WHERE id = 1')
log_writes_before=$(status_var INNODB_LOG_WRITES)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the load ------------------------------------------------------------------------------------
progress "$threads connections x $updates x \`$query\` (autocommit) ..."
slap_out=$work/slap.out
t0=$EPOCHREALTIME
rc=0
# In the background so that a signal reaches the trap at once, not after the last update.
"$slap" --defaults-file="$mdir/my.cnf" --create-schema=sbtest --iterations=1 \
  --concurrency="$threads" --number-of-queries="$total" --query="$query" >"$slap_out" 2>&1 &
wait $! || rc=$?
t1=$EPOCHREALTIME
[ "$rc" = 0 ] || { cat "$slap_out" >&2; die "mariadb-slap failed (exit $rc)"; }
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
# "Average number of seconds to run all queries: 12.345 seconds"; one iteration, so the one time.
secs=$(awk -F': ' '/Average number of seconds to run all queries/ { split($2, f, " "); print f[1] }' "$slap_out")
per_client=$(awk -F': ' '/Average number of queries per client/ { print $2 + 0 }' "$slap_out")
[[ $secs =~ ^[0-9]+(\.[0-9]+)?$ ]] || { cat "$slap_out" >&2; die "no time in mariadb-slap's output"; }
[ "$per_client" = "$updates" ] || die "mariadb-slap says $per_client queries per client, not $updates"

k_after=$(sql sbtest -e 'SELECT k FROM sbtest1 WHERE id = 1')
log_writes=$(($(status_var INNODB_LOG_WRITES) - log_writes_before))
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
grew=$((k_after - k_before))
if [ "$grew" = "$total" ]; then check="k grew by $grew: ok"; else check="k grew by $grew, not $total: FAILED"; fi

# mariadb-slap prints milliseconds; a run shorter than that has no rate.
tps=$(awk -v n="$total" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print 0 }')
per_flush=$(awk -v n="$total" -v w="$log_writes" 'BEGIN { if (w > 0) printf "%.1f", n / w; else print "-" }')

delay_note=""
if [ "$latency_us" -gt 0 ]; then
  server_pid=$(cat "$mdir/mariadbd.pid")
  mariadb_stop "$mdir"  # the library writes its count when mariadbd exits
  # "pid=P delayed=N slept_us=S", one line per process that delayed a flush (install-db's too).
  delayed=$(awk -v want="pid=$server_pid" '$1 == want {
      n = $2; sub(/^delayed=/, "", n); s = $3; sub(/^slept_us=/, "", s)
      printf "%d flushes delayed by %.0f us on average", n, s / n }' "$work/fsync_delay.txt" 2>/dev/null || true)
  [ -n "$delayed" ] || die "the fsync delay library never delayed a flush of ib_logfile0"
  delay_note=", redo fsync +${latency_us} us"
  progress "fsync_delay: $delayed (whole server life, start and shutdown included)"
fi

line="MariaDB $version, innodb_flush_log_at_trx_commit=$flush$delay_note, $threads threads x $updates updates: $total updates in $secs s = $tps TPS ($check)"
progress "wall time around mariadb-slap (connections and process start included): $wall s; redo log writes during the run: $log_writes ($per_flush commits per write); load $load_before -> $load_after"

if [ -n "$out" ]; then
  mkdir -p "$(dirname "$out")"
  if [ ! -s "$out" ]; then
    {
      echo "| date (UTC) | server | flush_log_at_trx_commit | redo fsync + us | threads | updates/thread | updates | seconds | TPS | commits per redo write | k check | load before -> after |"
      echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    } >>"$out"
  fi
  echo "| $(date -u +%Y-%m-%dT%H:%M:%SZ) | MariaDB $version | $flush | $latency_us | $threads | $updates | $total | $secs | $tps | $per_flush | ${check#k grew by } | $load_before -> $load_after |" >>"$out"
  progress "appended to $out"
fi

echo "$line"
echo "tps=$tps"
[ "$grew" = "$total" ] || exit 1
