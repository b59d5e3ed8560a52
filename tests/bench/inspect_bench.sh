#!/usr/bin/env bash
# Inspector throughput against peers on the same file, in the same run, from the page cache.
#
#   tests/bench/inspect_bench.sh [SIZE_MIB] [--full-crc32]
#
# Generates a SIZE_MIB tablespace (default 2048) of real leaf pages, warms the page cache, then
# times (best of 3) `cat FILE > /dev/null`, MariaDB's `innochecksum FILE`, and `strata inspect`
# summary, pages, lsn and check, with peak memory. Prints a Markdown table.
set -euo pipefail
size=${1:-2048}
format=${2:-}
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
gen=$build/tests/bench/bench_make_tablespace
for tool in innochecksum /usr/bin/time; do
  command -v "$tool" >/dev/null || die "$tool is missing: scripts/install-deps.sh bench"
done
[ -x "$strata" ] && [ -x "$gen" ] || die "build first (make build)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
file=$dir/bench.ibd
echo "generating a ${size} MiB tablespace${format:+ ($format)}..." >&2
"$gen" "$file" "$size" "$top/tests/data/mariadb-history/hist/t_autoinc.ibd" 5 $format
bytes=$(stat -c %s "$file")
cat "$file" > /dev/null; cat "$file" > /dev/null  # into the page cache

best_of_3 "cat FILE > /dev/null" cat "$file"
best_of_3 "innochecksum FILE" innochecksum "$file"
best_of_3 "strata inspect summary" "$strata" inspect summary "$file"
best_of_3 "strata inspect pages" "$strata" inspect pages "$file"
best_of_3 "strata inspect lsn" "$strata" inspect lsn "$file"
best_of_3 "strata inspect check" "$strata" inspect check "$file"

echo
echo "File: $((bytes / 1048576)) MiB, $((bytes / 16384)) pages${format:+, $format}; $(nproc) cores; best of 3, page cache warm."
echo
echo "| command | seconds | GB/s | vs innochecksum | peak RSS MiB |"
echo "|---|---:|---:|---:|---:|"
ic=${best_secs["innochecksum FILE"]}
for name in "cat FILE > /dev/null" "innochecksum FILE" "strata inspect summary" "strata inspect pages" \
            "strata inspect lsn" "strata inspect check"; do
  s=${best_secs[$name]}
  awk -v n="$name" -v s="$s" -v b="$bytes" -v ic="$ic" -v m="${best_kib[$name]}" 'BEGIN {
    gbs = (s > 0) ? b / s / 1e9 : 0; ratio = (s > 0) ? ic / s : 0;
    printf "| `%s` | %.2f | %.2f | %.2fx | %.0f |\n", n, s, gbs, ratio, m / 1024 }'
done
