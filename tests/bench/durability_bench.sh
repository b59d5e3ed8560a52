#!/usr/bin/env bash
# What durability costs in Strata's engine on this machine: raw fsync latency, commits/s with
# flush_log_at_trx_commit=1 from 1/8/50 threads with group commit on and off, a bulk load with
# redo on and off, and crash recovery of ~1 GiB of redo (see tests/bench/durability_bench.cc).
# Prints progress on stderr and Markdown tables on stdout; both are kept in $OUT.
#
#   tests/bench/durability_bench.sh
#
# Environment: BUILD (build directory, default build/), OUT (default $BUILD/durability_bench.md),
# STRATA_BENCH_DIR (where the databases go, default /tmp), STRATA_BENCH_FSYNCS (1000),
# STRATA_BENCH_COMMIT_SECONDS (3; or STRATA_BENCH_COMMITS_PER_THREAD), STRATA_BENCH_COMMIT_THREADS
# (1,8,50), STRATA_BENCH_BULK_ROWS
# (1000000), STRATA_BENCH_BULK_SYNC_ROWS (auto: ~5 s of fsyncs), STRATA_BENCH_BULK_POOL_MIB
# (1024), STRATA_BENCH_BULK_LOG_MIB (96), STRATA_BENCH_BULK_BIG_LOG_MIB (2048; 0 skips),
# STRATA_BENCH_RECOVERY (1; 0 skips), STRATA_BENCH_RECOVERY_MIB (1024),
# STRATA_BENCH_RECOVERY_POOL_MIB (2048), STRATA_BENCH_RECOVERY_ROWS (1000000),
# STRATA_BENCH_RECOVERY_COLD (1; 0 skips the cold-cache copy), STRATA_BENCH_RECOVERY_KEEP (0; 1
# keeps a copy of the crashed directory), STRATA_BENCH_ONLY (e.g. fsync,commits: a subset).
# The default run takes about 5-6 minutes and needs ~6 GiB free under STRATA_BENCH_DIR.
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
bin=$build/tests/bench/durability_bench
out=${OUT:-$build/durability_bench.md}
[ -x "$bin" ] || die "$bin is missing: cmake --build build --target durability_bench"
echo "# durability_bench $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(nproc) cores" | tee "$out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
"$bin" "$@" 2>&1 | tee -a "$out"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the numbers)" | tee -a "$out"
echo "(kept in $out)"
