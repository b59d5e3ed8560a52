# Sourced first by the benchmark scripts: the names they share.
#   prog                the script's name without .sh, for messages
#   top, build, strata  the repository; $BUILD or top/build; $STRATA or the CLI in build
#   die MSG, progress MSG     on stderr, naming the script
#   print_help, usage   the script's header comment: on stdout; on stderr with exit 2
#   measure CMD...      the best of 3 wall-clock seconds of CMD with its output discarded (the
#                       script sets `dir`, a scratch directory, first)
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

measure() {
  local best="" t
  for _ in 1 2 3; do
    /usr/bin/time -f "%e" -o "$dir/time" "$@" >/dev/null 2>"$dir/stderr" || die "failed: $* ($(tail -n 1 "$dir/stderr"))"
    t=$(tail -n 1 "$dir/time")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}
