#!/usr/bin/env bash
# Strata's engine against SQLite in the same run: point inserts (sequential and random keys),
# point lookups and full scans, with the cache larger than the data and smaller (see
# tests/bench/engine_bench.cc for what is measured and how the two are configured).
#
#   tests/bench/engine_bench.sh [BENCHMARK_ARGS...]     e.g. --benchmark_filter=insert
#
# Environment: STRATA_BENCH_ROWS (rows, default 200000), BUILD (build directory, default
# build/), OUT (the JSON results, default $BUILD/engine_bench.json).
# Prints Google Benchmark's console output, then a Markdown table of items/s per operation.
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
bin=$build/tests/bench/engine_bench
out=${OUT:-$build/engine_bench.json}
[ -x "$bin" ] || die "$bin is missing: scripts/install-deps.sh bench, then cmake --build build --target engine_bench"

"$bin" --benchmark_format=console --benchmark_out="$out" --benchmark_out_format=json "$@"

# One line per result, "engine<TAB>operation/setting<TAB>kind<TAB>items/s", from the JSON (one
# field per line as Google Benchmark writes it). With --benchmark_repetitions the median wins.
results=$(awk '
  function flush() {
    if (name == "") return
    sub(/\/manual_time$/, "", name)
    split(name, parts, "/")
    op = substr(name, length(parts[1]) + 2)
    kind = (run_type == "aggregate") ? aggregate : "iteration"
    if (kind == "iteration" || kind == "median")
      printf "%s\t%s\t%s\t%s\n", parts[1], op, kind, (error == "true" ? "error" : (ips == "" ? "-" : ips))
  }
  /^ *\{ *$/ { name = ""; run_type = ""; aggregate = ""; ips = ""; error = "" }
  # run_name: the benchmark without an aggregate suffix such as "_median".
  /^ *"run_name": /         { name = $0; sub(/^ *"run_name": "/, "", name); sub(/",?$/, "", name) }
  /^ *"run_type": /         { run_type = $0; gsub(/^ *"run_type": "|",?$/, "", run_type) }
  /^ *"aggregate_name": /   { aggregate = $0; gsub(/^ *"aggregate_name": "|",?$/, "", aggregate) }
  /^ *"items_per_second": / { ips = $0; gsub(/^ *"items_per_second": |,$/, "", ips) }
  /^ *"error_occurred": /   { error = $0; gsub(/^ *"error_occurred": |,$/, "", error) }
  /^ *\},? *$/ { flush(); name = "" }
' "$out")

rows=$(awk -F'"' '/"rows":/ { print $4; exit }' "$out")
echo
echo "Rows: ${rows:-?}; $(nproc) cores; results in $out."
echo
echo "| operation | Strata items/s | SQLite items/s | Strata/SQLite |"
echo "|---|---:|---:|---:|"
printf '%s\n' "$results" | awk -F'\t' '
  # A median replaces the single runs of the same benchmark.
  { key = $1 SUBSEP $2
    if ($3 == "median" || !(key in kind) || kind[key] != "median") { val[key] = $4; kind[key] = $3 }
    if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
  function fmt(v) {
    if (v == "" ) return "-"
    if (v !~ /^[0-9.eE+-]+$/) return v
    s = sprintf("%.0f", v); t = ""
    while (length(s) > 3) { t = "," substr(s, length(s) - 2) t; s = substr(s, 1, length(s) - 3) }
    return s t
  }
  END {
    for (i = 1; i <= n; ++i) {
      op = order[i]; s = val["strata" SUBSEP op]; q = val["sqlite" SUBSEP op]
      ratio = (s ~ /^[0-9.eE+-]+$/ && q ~ /^[0-9.eE+-]+$/ && q + 0 > 0) ? sprintf("%.2fx", s / q) : "-"
      printf "| %s | %s | %s | %s |\n", op, fmt(s), fmt(q), ratio
    }
  }'
