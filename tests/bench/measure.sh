# Sourced by benchmark scripts: measure CMD..., the best of 3 wall-clock seconds of a command
# with its output discarded. The sourcing script defines `die` and `dir` (a scratch directory).
measure() {
  local best="" t
  for _ in 1 2 3; do
    /usr/bin/time -f "%e" -o "$dir/time" "$@" > /dev/null 2>"$dir/stderr" || die "failed: $* ($(tail -n 1 "$dir/stderr"))"
    t=$(tail -n 1 "$dir/time")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}
