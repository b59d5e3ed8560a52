#!/usr/bin/env bash
# Build a MariaDB fixture whose pages are older than its redo log, with what the server reports:
#
#   OUTDIR/ibdata1.gz, OUTDIR/ib_logfile0.gz, OUTDIR/st/{t,r}.ibd.gz, OUTDIR/st/{t,r}.frm
#       the system tablespace (undo logs inside it), a table and the log of a server killed with SIGKILL
#       while a read view held back purge and many transactions had committed since the last
#       checkpoint: the rollback segments on disk are stale, the log holds their changes
#   OUTDIR/truth/history.tsv
#       "History list length" the server printed just before the kill, and again after crash
#       recovery of a copy of exactly these files (innodb_force_recovery=2: no purge)
#   OUTDIR/truth/rows.tsv, rows_r.tsv
#       `mariadb -B -e 'SELECT * FROM st.t ORDER BY id'` (and st.r ORDER BY k) on that recovered copy
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb-stale, where this script is)
#
# Env: PORT (default 33073), KEEP_WORK=1.
# Needs: mariadb-server + mariadb-client (Debian 12: 10.11), gzip.
set -euo pipefail

PORT=${PORT:-33073}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-mariadb-stale "$@"

# Undo logs in ibdata1 (no undo tablespaces) keep the fixture to two files; a log large enough
# that no checkpoint is forced during the updates, and a page cleaner that leaves pages dirty.
export SERVER_EXTRA_CNF="innodb_undo_tablespaces=0
innodb_log_file_size=32M
innodb_max_dirty_pages_pct=90
innodb_max_dirty_pages_pct_lwm=0
innodb_adaptive_flushing=OFF"

history_length() { val "$1" "SHOW ENGINE INNODB STATUS" | cut -f3 | sed 's/\\n/\n/g' | sed -n 's/^History list length \([0-9]*\).*/\1/p'; }

MAIN=$WORK/main
start_instance "$MAIN" "$PORT"
VERSION=$(val "$MAIN" "SELECT VERSION()")
sqlin "$MAIN" -e "CREATE DATABASE st; USE st; CREATE TABLE t (id INT PRIMARY KEY, n INT NOT NULL, s VARCHAR(64) NOT NULL) ENGINE=InnoDB;
  INSERT INTO t SELECT seq, 0, REPEAT('s', 40) FROM seq_1_to_2000;
  CREATE TABLE r (k CHAR(32) PRIMARY KEY, v VARCHAR(200) NOT NULL) ENGINE=InnoDB;
  INSERT INTO r SELECT MD5(seq), REPEAT('r', seq % 150) FROM seq_1_to_500"
# Everything flushed and checkpointed before the updates, so that they live in the log only.
sqlin "$MAIN" -e "SET GLOBAL innodb_max_dirty_pages_pct = 0"
for _ in $(seq 60); do
    [[ $(val "$MAIN" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_BUFFER_POOL_PAGES_DIRTY'") == 0 ]] && break
    sleep 1
done
sleep 3
sqlin "$MAIN" -e "SET GLOBAL innodb_max_dirty_pages_pct = 90"
[[ $(history_length "$MAIN") == 0 ]] || sleep 5
CHECKPOINT_BEFORE=$(val "$MAIN" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_CHECKPOINT_AGE'")

# A read view held open keeps purge from shortening the history.
sqlin "$MAIN" -e "START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT COUNT(*) FROM st.t; SELECT SLEEP(3600)" >/dev/null 2>&1 &
sleep 1
# Updates that change a row's length (the record is deleted and inserted again on its page),
# inserts that split pages, deletes: each its own transaction.
for ((i = 1; i <= 1500; i++)); do
    case $((i % 5)) in
        0) echo "INSERT INTO st.t VALUES ($((2000 + i)), $i, REPEAT('i', $((10 + i % 50))));" ;;
        1) echo "DELETE FROM st.t WHERE id = $(((i * 13) % 2000 + 1));" ;;
        *) echo "UPDATE st.t SET n = n + 1, s = CONCAT(LEFT(s, $((i % 40))), '$i') WHERE id = $(((i * 7) % 2000 + 1));" ;;
    esac
    # Random keys: inserts all over st.r's pages (page splits), and deletes.
    echo "INSERT INTO st.r VALUES (MD5($((1000 + i))), REPEAT('x', $((i % 180))));"
    if (( i % 4 == 0 )); then echo "DELETE FROM st.r WHERE k = MD5($((1000 + i / 2)));"; fi
done | sqlin "$MAIN" --force
BEFORE_KILL=$(history_length "$MAIN")
CHECKPOINT_AGE=$(val "$MAIN" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_CHECKPOINT_AGE'")
PID=$(cat "$MAIN/mariadbd.pid")
kill -9 "$PID"
while kill -0 "$PID" 2>/dev/null; do sleep 0.2; done
running=()
log "killed $VERSION with History list length $BEFORE_KILL (checkpoint age $CHECKPOINT_AGE bytes)"

# The server's own recovery of a copy of these files, without purge.
RECOVER=$WORK/recover
mkdir -p "$RECOVER"
cp -a "$MAIN/data" "$RECOVER/data"
start_instance "$RECOVER" "$PORT" --innodb-force-recovery=2
AFTER_RECOVERY=$(history_length "$RECOVER")
sqlin "$RECOVER" -B -e "SELECT * FROM st.t ORDER BY id" >"$WORK/rows.tsv"
sqlin "$RECOVER" -B -e "SELECT * FROM st.r ORDER BY k" >"$WORK/rows_r.tsv"
RECOVERY_LINE=$(grep -m1 'Starting crash recovery' "$RECOVER/mariadbd.err" | sed 's/^.*InnoDB/InnoDB/' || true)
"$SERVER" stop "$RECOVER" >&2 || true
running=()

rm -rf "$OUT/truth"
mkdir -p "$OUT/truth"
gzip -9 -n -c "$MAIN/data/ibdata1" >"$OUT/ibdata1.gz"
gzip -9 -n -c "$MAIN/data/ib_logfile0" >"$OUT/ib_logfile0.gz"
mkdir -p "$OUT/st"
for t in t r; do
    gzip -9 -n -c "$MAIN/data/st/$t.ibd" >"$OUT/st/$t.ibd.gz"
    cp "$MAIN/data/st/$t.frm" "$OUT/st/$t.frm"
    chmod 0644 "$OUT/st/$t.frm"
done
cp "$WORK/rows.tsv" "$OUT/truth/rows.tsv"
cp "$WORK/rows_r.tsv" "$OUT/truth/rows_r.tsv"
{
    printf 'key\tvalue\n'
    printf 'server_version\t%s\n' "$VERSION"
    printf 'history_list_length_before_kill\t%s\n' "$BEFORE_KILL"
    printf 'history_list_length_after_recovery\t%s\n' "$AFTER_RECOVERY"
    printf 'checkpoint_age_before_kill\t%s\n' "$CHECKPOINT_AGE"
    printf 'recovery_errlog_line\t%s\n' "$RECOVERY_LINE"
} >"$OUT/truth/history.tsv"
cat >"$OUT/README.md" <<MD
# MariaDB pages older than their redo log

Made by \`tests/data/mariadb-stale/make.sh\` with $VERSION (Debian 12):
undo logs in ibdata1, a 32 MiB log, then 1,500 single-row statements on st.t (UPDATEs that
change a row's length, INSERTs, DELETEs; and on st.r, keyed by MD5 values, inserts all over
its pages and deletes) each its own transaction (a DELETE of a missing row changes nothing), committed while another connection held a read view (so
purge kept every one), then SIGKILL. ibdata1, st/t.ibd, st/r.ibd (and their .frm) and ib_logfile0
are kept: the rollback segments, undo pages and the tables' pages on disk are from before the
transactions, the log holds their changes. \`truth/rows.tsv\` and \`rows_r.tsv\` are what
\`mariadb -B\` printed for the tables on the server's own crash recovery of a copy.

\`truth/history.tsv\`: "History list length" from SHOW ENGINE INNODB STATUS just before the kill,
and from a copy of these files after the server's crash recovery (innodb_force_recovery=2, so
purge did not run): $BEFORE_KILL and $AFTER_RECOVERY.
MD
log "done: $(tr '\n' ' ' <"$OUT/truth/history.tsv")"
