# Sourced first by the benchmark scripts: the names they share.
#   prog                the script's name without .sh, for messages
#   top, build, strata  the repository; $BUILD or top/build; $STRATA or the CLI in build
#   die MSG, progress MSG     on stderr, naming the script
#   print_help, usage   the script's header comment: on stdout; on stderr with exit 2
#   measure CMD...      the best of 3 wall-clock seconds of CMD with its output discarded (the
#                       script sets `dir`, a scratch directory, first)
#   measure_rss CMD...  the same, and the largest peak RSS in KiB: "SECONDS KIB"
#   best_of_3 NAME CMD...   measure_rss into best_secs[NAME] and best_kib[NAME]
#   check_rows_and_tools    after the options: `rows` a positive integer, the CLI built,
#                       /usr/bin/time installed
#   ab_table RESULTS OLD NEW   the A/B scripts' Markdown table from RESULTS (lines "NAME<TAB>old|new
#                       <TAB>VALUE"): each side's median, NEW/OLD, each side's range
prog=$(basename "$0" .sh)
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD:-$top/build}
strata=${STRATA:-$build/cli/strata}
die() {
  echo "$prog: $*" >&2
  exit 1
}
progress() { echo "[$prog] $*" >&2; }
print_help() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
usage() {
  print_help >&2
  exit 2
}

check_rows_and_tools() {
  [[ $rows =~ ^[1-9][0-9]*$ ]] || die "--rows must be a positive integer, not '$rows'"
  [ -x "$strata" ] || die "build first (make build)"
  command -v /usr/bin/time >/dev/null || die "/usr/bin/time is missing: scripts/install-deps.sh bench"
}

measure_rss() {
  local best="" rss=0 t m
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@" >/dev/null 2>"$dir/stderr" || die "failed: $* ($(tail -n 1 "$dir/stderr"))"
    read -r t m < <(tail -n 1 "$dir/time")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    [ "$m" -gt "$rss" ] && rss=$m
  done
  echo "$best $rss"
}
measure() {
  local r
  r=$(measure_rss "$@")
  echo "${r% *}"
}

declare -A best_secs best_kib
best_of_3() {
  local name=$1 r
  shift
  progress "timing: $name"
  r=$(measure_rss "$@")
  best_secs[$name]=${r% *}
  best_kib[$name]=${r#* }
}

ab_table() {
  python3 - "$@" <<'PY'
import collections, statistics, sys
runs = collections.OrderedDict()
for line in open(sys.argv[1]):
    name, side, value = line.rstrip("\n").split("\t")
    runs.setdefault(name, {"old": [], "new": []})[side].append(float(value))
print(f"old: {sys.argv[2]}\nnew: {sys.argv[3]}\n")
print("| run | old median | new median | new/old | old range | new range |")
print("|---|---:|---:|---:|---|---|")
for name, v in runs.items():
    o, n = statistics.median(v["old"]), statistics.median(v["new"])
    print(f"| {name} | {o:,.0f} | {n:,.0f} | {n / o:.2f} | {min(v['old']):,.0f}–{max(v['old']):,.0f} "
          f"| {min(v['new']):,.0f}–{max(v['new']):,.0f} |")
PY
}
