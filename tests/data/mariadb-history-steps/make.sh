#!/usr/bin/env bash
# Build a MariaDB fixture with read views opened at four steps of a workload, and what each saw:
#
#   OUTDIR/ibdata1.gz, OUTDIR/steps/t.ibd.gz, OUTDIR/steps/t.frm
#       the system tablespace (the undo logs are in it: innodb_undo_tablespaces=0) and the table,
#       copied after a checkpoint with every view still open and one transaction not committed
#   OUTDIR/truth/view1.tsv.gz .. view4.tsv.gz
#       `SELECT * FROM steps.t ORDER BY id` in each view's own session, just before the copy
#   OUTDIR/truth/latest.tsv.gz   the same from a fresh session (committed rows only)
#   OUTDIR/truth/views.tsv    each view's limits from SHOW ENGINE INNODB STATUS ("will not see
#                             trx with id >= low_limit, sees < up_limit"), by its connection
#   OUTDIR/truth/innodb_status.txt, version.txt
#
# The steps: updates of many rows in one transaction (its undo over several pages), deletes,
# inserts, a primary key change, one row updated twice in a transaction, one row updated 40
# times, off-page MEDIUMTEXT values replaced, extended and set to NULL, a key deleted and
# inserted again; then a transaction left open (update, insert, delete) while the files are
# copied.
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb-history-steps, where this script is)
#
# Env: PORT (default 33079), KEEP_WORK=1. Needs: mariadb-server + mariadb-client, gzip.
set -euo pipefail

PORT=${PORT:-33079}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-mariadb-history-steps "$@"
export SERVER_EXTRA_CNF="innodb_undo_tablespaces=0
innodb_log_file_size=64M"

MAIN=$WORK/main
start_instance "$MAIN" "$PORT"
DATA=$MAIN/data
sql() { sqlin "$MAIN" steps "$@"; }
innodb_status() { val "$MAIN" "SHOW ENGINE INNODB STATUS" | cut -f3 | sed 's/\\n/\n/g'; }
gstatus() { val "$MAIN" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '$1'"; }

sqlin "$MAIN" -e "CREATE DATABASE steps; USE steps; CREATE TABLE steps.t (id INT PRIMARY KEY, v VARCHAR(120) NOT NULL,
  n INT NULL, doc MEDIUMTEXT NULL) ENGINE=InnoDB ROW_FORMAT=DYNAMIC;
  INSERT INTO steps.t SELECT seq, CONCAT('v', seq), seq,
    CASE WHEN seq % 150 = 0 THEN REPEAT(CONCAT('doc', seq, '-'), 3000) END FROM seq_1_to_1500"
for _ in $(seq 120); do
    [[ $(innodb_status | sed -n 's/^History list length \([0-9]*\).*/\1/p') == 0 ]] && break
    sleep 1
done

# Sessions s1..s5 hold a transaction open (lib.sh: session_open).
open_view() { # open_view K: a consistent snapshot, read once so that it is made now
    session_open "s$1" "$MAIN"
    session_send "s$1" "SELECT '@@@ conn' AS \`@@@ conn\`;" "SELECT CONNECTION_ID();" \
        "START TRANSACTION WITH CONSISTENT SNAPSHOT;" "SELECT COUNT(*) FROM steps.t;" \
        "SELECT '@@@ open' AS \`@@@ open\`;"
    session_wait "s$1" open
}

open_view 1
sql -e "UPDATE t SET v = CONCAT(v, '-s1'), n = n + 1000 WHERE id % 10 = 1;
  UPDATE t SET doc = REPEAT('new1-', 5000) WHERE id = 300;
  DELETE FROM t WHERE id % 50 = 7;
  INSERT INTO t VALUES (2001, 'ins1', NULL, NULL)"
open_view 2
sql -e "START TRANSACTION; UPDATE t SET n = NULL WHERE id % 10 = 2; UPDATE t SET id = id + 3000 WHERE id = 5;
  UPDATE t SET v = 'twice-a' WHERE id = 11; UPDATE t SET v = 'twice-b' WHERE id = 11; COMMIT;
  UPDATE t SET doc = CONCAT(doc, 'tail') WHERE id = 600"
for ((i = 0; i < 40; i++)); do echo "UPDATE t SET n = n + 1 WHERE id = 3;"; done | sql
open_view 3
sql -e "DELETE FROM t WHERE id = 2001; INSERT INTO t VALUES (7, 'reinsert', 7, NULL);
  UPDATE t SET doc = NULL WHERE id = 900"
open_view 4
sql -e "UPDATE t SET v = CONCAT(REPEAT('x', 60), id)"
# Not committed when the files are copied: no view may see it.
session_open s5 "$MAIN"
session_send s5 "START TRANSACTION;" "UPDATE steps.t SET v = 'uncommitted' WHERE id = 2;" \
    "INSERT INTO steps.t VALUES (5000, 'uncommitted', NULL, NULL);" "DELETE FROM steps.t WHERE id = 4;" \
    "SELECT '@@@ open' AS \`@@@ open\`;"
session_wait s5 open

mkdir -p "$OUT/truth" "$OUT/steps"
for k in 1 2 3 4; do
    session_send "s$k" "SELECT '@@@ rows' AS \`@@@ rows\`;" "SELECT * FROM steps.t ORDER BY id;" "SELECT '@@@ done' AS \`@@@ done\`;"
    session_wait "s$k" done
    awk '/^@@@ /{name = substr($0, 5); next} name == "rows"' "$WORK/s$k.out" >"$OUT/truth/view$k.tsv"
done
val "$MAIN" "SELECT VERSION()" >"$OUT/truth/version.txt"
sqlin "$MAIN" --batch -e "SELECT * FROM steps.t ORDER BY id" >"$OUT/truth/latest.tsv"

# Everything on disk, with the views and the open transaction still there.
val "$MAIN" "SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0; SET GLOBAL innodb_max_dirty_pages_pct = 0;
  SET GLOBAL innodb_log_checkpoint_now = ON" >/dev/null
zero=0
for ((i = 0; i < 300 && zero < 3; i++)); do
    if [[ $(gstatus INNODB_BUFFER_POOL_PAGES_DIRTY) == 0 ]]; then zero=$((zero + 1)); else zero=0; fi
    sleep 1
done
(( zero >= 3 )) || die "dirty pages did not reach 0"
innodb_status >"$OUT/truth/innodb_status.txt"
LSN=$(sed -n 's/^Log sequence number *\([0-9]*\).*/\1/p' "$OUT/truth/innodb_status.txt")
cp "$DATA/ibdata1" "$WORK/ibdata1"
cp "$DATA/steps/t.ibd" "$DATA/steps/t.frm" "$WORK/"
[[ $(innodb_status | sed -n 's/^Log sequence number *\([0-9]*\).*/\1/p') == "$LSN" ]] || die "the server wrote while the files were copied"
gzip -9 -n -c "$WORK/ibdata1" >"$OUT/ibdata1.gz"
gzip -9 -n -c "$WORK/t.ibd" >"$OUT/steps/t.ibd.gz"
cp "$WORK/t.frm" "$OUT/steps/t.frm"

# Each view's limits, found by the connection that holds it.
{
    printf 'view\tconnection\tlow_limit\tup_limit\n'
    for k in 1 2 3 4; do
        conn=$(awk '/^@@@ conn$/{f=1; next} f && /^[0-9]+$/{print; exit}' "$WORK/s$k.out")
        awk -v conn="$conn" -v k="$k" '
            /^---TRANSACTION/ { mine = 0 }
            /MariaDB thread id / { split($0, a, "MariaDB thread id "); split(a[2], b, ","); mine = (b[1] == conn) }
            mine && /Trx read view will not see trx with id >= / {
                match($0, />= [0-9]+/); low = substr($0, RSTART + 3, RLENGTH - 3)
                match($0, /sees < [0-9]+/); up = substr($0, RSTART + 7, RLENGTH - 7)
                printf "%s\t%s\t%s\t%s\n", k, conn, low, up; exit
            }' "$OUT/truth/innodb_status.txt"
    done
} >"$OUT/truth/views.tsv"
(( $(wc -l <"$OUT/truth/views.tsv") == 5 )) || { cat "$OUT/truth/views.tsv" >&2; die "not every view found in SHOW ENGINE INNODB STATUS"; }

gzip -9 -n -f "$OUT"/truth/view?.tsv "$OUT/truth/latest.tsv"
for k in 1 2 3 4 5; do
    session_send "s$k" "ROLLBACK;"
    session_close "s$k"
done
"$SERVER" stop "$MAIN" >&2
log "done: $OUT ($(cat "$OUT/truth/version.txt"))"
