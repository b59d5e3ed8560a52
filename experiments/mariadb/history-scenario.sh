#!/usr/bin/env bash
# Real-MariaDB reference run of the "undo history list grows behind an open
# read view" scenario: how the history list length moves while a REPEATABLE
# READ view is held open over N single-row updates, and how fast purge
# drains it once the view is closed.
#
#   history-scenario.sh [--updates N] [--out FILE.tsv]
#
#   --updates N   number of autocommit UPDATEs run while the view is open
#                 (default 10000)
#   --out FILE    write the TSV there instead of stdout
#
# Output (TSV, header line first):
#   phase  updates  history_list_length  seconds
#   view_open    one line before the first update and one every N/20 updates;
#                seconds = time since the first update started
#   view_closed  updates = N; one line right after the view's COMMIT, then one
#                every 0.5 s until the length is 0 or 120 s have passed;
#                seconds = time since the COMMIT was sent
# Progress and server messages go to stderr.
#
# Env: PORT (default: first free port from 33062), KEEP_WORK=1 keeps the
#      instance directory, SERVER_EXTRA_CNF (appended after this script's lines).
# Needs mariadb-server + mariadb-client (Debian 12: 10.11). Uses server.sh for
# the private instance (own datadir/socket under a mktemp dir, 127.0.0.1).
set -euo pipefail

source "$(dirname "$0")/../../scripts/mariadb/lib.sh"
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

N=10000 OUTFILE=
while [[ $# -gt 0 ]]; do
    case $1 in
        --updates) [[ $# -ge 2 ]] || die "--updates needs a value"; N=$2; shift 2;;
        --updates=*) N=${1#*=}; shift;;
        --out) [[ $# -ge 2 ]] || die "--out needs a value"; OUTFILE=$2; shift 2;;
        --out=*) OUTFILE=${1#*=}; shift;;
        -h|--help) usage; exit 0;;
        *) die "unknown argument '$1' (see --help)";;
    esac
done
[[ $N =~ ^[1-9][0-9]*$ ]] || die "--updates must be a positive integer, got '$N'"
mariadb_require_server

if [[ -n $OUTFILE ]]; then
    exec 3>"$OUTFILE" || die "cannot write $OUTFILE"
else
    exec 3>&1
fi
exec 1>&2
emit() { local IFS=$'\t'; echo "$*" >&3; }

if [[ -n ${PORT:-} ]]; then
    [[ $PORT =~ ^[0-9]+$ ]] || die "PORT must be a number, got '$PORT'"
else
    PORT=$(mariadb_free_port 33062)
fi
work_init strata-histscen

# stats_auto_recalc=OFF: otherwise the stats thread rewrites
# mysql.innodb_*_stats after the updates, adding its own history entries.
# flush_log_at_trx_commit=0 only removes the per-commit fsync (speed); it does
# not change undo logging or purge.
export SERVER_EXTRA_CNF="innodb_stats_auto_recalc=OFF
innodb_flush_log_at_trx_commit=0
${SERVER_EXTRA_CNF:-}"

sql() { sqlin "$WORK" "$@"; }
# History list length from INNODB_METRICS 'trx_rseg_history_len': on 10.11 the
# counter exists, is enabled by default and equals "History list length" of
# SHOW ENGINE INNODB STATUS (and GLOBAL_STATUS Innodb_history_list_length), but
# is one cheap query instead of parsing the status text.
hll() { val "$WORK" "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME='trx_rseg_history_len'"; }
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $(( t / 1000 )); }
secs() { local d=$(( $(now_ms) - $1 )); printf '%d.%03d' $(( d / 1000 )) $(( d % 1000 )); }

t_start=$(now_ms)
start_instance "$WORK" "$PORT"
log "server $(val "$WORK" 'SELECT VERSION()'), work directory $WORK"

sql <<'SQL'
CREATE DATABASE bank;
CREATE TABLE bank.acct (id BIGINT NOT NULL PRIMARY KEY, k BIGINT, note VARCHAR(40),
                        KEY k_1 (k)) ENGINE=InnoDB;
INSERT INTO bank.acct (id, k) VALUES (1, 0);
SQL

[[ $(val "$WORK" "SELECT ENABLED FROM information_schema.INNODB_METRICS WHERE NAME='trx_rseg_history_len'") == 1 ]] ||
    val "$WORK" "SET GLOBAL innodb_monitor_enable='trx_rseg_history_len'" >/dev/null
# The DDL and the INSERT leave history entries; start from an empty list so the
# growth seen below is only the updates'.
for ((i = 0; i < 240; i++)); do
    h=$(hll)
    [[ $h == 0 ]] && break
    sleep 0.5
done
[[ $h == 0 ]] || die "history list did not drain before the test (still $h after 120 s)"

# ---- the read view: a client that reads statements from a FIFO stays
# connected (and its transaction open) until we send COMMIT.
session_open view "$WORK" --skip-column-names
session_send view "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ;" \
       "START TRANSACTION WITH CONSISTENT SNAPSHOT;" \
       "SELECT CONCAT('k=', k) FROM bank.acct WHERE id=1;" \
       "SELECT '@@@ open';"
session_wait view open
grep -qx 'k=0' "$WORK/view.out" || die "view session did not see k=0: $(cat "$WORK/view.out")"
log "read view open (session ${session_pid[view]}); running $N autocommit UPDATEs"

# ---- the updates: one client invocation per batch (cheap), but every
# statement is its own autocommit transaction, i.e. one history entry each.
step=$(( N / 20 )); (( step > 0 )) || step=1
upd() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print "UPDATE bank.acct SET k=k+1 WHERE id=1;" }'; }
emit phase updates history_list_length seconds
t_upd=$(now_ms)
emit view_open 0 "$(hll)" 0.000
done_n=0
while (( done_n < N )); do
    b=$(( N - done_n < step ? N - done_n : step ))
    upd "$b" >"$WORK/batch.sql"
    sql --batch <"$WORK/batch.sql"
    done_n=$(( done_n + b ))
    emit view_open "$done_n" "$(hll)" "$(secs "$t_upd")"
done
log "updates done in $(secs "$t_upd") s"
[[ $(val "$WORK" "SELECT k FROM bank.acct WHERE id=1") == "$N" ]] || die "k is not $N after the updates"

# ---- close the view (after checking it still sees the old version) and
# watch purge drain the list.
session_send view "SELECT CONCAT('k=', k, ' still') FROM bank.acct WHERE id=1;"
t_close=$(now_ms)
session_send view "COMMIT;" "SELECT '@@@ closed';"
session_wait view closed
grep -qx 'k=0 still' "$WORK/view.out" || die "the read view did not keep seeing k=0"
while :; do
    h=$(hll) s=$(secs "$t_close")
    emit view_closed "$N" "$h" "$s"
    [[ $h == 0 ]] && break
    (( $(now_ms) - t_close < 120000 )) || { log "history still $h after 120 s"; break; }
    sleep 0.5
done
session_close view || true

"$SERVER" stop "$WORK"
log "total run time $(secs "$t_start") s"
