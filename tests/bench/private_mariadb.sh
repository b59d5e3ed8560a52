# Sourced by the benchmark scripts that measure against a private MariaDB (hotrow_mariadb.sh,
# import_bench.sh): finding its tools, a free port, starting it through
# datasets/mariadb/server.sh with the bench's settings, and stopping it on the way out.
# The sourcing script defines `die` and `progress` and sets `top` (the repository) first.

mariadb_server=$top/datasets/mariadb/server.sh

# Its path, in PATH or in the sbin directories root's PATH may lack.
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

# The first port from $1 on that nothing listens on at 127.0.0.1.
mariadb_free_port() {
  local port=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  echo "$port"
}

# mariadb_start DIR PORT FLUSH CNF [COMMAND...]: a server in DIR with
# innodb_flush_log_at_trx_commit=FLUSH; CNF's my.cnf lines come after server.sh's small fixture
# defaults, so they win (a 4M redo log would checkpoint all the time). COMMAND, when given, is
# put before server.sh (e.g. `env LD_PRELOAD=...`: only mariadbd and mariadb-install-db see it).
mariadb_start() {
  local dir=$1 port=$2 flush=$3 cnf=$4
  shift 4
  SERVER_EXTRA_CNF=$cnf "$@" "$mariadb_server" start "$dir" "$port" --innodb-flush-log-at-trx-commit="$flush" >&2
}

mariadb_stop() { "$mariadb_server" stop "$1" >&2; }

# For an EXIT trap: stops the server in DIR if one is running there, however the script ended.
mariadb_stop_if_running() {
  local dir=$1
  if [ -f "$dir/mariadbd.pid" ] && "$mariadb_server" status "$dir" 2>/dev/null; then
    progress "stopping the private MariaDB"
    mariadb_stop "$dir" || kill "$(cat "$dir/mariadbd.pid")" 2>/dev/null || true
  fi
}
