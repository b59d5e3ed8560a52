#!/usr/bin/env bash
# Loading a mysqldump on this machine, in one run: `strata import` with and without
# --disable-redo, `strata sql < dump`, MariaDB's `mariadb < dump.sql` with
# innodb_flush_log_at_trx_commit=1 and =0, and SQLite `.read` of the same rows with journaling off.
# The dump is a generated sysbench-like sbtest1 (`strata gen dump --shape sbtest`, whose INSERTs
# are mariadb-dump's byte for byte). Each load's wall-clock time counts only once its SELECT COUNT(*)
# matches. Prints progress on stderr and a Markdown report on stdout; the report is kept in --out.
#
#   tests/bench/import_bench.sh [--rows N] [--big] [--threads N] [--keep] [--out FILE]
#
#   --rows N     rows in the dump (default 1000000)
#   --big        10000000 rows
#   --threads N  passed to `strata import` (default: not passed, strata's own default)
#   --keep       keep the scratch directory (dumps, data directories, logs) and say where it is
#   --out FILE   where the report is kept (default $BUILD/import_bench.md)
#
# Environment: STRATA (the binary, default $BUILD/cli/strata; BUILD defaults to build/; nothing
# is built here), STRATA_BENCH_DIR (where the scratch directory goes; default $TMPDIR, else
# /var/tmp: dumps and data directories share it, so they share one filesystem and the disk the dd
# line measures), STRATA_BENCH_ONLY (e.g. mariadb,sqlite: a subset of strata,mariadb,sqlite),
# STRATA_BENCH_MARIADB_POOL (innodb_buffer_pool_size, default 1G), STRATA_BENCH_MARIADB_LOG
# (innodb_log_file_size, default 1G), STRATA_BENCH_SQLITE_CACHE_MIB (SQLite's cache_size, default
# the MariaDB pool's size), STRATA_BENCH_DD_MIB (MiB dd writes, default 1024), STRATA_BENCH_PORT
# (first port tried for the private MariaDB, default 33170), STRATA_BENCH_IMPORT_ARGS (more
# options for both `strata import` lines, e.g. "--buffer-pool 1G"; split at spaces).
# Needs: the CLI built, scripts/install-deps.sh bench mariadb (sqlite3, mariadb-server,
# mariadb-client).
# The default run needs ~3 GB free and takes ~1 minute on 2 cores without strata; --big needs
# ~12 GB and ten times as long or more (the data outgrow MariaDB's 1G buffer pool).
set -euo pipefail
export LC_ALL=C
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
rows=1000000
threads=""
KEEP_WORK=0
out=${OUT:-$build/import_bench.md}

# shellcheck source=scripts/mariadb/lib.sh
. "$top/scripts/mariadb/lib.sh"

while [ $# -gt 0 ]; do
  case $1 in
    --rows) [ $# -ge 2 ] || usage; rows=$2; shift 2 ;;
    --rows=*) rows=${1#--rows=}; shift ;;
    --big) rows=10000000; shift ;;
    --threads) [ $# -ge 2 ] || usage; threads=$2; shift 2 ;;
    --threads=*) threads=${1#--threads=}; shift ;;
    --keep) KEEP_WORK=1; shift ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    -h | --help) print_help; exit 0 ;;
    *) echo "$prog: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ $rows =~ ^[1-9][0-9]*$ ]] || die "--rows must be a positive integer, not '$rows'"
[ -z "$threads" ] || [[ $threads =~ ^[1-9][0-9]*$ ]] || die "--threads must be a positive integer, not '$threads'"

wanted() { # wanted SECTION: in STRATA_BENCH_ONLY, or that is unset
  [ -z "${STRATA_BENCH_ONLY:-}" ] && return 0
  [[ ,$STRATA_BENCH_ONLY, == *,$1,* ]]
}

pool=${STRATA_BENCH_MARIADB_POOL:-1G}
redo=${STRATA_BENCH_MARIADB_LOG:-1G}
dd_mib=${STRATA_BENCH_DD_MIB:-1024}
to_mib() { # 1G, 512M, 1048576K or bytes -> MiB
  local v=${1^^}
  case $v in
    *G) echo $((${v%G} * 1024)) ;;
    *M) echo "${v%M}" ;;
    *K) echo $((${v%K} / 1024)) ;;
    *) echo $((v / 1048576)) ;;
  esac
}
[[ ${pool^^} =~ ^[0-9]+[GMK]?$ ]] || die "STRATA_BENCH_MARIADB_POOL: a size such as 1G or 128M, not '$pool'"
[[ ${redo^^} =~ ^[0-9]+[GMK]?$ ]] || die "STRATA_BENCH_MARIADB_LOG: a size such as 1G or 96M, not '$redo'"
sqlite_cache_mib=${STRATA_BENCH_SQLITE_CACHE_MIB:-$(to_mib "$pool")}
[[ $sqlite_cache_mib =~ ^[0-9]+$ ]] || die "STRATA_BENCH_SQLITE_CACHE_MIB must be a number of MiB"
[[ $dd_mib =~ ^[1-9][0-9]*$ ]] || die "STRATA_BENCH_DD_MIB must be a positive number of MiB"

[ -x "$strata" ] || die "build first (make build): the dump is made by $strata"
if wanted sqlite; then
  command -v sqlite3 >/dev/null || die "sqlite3 is missing: scripts/install-deps.sh bench"
fi
if wanted mariadb; then
  mariadb_require_server
fi

strata_why=""
wanted strata || strata_why="not selected (STRATA_BENCH_ONLY=$STRATA_BENCH_ONLY)"

# --- scratch directory -------------------------------------------------------------------------
work_init strata-import-bench "${STRATA_BENCH_DIR:-${TMPDIR:-/var/tmp}}"
work=$WORK
mdir=$work/mariadb

# Room: both dump texts (~201 bytes a row each), the largest data directory (~2.5x the text for
# MariaDB with its 1G redo log), the dd file.
avail=$(df -P -B1 "$work" | awk 'NR == 2 { print $4 }')
need=$((rows * 201 * 2 + rows * 201 * 5 / 2 + 1073741824 + dd_mib * 1048576))
[ "$KEEP_WORK" = 1 ] && need=$((need + rows * 201 * 8))
[ "$avail" -gt "$need" ] ||
  die "$work has $((avail / 1000000)) MB free, the run needs about $((need / 1000000)) MB (STRATA_BENCH_DIR elsewhere?)"

thousands() { awk -v v="$1" 'BEGIN { s = sprintf("%.0f", v); t = ""
  while (length(s) > 3) { t = "," substr(s, length(s) - 2) t; s = substr(s, 1, length(s) - 3) }
  print s t }'; }
now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
took() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }'; }
run_start=$(now)
parts=()  # "what: seconds" for the report's last line

# --- machine facts -----------------------------------------------------------------------------
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
ram_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
read -r fs_type fs_source fs_options < <(findmnt -n -o FSTYPE,SOURCE,OPTIONS --target "$work" 2>/dev/null || echo "? ? ?")
fs_note=""
[ "$fs_type" = tmpfs ] && fs_note=" (tmpfs: nothing reaches a disk, the figures measure memory)"

# --- the dumps ---------------------------------------------------------------------------------
dump=$work/sbtest1.sql
lite=$work/sbtest1.sqlite.sql
progress "generating $rows rows into $dump and $lite"
t=$(now)
"$strata" gen dump --rows "$rows" --keys autoinc --shape sbtest --table sbtest1 --database sbtest -o "$dump" 2>/dev/null
# SQLite reads the dump's own INSERTs after a plain CREATE TABLE (id INTEGER PRIMARY KEY, so the
# rows are clustered by id as in InnoDB) and CREATE INDEX k_1, in one transaction.
{
  cat <<'EOF'
PRAGMA journal_mode=OFF;
PRAGMA synchronous=OFF;
BEGIN;
CREATE TABLE `sbtest1` (
  `id` INTEGER NOT NULL PRIMARY KEY,
  `k` INTEGER NOT NULL DEFAULT 0,
  `c` CHAR(120) NOT NULL DEFAULT '',
  `pad` CHAR(60) NOT NULL DEFAULT ''
);
CREATE INDEX `k_1` ON `sbtest1` (`k`);
EOF
  awk '/^INSERT INTO/,/;$/' "$dump"
  echo 'COMMIT;'
} >"$lite"
gen_secs=$(since "$t")
parts+=("generate both dumps $(awk -v s="$gen_secs" 'BEGIN { printf "%.1f s", s }')")
dump_bytes=$(stat -c %s "$dump")
lite_bytes=$(stat -c %s "$lite")
inserts=$(grep -c '^INSERT INTO' "$dump")
progress "dump: $dump_bytes bytes, $inserts INSERTs, generated in $gen_secs s"

# --- the disk's sequential write speed ---------------------------------------------------------
# dd FLAG...: MB/s (1e6 bytes) writing STRATA_BENCH_DD_MIB MiB of zeros in 1 MiB blocks.
dd_speed() {
  local line
  line=$(dd if=/dev/zero of="$work/dd.tmp" bs=1M count="$dd_mib" "$@" 2>&1 | tail -n 1)
  rm -f "$work/dd.tmp"
  # "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.23456 s, 870 MB/s"
  awk -v l="$line" 'BEGIN { n = split(l, f, /, /); split(f[1], b, " "); split(f[n - 1], s, " ");
    if (s[1] + 0 > 0) printf "%.0f", b[1] / s[1] / 1e6; else print "?" }'
}
progress "measuring sequential writes with dd ($dd_mib MiB, conv=fdatasync, then oflag=direct)"
sync
t=$(now)
dd_sync=$(dd_speed conv=fdatasync)
dd_direct=$(dd_speed oflag=direct)
parts+=("dd $(took "$t")")
progress "dd: $dd_sync MB/s (conv=fdatasync), $dd_direct MB/s (oflag=direct)"

# --- timing and counting -----------------------------------------------------------------------
# Each contender: key, label, input text bytes, then its status ("ok", "skipped: ...",
# "failed: ..."), seconds and the seconds `sync` took right after it returned.
declare -A label status secs sync_secs input_bytes
order=()
add() { order+=("$1"); label[$1]=$2; input_bytes[$1]=$3; status[$1]="skipped: $4"; }

# timed LOG INPUT CMD...: runs CMD with stdin from INPUT, output to LOG; wall seconds in $elapsed.
timed() {
  local log=$1 input=$2 t0 rc=0
  shift 2
  t0=$EPOCHREALTIME
  "$@" <"$input" >"$log" 2>&1 || rc=$?
  elapsed=$(since "$t0")
  return $rc
}

# Before each load: earlier loads' dirty pages written, the input text in the page cache.
prepare() { sync; cat "$1" >/dev/null; }

# First field made only of digits in an output that is not an error message.
first_number() {
  awk 'tolower($0) ~ /error/ { next }
       { gsub(/[|\t]/, " "); for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+$/) { print $i; exit } }'
}

# finish KEY LOG COUNT: the status from the count, and the sync time after the load.
finish() {
  local key=$1 log=$2 count=$3 t
  secs[$key]=$elapsed
  t=$(now)
  sync
  sync_secs[$key]=$(since "$t")
  if [ "$count" = "$rows" ]; then
    status[$key]=ok
    progress "${label[$key]}: $elapsed s ($(thousands "$(awk -v r="$rows" -v s="$elapsed" 'BEGIN { print r / s }')") rows/s), COUNT(*) = $count"
  else
    status[$key]="failed: SELECT COUNT(*) gave '${count:-nothing}', not $rows (see $log)"
    progress "${label[$key]}: ${status[$key]}"
  fi
}

# --- strata ------------------------------------------------------------------------------------
threads_opt=()
[ -n "$threads" ] && threads_opt=(--threads "$threads")
read -r -a extra_opt <<<"${STRATA_BENCH_IMPORT_ARGS:-}"
threads_opt+=("${extra_opt[@]}")
add strata_import "\`strata import${threads:+ --threads $threads}\`" "$dump_bytes" "$strata_why"
add strata_noredo "\`strata import --disable-redo${threads:+ --threads $threads}\`" "$dump_bytes" "$strata_why"
add strata_sql "\`strata sql < dump.sql\`" "$dump_bytes" "$strata_why"

# strata_count DATADIR: COUNT(*) of sbtest.sbtest1 through `strata sql`.
strata_count() {
  # shellcheck disable=SC2016  # backquotes are SQL's here
  "$strata" sql --datadir "$1" -B -N -e 'SELECT COUNT(*) FROM `sbtest`.`sbtest1`' 2>&1 | first_number
}

strata_load() { # strata_load KEY: one load into a fresh data directory
  local key=$1 datadir=$work/strata-$1 log=$work/strata-$1.log cmd
  case $key in
    strata_import) cmd=("$strata" import "$dump" --datadir "$datadir" --database sbtest "${threads_opt[@]}") ;;
    strata_noredo) cmd=("$strata" import "$dump" --datadir "$datadir" --database sbtest --disable-redo "${threads_opt[@]}") ;;
    strata_sql) cmd=("$strata" sql --datadir "$datadir" sbtest) ;;
  esac
  rm -rf "$datadir"
  # As `mysql sbtest < dump.sql`: the dump (made without --databases) names no database.
  if [ "$key" = strata_sql ]; then "$strata" sql --datadir "$datadir" -e 'CREATE DATABASE sbtest' > /dev/null; fi
  prepare "$dump"
  progress "${label[$key]} ..."
  local t
  t=$(now)
  if [ "$key" = strata_sql ]; then
    timed "$log" "$dump" "${cmd[@]}" || { status[$key]="failed: exit $? (see $log)"; progress "${label[$key]}: ${status[$key]}"; return 0; }
  else
    timed "$log" /dev/null "${cmd[@]}" || { status[$key]="failed: exit $? (see $log)"; progress "${label[$key]}: ${status[$key]}"; return 0; }
  fi
  finish "$key" "$log" "$(strata_count "$datadir")"
  [ "$KEEP_WORK" = 1 ] || rm -rf "$datadir"
  parts+=("${label[$key]} $(took "$t")")
}

if [ -z "$strata_why" ]; then
  strata_load strata_import
  strata_load strata_noredo
  strata_load strata_sql
fi

# --- MariaDB -----------------------------------------------------------------------------------
add mariadb1 "MariaDB \`mariadb < dump.sql\`, innodb_flush_log_at_trx_commit=1" "$dump_bytes" \
  "not selected (STRATA_BENCH_ONLY=${STRATA_BENCH_ONLY:-})"
add mariadb0 "MariaDB \`mariadb < dump.sql\`, innodb_flush_log_at_trx_commit=0" "$dump_bytes" \
  "not selected (STRATA_BENCH_ONLY=${STRATA_BENCH_ONLY:-})"
mariadb_config=""

mariadb_load() { # mariadb_load FLUSH: a fresh instance with that setting, one load, stopped again
  local flush=$1 key=mariadb$1 log=$work/mariadb$1.log port t
  t=$(now)
  port=$(mariadb_free_port "${STRATA_BENCH_PORT:-33170}")
  rm -rf "$mdir/data"
  mariadb_start "$mdir" "$port" "$flush" "innodb_buffer_pool_size=$pool
innodb_log_file_size=$redo
innodb_log_buffer_size=16M
innodb_autoextend_increment=64
max_allowed_packet=64M"
  "$SERVER" sql "$mdir" -e 'CREATE DATABASE sbtest'
  mariadb_config=$("$SERVER" sql "$mdir" -N -B -e "SELECT CONCAT('MariaDB ', @@version,
    ': innodb_buffer_pool_size=', @@innodb_buffer_pool_size DIV 1048576, 'M',
    ', innodb_log_file_size=', @@innodb_log_file_size DIV 1048576, 'M',
    ', innodb_log_buffer_size=', @@innodb_log_buffer_size DIV 1048576, 'M',
    ', innodb_flush_method=', @@innodb_flush_method, ', innodb_doublewrite=', @@innodb_doublewrite,
    ', innodb_io_capacity=', @@innodb_io_capacity, ', log_bin=', @@log_bin,
    ', innodb_flush_log_at_trx_commit=', @@innodb_flush_log_at_trx_commit)")
  progress "$mariadb_config"
  prepare "$dump"
  progress "${label[$key]} ..."
  if timed "$log" "$dump" "$SERVER" sql "$mdir" sbtest; then
    finish "$key" "$log" "$("$SERVER" sql "$mdir" -N -B -e 'SELECT COUNT(*) FROM sbtest.sbtest1' 2>>"$log" | first_number)"
  else
    status[$key]="failed: exit $? (see $log)"
    progress "${label[$key]}: ${status[$key]}"
  fi
  mariadb_bytes=$(du -sb "$mdir/data/sbtest" 2>/dev/null | cut -f1)
  if [ "$KEEP_WORK" = 1 ]; then
    mariadb_stop "$mdir"
    mv "$mdir" "$work/mariadb-flush$flush"
  else
    "$SERVER" sql "$mdir" -e 'DROP DATABASE sbtest'  # then the slow shutdown has nothing to flush
    mariadb_stop "$mdir"
    rm -rf "$mdir"
  fi
  parts+=("MariaDB flush=$flush (start, load, count, stop) $(took "$t")")
}

if wanted mariadb; then
  mariadb_load 1
  mariadb_load 0
fi

# --- SQLite ------------------------------------------------------------------------------------
add sqlite "SQLite \`.read\`, journal_mode=OFF, synchronous=OFF" "$lite_bytes" \
  "not selected (STRATA_BENCH_ONLY=${STRATA_BENCH_ONLY:-})"
if wanted sqlite; then
  t=$(now)
  db=$work/sbtest1.sqlite
  rm -f "$db"
  prepare "$lite"
  progress "${label[sqlite]} ..."
  # cache_size as large as MariaDB's buffer pool (negative: KiB).
  if timed "$work/sqlite.log" /dev/null sqlite3 -batch -bail -cmd "PRAGMA cache_size=-$((sqlite_cache_mib * 1024))" "$db" ".read $lite"; then
    finish sqlite "$work/sqlite.log" "$(sqlite3 "$db" 'SELECT COUNT(*) FROM sbtest1' 2>>"$work/sqlite.log" | first_number)"
  else
    status[sqlite]="failed: exit $? (see $work/sqlite.log)"
    progress "${label[sqlite]}: ${status[sqlite]}"
  fi
  sqlite_bytes=$(stat -c %s "$db" 2>/dev/null || echo 0)
  [ "$KEEP_WORK" = 1 ] || rm -f "$db"
  parts+=("SQLite $(took "$t")")
fi

# --- the report --------------------------------------------------------------------------------
{
  echo "# import_bench $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(nproc) cores"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "- Dump: $(thousands "$rows") rows of sysbench-like \`sbtest1\` (\`strata gen dump --keys autoinc --shape sbtest\`, mariadb-dump's INSERTs): $(awk -v b="$dump_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB in $inserts extended INSERTs; the SQLite script with the same INSERTs $(awk -v b="$lite_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB. Both generated in $(awk -v s="$gen_secs" 'BEGIN { printf "%.1f", s }') s ($(thousands "$(awk -v r="$rows" -v s="$gen_secs" 'BEGIN { print (s > 0) ? r / s : 0 }')") rows/s)."
  echo "- Machine: $(nproc) cores (${cpu:-?}), $(awk -v k="$ram_kib" 'BEGIN { printf "%.1f", k / 1048576 }') GiB RAM; scratch $work on $fs_type ($fs_source, $fs_options)$fs_note."
  echo "- Disk sequential write there: **$dd_sync MB/s** (\`dd if=/dev/zero bs=1M count=$dd_mib conv=fdatasync\`: through the page cache, timed to the end of one fdatasync); $dd_direct MB/s with \`oflag=direct\` (one 1 MiB write in flight)."
  if [ -n "$mariadb_config" ]; then
    echo "- ${mariadb_config%, innodb_flush_log_at_trx_commit=*} (a private instance from scripts/mariadb/server.sh, fresh data directory and database for each line; the setting of the line given to mariadbd at start; binary log off). Data directory after the load: $(awk -v b="${mariadb_bytes:-0}" 'BEGIN { printf "%.0f", b / 1e6 }') MB."
  fi
  if wanted sqlite; then
    echo "- SQLite $(sqlite3 --version | cut -d' ' -f1): journal_mode=OFF, synchronous=OFF, one transaction, cache_size $sqlite_cache_mib MiB, \`id INTEGER PRIMARY KEY\` (rows clustered by id) and index k_1 created before the rows, as the dump creates KEY k_1. Database file: $(awk -v b="${sqlite_bytes:-0}" 'BEGIN { printf "%.0f", b / 1e6 }') MB."
  fi
  echo "- strata: $strata${threads:+, --threads $threads}${STRATA_BENCH_IMPORT_ARGS:+, import options $STRATA_BENCH_IMPORT_ARGS}${strata_why:+; skipped: $strata_why}."
  echo
  echo "| contender | seconds | rows/s | MB/s of dump text | time / \`strata import --disable-redo\`'s | then \`sync\` s |"
  echo "|---|---:|---:|---:|---:|---:|"
  base_secs=""
  [ "${status[strata_noredo]}" = ok ] && base_secs=${secs[strata_noredo]}
  for key in "${order[@]}"; do
    if [ "${status[$key]}" = ok ]; then
      awk -v n="${label[$key]}" -v s="${secs[$key]}" -v r="$rows" -v b="${input_bytes[$key]}" \
          -v base="$base_secs" -v y="${sync_secs[$key]}" '
        function thousands(v,   s, t) {
          s = sprintf("%.0f", v); t = ""
          while (length(s) > 3) { t = "," substr(s, length(s) - 2) t; s = substr(s, 1, length(s) - 3) }
          return s t
        }
        BEGIN {
          ratio = (base != "" && base + 0 > 0) ? sprintf("%.2fx", s / base) : "-"
          printf "| %s | %.2f | %s | %.1f | %s | %.2f |\n", n, s, thousands(r / s), b / 1e6 / s, ratio, y
        }'
    else
      echo "| ${label[$key]} | ${status[$key]} | | | | |"
    fi
  done
  echo
  # Strata against the faster MariaDB line, when both sides ran.
  best_mariadb="" best_key=""
  for key in mariadb1 mariadb0; do
    if [ "${status[$key]}" = ok ] && { [ -z "$best_mariadb" ] || awk -v a="${secs[$key]}" -v b="$best_mariadb" 'BEGIN { exit !(a < b) }'; }; then
      best_mariadb=${secs[$key]} best_key=$key
    fi
  done
  if [ -n "$base_secs" ]; then
    if [ -n "$best_mariadb" ]; then
      awk -v m="$best_mariadb" -v s="$base_secs" -v k="${best_key#mariadb}" 'BEGIN {
        printf "Target 1, `strata import --disable-redo` at least 5x faster than MariaDB'"'"'s best (flush_log_at_trx_commit=%s): %.2fx, %s.\n",
          k, m / s, (m / s >= 5) ? "met" : "NOT met" }'
    else
      echo "Target 1, at least 5x faster than MariaDB's best: no MariaDB figure in this run."
    fi
    if [ "${status[sqlite]}" = ok ]; then
      awk -v q="${secs[sqlite]}" -v s="$base_secs" 'BEGIN {
        printf "Target 2, `strata import --disable-redo` faster than SQLite with journaling off: %.2fx, %s.\n",
          q / s, (q > s) ? "met" : "NOT met" }'
    else
      echo "Target 2, faster than SQLite with journaling off: no SQLite figure in this run."
    fi
  else
    echo "Targets (\`strata import --disable-redo\` at least 5x faster than MariaDB's best and faster than SQLite with journaling off): not measured, \`strata import --disable-redo\` has no figure in this run."
  fi
  echo
  echo "Seconds are wall-clock from starting the loader to its exit, input in the page cache, after a \`sync\`; the COUNT(*) check is not timed. \"then \`sync\` s\" is how long a \`sync\` took right after: writes the loader left in the OS page cache (MariaDB writes its data files with O_DIRECT, so what its buffer pool still holds dirty shows nowhere). MB/s are 1e6 bytes of the contender's own input text per second, to set against the dd line."
  echo
  joined=$(printf '%s; ' "${parts[@]}")
  echo "Parts: ${joined%; }. Total $(took "$run_start")."
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the numbers)"
} | { mkdir -p "$(dirname "$out")"; tee "$out"; }
echo "(kept in $out)"
