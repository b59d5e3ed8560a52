#!/usr/bin/env bash
# What transactions cost in Strata's engine on this machine: a sysbench oltp_update-like mix
# (point select, k = k + 1 on the indexed column, c = ? on another row, commit) from 1/8/50
# threads with flush_log_at_trx_commit=1 and 2, purge throughput behind a long-open read view,
# lock-table memory per held lock, and SQLite running the same transaction in the same run when
# the build found SQLite (see tests/bench/trx_bench.cc). Builds trx_bench, then prints progress
# on stderr and Markdown tables on stdout; both are kept in $OUT (or the first argument).
#
#   tests/bench/trx_bench.sh [OUT]
#
# Environment: BUILD (build directory, default build/; an optimised one: Release or
# RelWithDebInfo, the script refuses another build type unless STRATA_BENCH_ANY_BUILD=1),
# OUT (default $BUILD/trx_bench.md), STRATA_BENCH_DIR (where the databases go, default /tmp),
# STRATA_BENCH_TRX_ROWS (100000), STRATA_BENCH_TRX_THREADS (1,8,50), STRATA_BENCH_TRX_SECONDS
# (5 per line), STRATA_BENCH_TRX_POOL_MIB (128), STRATA_BENCH_TRX_PURGE (1; 0 runs section 1
# without the background purge thread), STRATA_BENCH_PURGE_TRX (100000),
# STRATA_BENCH_PURGE_DELETES (20000), STRATA_BENCH_LOCK_ROWS (1000,10000,100000),
# STRATA_BENCH_HANG_SECONDS (300: a line whose threads have not stopped this long after the end
# prints the engine status every 30 s, then aborts), STRATA_BENCH_ONLY (e.g. mix,sqlite: a
# subset of mix,purge,locks,sqlite).
# The default run takes about 2 minutes on 2 cores and needs ~200 MiB under STRATA_BENCH_DIR.
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
bin=$build/tests/bench/trx_bench
out=${1:-${OUT:-$build/trx_bench.md}}
[ -f "$build/CMakeCache.txt" ] || die "$build is not configured: cmake -S $top -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release"
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
case "$build_type" in
  Release | RelWithDebInfo) ;;
  *)
    if [ "${STRATA_BENCH_ANY_BUILD:-0}" != 1 ]; then
      echo "trx_bench: $build is a '${build_type:-no type}' build; benchmark an optimised one:" >&2
      echo "  cmake -S $top -B $top/build-release -G Ninja -DCMAKE_BUILD_TYPE=Release && BUILD=$top/build-release $0" >&2
      echo "(or STRATA_BENCH_ANY_BUILD=1 to run it anyway)" >&2
      exit 1
    fi
    ;;
esac
cmake --build "$build" --target trx_bench >&2
echo "# trx_bench $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(nproc) cores, $build_type build ($build)" | tee "$out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
start=$(date +%s)
"$bin" 2>&1 | tee -a "$out"
echo | tee -a "$out"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the numbers); wall time $(($(date +%s) - start)) s" | tee -a "$out"
echo "(kept in $out)"
