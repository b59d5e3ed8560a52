# Sourced by the fixture scripts that run a private MariaDB (server.sh) and keep what it wrote:
#   fixture_init OUTDIR WORK_PREFIX   checks the one argument, sets OUT (absolute), WORK (a fresh
#                                     directory) and a trap that stops every server in `running`
#                                     and removes WORK (kept on failure or with KEEP_WORK=1)
#   die, log                          messages naming the script
#   sqlin DIR [OPTION...], val DIR SQL   the mariadb client on instance DIR; one value
# Callers set -euo pipefail and PORT first.
prog=$(basename "$0")
HERE=$(cd "$(dirname "$0")" && pwd -P)
SERVER=$HERE/server.sh
die() { echo "$prog: error: $*" >&2; exit 1; }
log() { echo "$prog: $*" >&2; }
sqlin() { local d=$1; shift; "$SERVER" sql "$d" "$@"; }
val() { sqlin "$1" --batch --skip-column-names -e "$2"; }

running=()   # instance directories that may still run
fixture_cleanup() {
    local rc=$? d
    for d in "${running[@]}"; do "$SERVER" stop "$d" >/dev/null 2>&1 || true; done
    jobs -p | xargs -r kill 2>/dev/null || true
    if (( rc != 0 )) || [[ ${KEEP_WORK:-0} == 1 ]]; then echo "$prog: work directory kept: $WORK" >&2; else rm -rf "$WORK"; fi
    exit $rc
}
fixture_init() {
    [[ $# -eq 2 ]] || { echo "usage: $prog OUTDIR" >&2; exit 2; }
    mkdir -p "$1"
    OUT=$(cd "$1" && pwd -P)
    WORK=$(mktemp -d "/tmp/$2.XXXXXX")
    trap fixture_cleanup EXIT
}
