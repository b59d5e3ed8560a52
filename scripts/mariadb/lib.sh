# Sourced by every script that runs a private MariaDB through server.sh (beside this file): the
# fixture scripts that sit beside their data under tests/data/, the MariaDB sides of the
# experiments (experiments/mariadb/) and the benchmarks (tests/bench/). It defines:
#   SERVER, HERE, prog        server.sh; the sourcing script's directory and name
#   die, log                  messages naming the script (a script's own `die` is kept)
#   mariadb_find_tool NAME    its path, also from the sbin directories that root's PATH may lack
#   mariadb_require_server    dies naming the install command when a server tool is missing
#   mariadb_free_port FROM    the first port from FROM on that nothing listens on at 127.0.0.1
#   sqlin DIR [OPTION...]     the mariadb client on the instance in DIR, stdin passed through
#   val DIR SQL               one value from it
# and, for scripts that build something in a scratch directory:
#   fixture_init PREFIX [OUTDIR]   OUT: OUTDIR, by default the script's own directory (where its
#                                  data lives), made absolute; and work_init PREFIX
#   work_init PREFIX [PARENT]      WORK: a fresh PARENT/PREFIX.XXXXXX (PARENT: /tmp); a trap that
#                                  stops every instance started (`running`) and removes WORK:
#                                  always with KEEP_WORK=0, never with KEEP_WORK=1, and by default
#                                  only when the script succeeded
#   start_instance DIR PORT [MARIADBD_OPTION...]   server.sh start, and DIR added to `running`
#   session_open NAME DIR [OPTION...]   a client on instance DIR that reads statements from a FIFO,
#                                  so that its transaction stays open between them; its output
#                                  goes to WORK/NAME.out (batch mode, unbuffered)
#   session_send NAME STATEMENT...       session_wait NAME MARKER: until it printed "@@@ MARKER"
#   session_close NAME             end of input: the client ends (an open transaction rolls back)
#   fixture_sql_for TABLE FILE     FILE's statements on table `t`, written for TABLE instead
#   fixture_same_rows TSV WHAT     the first table's rows kept as OUT/rows.tsv.new; every later
#                                  table must print the same (dies naming WHAT otherwise)
#   fixture_keep_table IBD DEST LABEL   prints "LABEL: innochecksum exit N" (the peer's verdict),
#                                  keeps IBD and its .frm as DEST.ibd.gz and DEST.frm.gz
#   fixture_inputs FILE...         the committed inputs beside the script (the SQL it runs) copied
#                                  to OUT when OUT is elsewhere, so that OUT is whole
# Callers set -euo pipefail first.
SERVER=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/server.sh
HERE=$(cd "$(dirname "$0")" && pwd -P)
prog=${prog:-$(basename "$0")}
declare -F die >/dev/null || die() {
  echo "$prog: error: $*" >&2
  exit 1
}
log() { echo "$prog: $*" >&2; }
sqlin() {
  local d=$1
  shift
  "$SERVER" sql "$d" "$@"
}
val() { sqlin "$1" --batch --skip-column-names -e "$2"; }

mariadb_find_tool() {
  command -v "$1" 2>/dev/null && return 0
  local d
  for d in /usr/sbin /usr/bin /usr/local/sbin /usr/local/bin; do
    [ -x "$d/$1" ] && { echo "$d/$1"; return 0; }
  done
  return 1
}

mariadb_require_server() {
  local tool
  for tool in mariadbd mariadb mariadb-install-db; do
    mariadb_find_tool "$tool" >/dev/null || die "$tool is missing: scripts/install-deps.sh mariadb"
  done
}

mariadb_free_port() {
  local port=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  echo "$port"
}

running=() # instance directories that may still run
start_instance() {
  running+=("$1")
  "$SERVER" start "$@" >&2
}

work_cleanup() {
  local rc=$? d
  jobs -p | xargs -r kill 2>/dev/null || true
  for d in "${running[@]}"; do
    "$SERVER" stop "$d" >/dev/null 2>&1 || kill "$(cat "$d/mariadbd.pid" 2>/dev/null)" 2>/dev/null || true
  done
  if [[ ${KEEP_WORK:-} == 1 || (${KEEP_WORK:-} != 0 && rc -ne 0) ]]; then
    echo "$prog: work directory kept: $WORK" >&2
  else
    rm -rf "$WORK"
  fi
  exit $rc
}

fixture_init() {
  [[ $# -le 2 && ${2:-x} != -* ]] || {
    echo "usage: $prog [OUTDIR]   (OUTDIR defaults to $HERE)" >&2
    exit 2
  }
  mkdir -p "${2:-$HERE}"
  OUT=$(cd "${2:-$HERE}" && pwd -P)
  work_init "$1"
}

work_init() {
  mkdir -p "${2:-/tmp}"
  WORK=$(mktemp -d "$(cd "${2:-/tmp}" && pwd -P)/$1.XXXXXX")
  trap work_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

declare -A session_pid session_fd
session_open() {
  local name=$1 dir=$2
  shift 2
  mkfifo "$WORK/$name.fifo"
  # The client must not hold the other sessions' FIFOs open, or closing one would not end it.
  {
    local fd
    for fd in "${session_fd[@]}"; do exec {fd}>&-; done
    sqlin "$dir" --batch --unbuffered "$@"
  } <"$WORK/$name.fifo" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  session_pid[$name]=$!
  exec {session_fd[$name]}>"$WORK/$name.fifo"
}
session_send() {
  local name=$1
  shift
  printf '%s\n' "$@" >&"${session_fd[$name]}"
}
session_wait() {
  local i
  for ((i = 0; i < 2400; i++)); do
    grep -qx "@@@ $2" "$WORK/$1.out" && return 0
    kill -0 "${session_pid[$1]}" 2>/dev/null || {
      cat "$WORK/$1.err" >&2
      die "session $1 exited"
    }
    sleep 0.05
  done
  die "session $1 did not reach '$2' in 120 s"
}
session_close() {
  exec {session_fd[$1]}>&-
  wait "${session_pid[$1]}"
}

fixture_sql_for() {
  sed "s/TABLE t /TABLE $1 /; s/INTO t /INTO $1 /; s/FROM t /FROM $1 /; s/UPDATE t /UPDATE $1 /" "$2"
}

fixture_same_rows() {
  if [[ -f $OUT/rows.tsv.new ]]; then
    cmp -s "$OUT/rows.tsv.new" "$1" || die "$2 prints other rows than the first table"
  else
    cp "$1" "$OUT/rows.tsv.new"
  fi
}

fixture_keep_table() {
  local ibd=$1 dest=$2 label=$3 rc=0
  innochecksum "$ibd" >/dev/null 2>&1 || rc=$?
  echo "$label: innochecksum exit $rc"
  gzip -9 -n -c "$ibd" >"$dest.ibd.gz"
  gzip -9 -n -c "${ibd%.ibd}.frm" >"$dest.frm.gz"
}

fixture_inputs() {
  local f
  [[ $OUT -ef $HERE ]] && return 0
  for f in "$@"; do cp "$HERE/$f" "$OUT/$f"; done
}

# For the benchmarks. mariadb_start DIR PORT FLUSH CNF [COMMAND...]: an instance in DIR with
# innodb_flush_log_at_trx_commit=FLUSH; CNF's my.cnf lines come after server.sh's small
# defaults, so they win (a 4M redo log would checkpoint all the time). COMMAND, when given, is
# put before server.sh (e.g. `env LD_PRELOAD=...`: only mariadbd and mariadb-install-db see it).
mariadb_start() {
  local dir=$1 port=$2 flush=$3 cnf=$4
  shift 4
  running+=("$dir")
  SERVER_EXTRA_CNF=$cnf "$@" "$SERVER" start "$dir" "$port" --innodb-flush-log-at-trx-commit="$flush" >&2
}

mariadb_stop() { "$SERVER" stop "$1" >&2; }

