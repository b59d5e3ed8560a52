#!/usr/bin/env bash
# The hot-row table in one run on one machine: `strata bench hotrow` in its four modes and
# MariaDB (tests/bench/hotrow_mariadb.sh) on the same 50-thread workload, at the disk's own fsync
# latency and with 1 ms and 10 ms added to every redo log sync; early lock release at 10 ms by
# max_elr_dependent_trx_count; then `strata bench async-commit` at each latency.
#
#   tests/bench/hotrow_bench.sh [--out FILE] [--quick]
#
# Updates per thread shrink where a run would otherwise take minutes (the default mode at
# 10 ms manages ~100 updates/s): the count used is in each row. --quick: 200 updates per thread
# at most, and MariaDB only at the disk's latency. Needs a built strata (build/cli/strata) and,
# for the MariaDB rows, scripts/install-deps.sh mariadb.
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
out=/dev/stdout
quick=0
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "hotrow_bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
scratch=$(mktemp -d "${STRATA_BENCH_DIR:-/var/tmp}/strata-hotrow.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

updates_for() {  # mode latency_us -> updates per thread
  local u=2000
  case $1 in default) [ "$2" -ge 10000 ] && u=20 || { [ "$2" -ge 1000 ] && u=200; } ;; esac
  [ "$quick" = 1 ] && [ "$u" -gt 200 ] && u=200
  echo "$u"
}

{
  echo "# hotrow_bench $(date -u +%FT%TZ) on $(hostname), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| fsync added | mode | threads x updates | seconds | TPS | updates per log fsync | p50 ms | p99 ms | log sync ms | of the sessions' ceiling | k check |"
  echo "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
} >> "$out"
declare -A tps
for lat in 0 1000 10000; do
  for mode in default elr group-commit elr+group-commit; do
    u=$(updates_for "$mode" "$lat")
    rm -rf "$scratch/d"
    j=$("$strata" bench hotrow --datadir "$scratch/d" --threads 50 --updates "$u" --mode "$mode" --fsync-latency-us "$lat" --json)
    tps[$lat/$mode]=$(jq -r .tps <<<"$j")
    jq -r --arg lat "$lat" '"| \($lat) us | \(.mode) | \(.threads) x \(.updates_per_thread) | \(.seconds*100|round/100) | \(.tps|round) | \(.total_updates/.log_fsyncs*10|round/10) | \(.p50_ms*100|round/100) | \(.p99_ms*100|round/100) | \(.log_sync_ms*100|round/100) | \(.tps/.ceiling_tps*100|round)% | \(if .k_ok then "ok" else "MISMATCH" end) |"' <<<"$j" >> "$out"
  done
  if [ "$quick" = 0 ] || [ "$lat" = 0 ]; then
    if m=$(bash "$top/tests/bench/hotrow_mariadb.sh" --threads 50 --updates "$( [ "$quick" = 1 ] && echo 200 || echo 2000 )" \
             --fsync-latency-us "$lat" --scratch "$scratch" 2>/dev/null); then
      tps[$lat/mariadb]=$(tail -n1 <<<"$m" | sed 's/tps=//')
      echo "| $lat us | MariaDB flush_log_at_trx_commit=1 | $(head -n1 <<<"$m") | | ${tps[$lat/mariadb]} | | | | | | |" >> "$out"
    else
      echo "| $lat us | MariaDB | (not run: hotrow_mariadb.sh failed) | | | | | | | | |" >> "$out"
    fi
  fi
done
{
  echo
  echo "Ratios (TPS / TPS):"
  for lat in 0 1000 10000; do
    d=${tps[$lat/default]}; e=${tps[$lat/elr]}; eg=${tps[$lat/elr+group-commit]}; m=${tps[$lat/mariadb]:-}
    line="- +$lat us: elr/default $(awk -v a="$e" -v b="$d" 'BEGIN{printf "%.1f", a/b}')x, elr+group-commit/default $(awk -v a="$eg" -v b="$d" 'BEGIN{printf "%.1f", a/b}')x"
    [ -n "$m" ] && line="$line, elr+group-commit/MariaDB $(awk -v a="$eg" -v b="$m" 'BEGIN{printf "%.1f", a/b}')x"
    echo "$line"
  done
  echo
  echo "Early lock release at +10000 us by max_elr_dependent_trx_count (commits waiting for durability with their locks released; 0 is the default mode's commit path):"
  echo
  echo "| max_elr_dependent_trx_count | TPS | updates per log fsync | p50 ms |"
  echo "|---:|---:|---:|---:|"
  for n in 0 1 4 16 64 1000; do
    rm -rf "$scratch/d"
    "$strata" bench hotrow --datadir "$scratch/d" --threads 50 --updates 40 --mode elr --fsync-latency-us 10000 \
      --max-elr-dependent-trx-count "$n" --json |
      jq -r '"| \(.max_elr_dependent_trx_count) | \(.tps|round) | \(.total_updates/.log_fsyncs*10|round/10) | \(.p50_ms*100|round/100) |"'
  done
  echo
  echo '```'
  for lat in 0 1000 10000; do
    rm -rf "$scratch/a"
    "$strata" bench async-commit --datadir "$scratch/a" --loops 1000 --fsync-latency-us "$lat"
  done
  echo '```'
} >> "$out"
