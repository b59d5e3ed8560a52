#!/usr/bin/env bash
# Build a small but complete InnoDB snapshot (system tablespace, two undo
# tablespaces, every file-per-table tablespace) of a real MariaDB server taken
# while undo history is held by an open read view, plus the server's own
# ground truth (History list length, information_schema).
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb-history, where this script is)
#
# Reads create.sql beside it (the database and its tables); writes history.sql, the
# transactions it ran.
#
# Env: PORT (default 33062), KEEP_WORK=1 keeps the temporary instance directory.
# Needs: mariadb-server + mariadb-client (Debian 12: 10.11), python3, gzip.
# See scripts/mariadb/server.sh (instance management) and history-length.py (on-disk check).
set -euo pipefail

PORT=${PORT:-33062}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-mariadb-hist "$@"
HISTLEN=$HERE/history-length.py
DB=hist
TABLES=(t_autoinc t_uuid t_ulid t_bin16 t_sec)
MYSQL_IBD=(gtid_slave_pos innodb_index_stats innodb_table_stats transaction_registry)

# Settings that must be in my.cnf when the datadir is created (undo
# tablespaces can only be created by mariadb-install-db in 10.11) or that keep
# background transactions from changing the history while it is captured.
export SERVER_EXTRA_CNF='innodb_undo_tablespaces=2
innodb_undo_log_truncate=OFF
innodb_stats_auto_recalc=OFF'

sql()  { sqlin "$WORK" "$@"; }
# q FILE QUERY : tab-separated result with a header line (NULL written as NULL)
q()    { sql --batch -e "$2" "$DB" >"$1"; }
gstatus() { val "$WORK" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '$1'"; }
innodb_status() { val "$WORK" "SHOW ENGINE INNODB STATUS" | cut -f3 | sed 's/\\n/\n/g'; }
hll() { innodb_status | sed -n 's/^History list length \([0-9]*\).*/\1/p' | head -n1; }

# Clear old outputs we produce (only our own file names).
rm -rf "$OUT/truth" "$OUT/hist" "$OUT/mysql"
rm -f "$OUT"/ibdata1.gz "$OUT"/undo00?.gz "$OUT/README.md" "$OUT/history.sql"
fixture_inputs create.sql
mkdir -p "$OUT/truth" "$OUT/hist" "$OUT/mysql"

start_instance "$WORK" "$PORT"
DATA=$WORK/data
for f in ibdata1 undo001 undo002; do
    [[ -f $DATA/$f ]] || die "$DATA/$f was not created (innodb_undo_tablespaces=2 at install time?)"
done
[[ $(val "$WORK" "SELECT @@innodb_undo_tablespaces") == 2 ]] || die "innodb_undo_tablespaces is not 2"

# ---------------------------------------------------------------- create ----
sql <"$HERE/create.sql" >/dev/null

# ------------------------------------------------------- history workload ---
# Every statement outside START TRANSACTION..COMMIT is its own (autocommit)
# transaction; each committed read-write transaction adds exactly one undo log
# to the history list.
{
    echo "-- Executed by make.sh (connection B) while connection A holds"
    echo "-- a read view. One history-list entry per transaction: 300+200+10+10+5+5 = 530."
    echo "USE hist;"
    echo "-- 300 single-row UPDATEs of t_autoinc (ids 7, 17, ..., 2997)"
    for ((k = 1; k <= 300; k++)); do
        echo "UPDATE t_autoinc SET payload = CONCAT('upd$k-', payload) WHERE id = $((10 * k - 3));"
    done
    echo "-- 200 single-row UPDATEs of t_sec (ids 8, 23, ..., 2993): changes uk_email,"
    echo "-- k_grp_created or the non-indexed note column in turn"
    for ((k = 1; k <= 200; k++)); do
        id=$((15 * k - 7))
        case $((k % 3)) in
            0) echo "UPDATE t_sec SET grp = grp + 100 WHERE id = $id;";;
            1) echo "UPDATE t_sec SET email = CONCAT('x', email) WHERE id = $id;";;
            2) echo "UPDATE t_sec SET note = CONCAT('changed ', $k) WHERE id = $id;";;
        esac
    done
    echo "-- 10 single-row DELETEs of t_autoinc (ids 5, 15, ..., 95) and 10 of t_sec (ids 101, 201, ..., 1001)"
    for ((k = 1; k <= 10; k++)); do echo "DELETE FROM t_autoinc WHERE id = $((10 * k - 5));"; done
    for ((k = 1; k <= 10; k++)); do echo "DELETE FROM t_sec WHERE id = $((100 * k + 1));"; done
    echo "-- 5 single-row INSERTs into t_autoinc (ids 3001..3005)"
    for ((k = 1; k <= 5; k++)); do echo "INSERT INTO t_autoinc (payload) VALUES ('inserted-$k');"; done
    echo "-- 5 multi-statement transactions (seq 100j..100j+9, j = 1..5): 10 UPDATEs of t_ulid.n,"
    echo "-- 5 of t_uuid.note, one DELETE from t_bin16 and one t_bin16 primary-key change"
    for ((j = 1; j <= 5; j++)); do
        a=$((100 * j))
        echo "START TRANSACTION;"
        echo "UPDATE t_ulid SET n = n + 100000 WHERE seq BETWEEN $a AND $((a + 9));"
        echo "UPDATE t_uuid SET note = CONCAT('txn $j ', note) WHERE seq BETWEEN $a AND $((a + 4));"
        echo "DELETE FROM t_bin16 WHERE seq = $a;"
        echo "UPDATE t_bin16 SET id = UNHEX(MD5(CONCAT('moved-', seq))), label = CONCAT('moved ', label) WHERE seq = $((a + 1));"
        echo "COMMIT;"
    done
} >"$OUT/history.sql"
EXPECTED_TRX=530

# Rows touched by history.sql, per table (used for before/after truth).
declare -A TOUCHED=(
    [t_autoinc]="id % 10 = 7 OR (id % 10 = 5 AND id < 100) OR id > 3000"
    [t_sec]="id % 15 = 8 OR (id % 100 = 1 AND id BETWEEN 101 AND 1001)"
    [t_ulid]="seq % 100 < 10 AND seq BETWEEN 100 AND 509"
    [t_uuid]="seq % 100 < 10 AND seq BETWEEN 100 AND 509"
    [t_bin16]="seq % 100 < 10 AND seq BETWEEN 100 AND 509"
)
# SELECT list per table (BINARY shown as hex).
declare -A COLS=(
    [t_autoinc]="*" [t_sec]="*" [t_ulid]="*" [t_uuid]="*"
    [t_bin16]="HEX(id) AS id_hex, seq, label"
)
declare -A ORDER_BY=([t_autoinc]=id [t_sec]=id [t_ulid]=seq [t_uuid]=seq [t_bin16]=seq)

# ------------------------------------------- wait for purge of the loads ----
for ((i = 0; i < 120; i++)); do
    h=$(hll)
    [[ $h == 0 ]] && break
    sleep 1
done
[[ $h == 0 ]] || die "history list did not drain before the test (still $h)"
log "history list length before connection A: $h"

# ------------------------------------------------------- connection A -------
# A background client reads statements from a FIFO, so the transaction stays
# open until we write COMMIT (or close the FIFO).
session_open a "$WORK"
session_send a "SELECT '@@@ conn' AS \`@@@ conn\`;" "SELECT CONNECTION_ID();" \
       "START TRANSACTION WITH CONSISTENT SNAPSHOT;" \
       "SELECT COUNT(*) FROM hist.t_autoinc;" \
       "SELECT '@@@ ready' AS \`@@@ ready\`;"
session_wait a ready
A_CONN=$(awk '/^@@@ conn$/{f=1; next} f && /^[0-9]+$/{print; exit}' "$WORK/a.out")
log "connection A (id $A_CONN) holds a read view"

# ------------------------------------------------------- connection B -------
sql <"$OUT/history.sql"
h=$(hll)
log "history list length after history.sql: $h (expected $EXPECTED_TRX transactions)"
(( h >= EXPECTED_TRX )) || die "history list length $h < $EXPECTED_TRX: purge was not blocked?"

# ------------------------------------- row truth: A's view and latest view --
for t in "${TABLES[@]}"; do
    session_send a "SELECT '@@@ $t.snapshot' AS \`@@@ $t.snapshot\`;" \
           "SELECT ${COLS[$t]} FROM hist.$t WHERE ${TOUCHED[$t]} ORDER BY ${ORDER_BY[$t]};"
    q "$OUT/truth/$t.touched.latest.tsv" \
      "SELECT ${COLS[$t]} FROM $t WHERE ${TOUCHED[$t]} ORDER BY ${ORDER_BY[$t]}"
done
session_send a "SELECT '@@@ counts' AS \`@@@ counts\`;"
counts_sql=
for t in "${TABLES[@]}"; do
    for ix in $(val "$WORK" "SELECT INDEX_NAME FROM information_schema.STATISTICS
                     WHERE TABLE_SCHEMA='$DB' AND TABLE_NAME='$t'
                     GROUP BY INDEX_NAME ORDER BY INDEX_NAME='PRIMARY' DESC, INDEX_NAME"); do
        counts_sql+="${counts_sql:+ UNION ALL }SELECT '$t' AS \`table\`, '$ix' AS \`index\`, COUNT(*) AS \`count\` FROM hist.$t FORCE INDEX (\`$ix\`)"
    done
done
session_send a "$counts_sql;" "SELECT '@@@ truth-done' AS \`@@@ truth-done\`;"
q "$OUT/truth/index_counts.latest.tsv" "$counts_sql"
session_wait a truth-done
# Split A's output at its "@@@ name" marker lines (header + value, both "@@@ name").
awk -v dir="$OUT/truth" '
    /^@@@ / { name = substr($0, 5); next }
    name ~ /\.snapshot$/ { print > (dir "/" substr(name, 1, length(name) - 9) ".touched.snapshot.tsv") }
    name == "counts"     { print > (dir "/index_counts.snapshot.tsv") }
' "$WORK/a.out"
for t in "${TABLES[@]}"; do
    [[ -s $OUT/truth/$t.touched.snapshot.tsv ]] || die "no snapshot rows for $t from connection A"
done

# -------------------------------------------------- flush + capture + copy --
flush_wait() { # all dirty pages written, 3 consecutive seconds with 0 dirty
    val "$WORK" "SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0; SET GLOBAL innodb_max_dirty_pages_pct = 0;
         SET GLOBAL innodb_log_checkpoint_now = ON" >/dev/null
    local i zero=0 d
    for ((i = 0; i < 300; i++)); do
        d=$(gstatus INNODB_BUFFER_POOL_PAGES_DIRTY)
        if [[ $d == 0 ]]; then
            (( ++zero >= 3 )) && return 0
        else
            zero=0
        fi
        sleep 1
    done
    die "dirty pages did not reach 0 (last: $d)"
}

capture_truth() {
    local T=$OUT/truth TID="SELECT TABLE_ID FROM information_schema.INNODB_SYS_TABLES WHERE NAME LIKE '$DB/%'"
    val "$WORK" "SELECT VERSION()" >"$T/version.txt"
    q "$T/variables.tsv" "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_VARIABLES
       WHERE VARIABLE_NAME IN ('VERSION','INNODB_PAGE_SIZE','INNODB_CHECKSUM_ALGORITHM','INNODB_DEFAULT_ROW_FORMAT',
         'INNODB_FILE_PER_TABLE','INNODB_BUFFER_POOL_SIZE','INNODB_LOG_FILE_SIZE','INNODB_DATA_FILE_PATH',
         'INNODB_UNDO_TABLESPACES','INNODB_UNDO_LOG_TRUNCATE','INNODB_MAX_UNDO_LOG_SIZE','INNODB_PURGE_THREADS',
         'INNODB_MAX_DIRTY_PAGES_PCT','INNODB_MAX_DIRTY_PAGES_PCT_LWM','INNODB_STATS_AUTO_RECALC',
         'INNODB_DOUBLEWRITE','CHARACTER_SET_SERVER','COLLATION_SERVER','INNODB_STATS_PERSISTENT',
         'INNODB_CHANGE_BUFFERING','INNODB_ENCRYPT_TABLES','INNODB_FAST_SHUTDOWN','INNODB_AUTOINC_LOCK_MODE')
       ORDER BY VARIABLE_NAME"
    q "$T/sys_tablespaces.tsv" "SELECT SPACE, NAME, FLAG, HEX(FLAG) AS FLAG_HEX, ROW_FORMAT, PAGE_SIZE, FILENAME,
         FS_BLOCK_SIZE, FILE_SIZE, ALLOCATED_SIZE FROM information_schema.INNODB_SYS_TABLESPACES ORDER BY SPACE"
    q "$T/sys_tables.tsv" "SELECT * FROM information_schema.INNODB_SYS_TABLES ORDER BY TABLE_ID"
    q "$T/sys_indexes.tsv" "SELECT INDEX_ID, NAME, TABLE_ID, TYPE, N_FIELDS, PAGE_NO, SPACE, MERGE_THRESHOLD
       FROM information_schema.INNODB_SYS_INDEXES ORDER BY INDEX_ID"
    q "$T/sys_columns.tsv" "SELECT * FROM information_schema.INNODB_SYS_COLUMNS WHERE TABLE_ID IN ($TID) ORDER BY TABLE_ID, POS"
    q "$T/sys_fields.tsv" "SELECT * FROM information_schema.INNODB_SYS_FIELDS
       WHERE INDEX_ID IN (SELECT INDEX_ID FROM information_schema.INNODB_SYS_INDEXES WHERE TABLE_ID IN ($TID)) ORDER BY INDEX_ID, POS"
    local t
    : >"$T/schema.sql"
    for t in "${TABLES[@]}"; do
        q "$T/$t.pages.tsv" "SELECT SPACE, PAGE_NUMBER, PAGE_TYPE, NUMBER_RECORDS, DATA_SIZE, INDEX_NAME, TABLE_NAME,
             NEWEST_MODIFICATION, OLDEST_MODIFICATION, PAGE_STATE, IO_FIX, IS_OLD
           FROM information_schema.INNODB_BUFFER_PAGE
           WHERE SPACE = (SELECT SPACE FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME = '$DB/$t')
           ORDER BY PAGE_NUMBER"
        val "$WORK" "SHOW CREATE TABLE $DB.$t" | cut -f2- | sed 's/\\n/\n/g; s/$/;/' >>"$T/schema.sql"
    done
    q "$T/system_undo.pages.tsv" "SELECT SPACE, PAGE_NUMBER, PAGE_TYPE, NUMBER_RECORDS, DATA_SIZE, INDEX_NAME,
         NEWEST_MODIFICATION, OLDEST_MODIFICATION, PAGE_STATE, IO_FIX
       FROM information_schema.INNODB_BUFFER_PAGE WHERE SPACE IN (0, 1, 2) ORDER BY SPACE, PAGE_NUMBER"
    q "$T/innodb_metrics.tsv" "SELECT NAME, SUBSYSTEM, COUNT, ENABLED, TYPE, COMMENT FROM information_schema.INNODB_METRICS
       WHERE NAME LIKE 'trx%' OR NAME LIKE 'purge%' ORDER BY NAME"
    q "$T/innodb_trx.tsv" "SELECT trx_id, trx_state, trx_mysql_thread_id, trx_isolation_level, trx_is_read_only,
         trx_rows_modified, trx_tables_locked FROM information_schema.INNODB_TRX ORDER BY trx_mysql_thread_id"
    q "$T/global_status.tsv" "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS
       WHERE VARIABLE_NAME LIKE 'INNODB_LSN%' OR VARIABLE_NAME LIKE 'INNODB_CHECKPOINT%'
          OR VARIABLE_NAME IN ('INNODB_BUFFER_POOL_PAGES_DIRTY','INNODB_HISTORY_LIST_LENGTH',
             'INNODB_MAX_TRX_ID','INNODB_PURGE_TRX_ID','INNODB_PURGE_UNDO_NO')
       ORDER BY VARIABLE_NAME"
    innodb_status >"$T/innodb_status.txt"
}

# state: "HLL LSN DIRTY" from one SHOW ENGINE INNODB STATUS + status variables
state() {
    local s
    s=$(innodb_status)
    printf '%s %s %s\n' \
        "$(sed -n 's/^History list length \([0-9]*\).*/\1/p' <<<"$s" | head -n1)" \
        "$(sed -n 's/^Log sequence number *\([0-9]*\).*/\1/p' <<<"$s" | head -n1)" \
        "$(gstatus INNODB_BUFFER_POOL_PAGES_DIRTY)"
}

SNAP=$WORK/snap
copy_files() {
    rm -rf "$SNAP"; mkdir -p "$SNAP/hist" "$SNAP/mysql"
    cp "$DATA/ibdata1" "$DATA/undo001" "$DATA/undo002" "$SNAP/"
    cp "$DATA/hist/"*.ibd "$DATA/hist/"*.frm "$DATA/hist/db.opt" "$SNAP/hist/"
    local m
    for m in "${MYSQL_IBD[@]}"; do cp "$DATA/mysql/$m.ibd" "$SNAP/mysql/"; done
}

ok=0
for attempt in 1 2; do
    log "attempt $attempt: flushing (connection A stays open)"
    flush_wait
    capture_truth
    read -r HLL LSN DIRTY < <(state)
    copy_files
    read -r HLL2 LSN2 DIRTY2 < <(state)
    METRIC=$(val "$WORK" "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'")
    log "server: History list length $HLL (after copy $HLL2), trx_rseg_history_len $METRIC," \
        "LSN $LSN (after copy $LSN2), dirty pages $DIRTY/$DIRTY2"
    if [[ $HLL != "$HLL2" || $LSN != "$LSN2" || $DIRTY != 0 || $DIRTY2 != 0 ]]; then
        log "attempt $attempt: server state changed while copying"
        continue
    fi
    if DISK=$("$HISTLEN" --quiet "$SNAP/ibdata1" "$SNAP/undo001" "$SNAP/undo002"); then :; else
        log "attempt $attempt: history-length.py failed on the copy"; continue
    fi
    log "on disk: sum of rollback-segment history lengths = $DISK"
    if [[ $DISK == "$HLL" ]]; then ok=1; break; fi
    log "attempt $attempt: on-disk history length $DISK != server's $HLL"
done
(( ok )) || die "could not capture a snapshot whose on-disk history length matches the server" \
                "(server $HLL, disk ${DISK:-?})"

# ------------------------------------------------- end A, stop the server ---
session_send a "COMMIT;" "SELECT '@@@ committed' AS \`@@@ committed\`;"
session_wait a committed
session_close a || die "connection A client failed: $(cat "$WORK/a.err")"
"$SERVER" stop "$WORK"

# ------------------------------------------------------ write the output ----
for f in ibdata1 undo001 undo002; do gzip -9 -n -c "$SNAP/$f" >"$OUT/$f.gz"; done
for m in "${MYSQL_IBD[@]}"; do gzip -9 -n -c "$SNAP/mysql/$m.ibd" >"$OUT/mysql/$m.ibd.gz"; done
cp "$SNAP/hist/"* "$OUT/hist/"
chmod 0644 "$OUT"/*.gz "$OUT"/hist/* "$OUT"/mysql/*

# Final check on the files as stored (gzip round trip).
"$HISTLEN" --expect "$HLL" "$OUT/ibdata1.gz" "$OUT/undo001.gz" "$OUT/undo002.gz" >"$OUT/truth/rseg_history.tsv" \
    || die "history-length.py disagrees with the server on the stored files"
sed -i "s|$OUT/||g" "$OUT/truth/rseg_history.tsv"
{
    printf 'source\thistory_list_length\n'
    printf 'SHOW ENGINE INNODB STATUS\t%s\n' "$HLL"
    printf 'INNODB_METRICS trx_rseg_history_len\t%s\n' "$METRIC"
    printf 'on-disk sum (history-length.py)\t%s\n' "$DISK"
    printf 'transactions in history.sql\t%s\n' "$EXPECTED_TRX"
} >"$OUT/truth/history_list_length.tsv"

(
    cd "$SNAP"
    printf 'file\tbytes\tpages\tspace_id\tfsp_flags_hex\tsha256_uncompressed\n'
    for f in ibdata1 undo001 undo002 hist/*.ibd mysql/*.ibd; do
        stored=$f; [[ -f $OUT/$f ]] || stored=$f.gz
        size=$(stat -c %s "$f")
        sid=$(od -A n -t u4 --endian=big -j 34 -N 4 "$f" | tr -d ' ')
        flags=$(od -A n -t x1 -j 54 -N 4 "$f" | tr -d ' \n')
        printf '%s\t%s\t%s\t%s\t0x%s\t%s\n' "$stored" "$size" $((size / 16384)) "$sid" "$flags" \
            "$(sha256sum "$f" | cut -d' ' -f1)"
    done
) >"$OUT/truth/files.tsv"

ic_status="innochecksum not found"
if INNOCHECKSUM=$(command -v innochecksum); then
    ic_status="all files OK"
    : >"$OUT/truth/innochecksum.txt"
    for f in ibdata1 undo001 undo002 $(cd "$SNAP" && echo hist/*.ibd mysql/*.ibd); do
        echo "### innochecksum -S $f" >>"$OUT/truth/innochecksum.txt"
        if ! (cd "$SNAP" && "$INNOCHECKSUM" -S "$f") >>"$OUT/truth/innochecksum.txt" 2>&1; then
            ic_status="FAILED for $f"
            log "warning: innochecksum rejected $f"
        fi
    done
fi

# ---------------------------------------------------------------- README ----
VERSION=$(cat "$OUT/truth/version.txt")
PURGE_LINE=$(grep -m1 "^Purge done for trx's" "$OUT/truth/innodb_status.txt" || true)
TRXCTR_LINE=$(grep -m1 "^Trx id counter" "$OUT/truth/innodb_status.txt" || true)
# space id -> name from INNODB_SYS_TABLESPACES (a space not opened yet, e.g.
# mysql/transaction_registry, may be missing there; then the file name is used).
SPACES=$(awk -F'\t' 'FNR == 1 { next }
    NR == FNR { name[$1] = $2; next }
    { printf "| %s | %s | %s | %s | %s |\n", $4, ($4 in name) ? name[$4] : "(not loaded)", $1, $3, $5 }' \
    "$OUT/truth/sys_tablespaces.tsv" "$OUT/truth/files.tsv")
IBDATA_MIB=$(awk -F'\t' '$1 == "ibdata1.gz" { printf "%.0f", $2 / 1048576 }' "$OUT/truth/files.tsv")
RSEG_SUMMARY=$(awk -F'\t' 'NR > 1 && $1 != "total" {
        n[$4]++; h[$4] += $5; if ($5 > 0) nz[$4]++ }
    END { for (f in n) printf "- %s: %d rollback segments, %d with history, history length sum %d\n", f, n[f], nz[f] + 0, h[f] }' \
    "$OUT/truth/rseg_history.tsv" | sort)
SLOTS_HEAD=$(awk -F'\t' 'NR > 1 && NR <= 5 { printf "(%s: %s,%s) ", $1, $2, $3 }' "$OUT/truth/rseg_history.tsv")
N_RSEG=$(awk -F'\t' 'NR > 1 && $1 != "total"' "$OUT/truth/rseg_history.tsv" | wc -l)
# Which space ids do odd / even slots (> 0) use?
slot_spaces() { awk -F'\t' -v r="$1" 'NR > 1 && $1 != "total" && $1 > 0 && $1 % 2 == r { print $2 }' \
                "$OUT/truth/rseg_history.tsv" | sort -u | paste -sd, -; }
ODD_SPACES=$(slot_spaces 1); EVEN_SPACES=$(slot_spaces 0)
SLOT0=$(awk -F'\t' '$1 == "0" { printf "(%s,%s), history length %s", $2, $3, $5 }' "$OUT/truth/rseg_history.tsv")
read -r MIN_H MAX_H SLOTS_USED < <(awk -F'\t' 'NR > 1 && $1 != "total" && $5 > 0 {
        if (mn == "" || $5 < mn) mn = $5; if ($5 > mx) mx = $5; u += $7 }
    END { print mn + 0, mx + 0, u + 0 }' "$OUT/truth/rseg_history.tsv")
MAX_HSIZE=$(awk -F'\t' 'NR > 1 && $1 != "total" && $6 > m { m = $6 } END { print m + 0 }' "$OUT/truth/rseg_history.tsv")

cat >"$OUT/README.md" <<MD
# MariaDB snapshot with held undo history

Generated by \`tests/data/mariadb-history/make.sh\` (instance managed by
\`scripts/mariadb/server.sh\`, on-disk check by \`tests/data/mariadb-history/history-length.py\`).
Regenerate with:

    tests/data/mariadb-history/make.sh

Regenerating changes UUIDs, LSNs, transaction ids and timestamps, so the files and
\`truth/\` must always be taken from the same run.

**History list length: $HLL** (SHOW ENGINE INNODB STATUS), INNODB_METRICS
\`trx_rseg_history_len\` = $METRIC, sum of the on-disk rollback segment history
lists = $DISK; \`history.sql\` committed $EXPECTED_TRX transactions.

## Server

- Version: \`$VERSION\` (Debian 12 package \`mariadb-server\`), x86_64.
- Fresh private instance, my.cnf as written by \`server.sh\` plus
  \`SERVER_EXTRA_CNF\` = innodb_undo_tablespaces=2, innodb_undo_log_truncate=OFF,
  innodb_stats_auto_recalc=OFF (all three present when \`mariadb-install-db\` created
  the datadir: 10.11 creates undo tablespaces only at that point). Other relevant
  settings: innodb_page_size=16384, innodb_checksum_algorithm=full_crc32,
  innodb_file_per_table=ON, innodb_default_row_format=dynamic,
  innodb_data_file_path=ibdata1:3M:autoextend (ibdata1 is nevertheless $IBDATA_MIB MiB after
  install), innodb_log_file_size=4M, utf8mb4 / utf8mb4_general_ci, no encryption.
  \`truth/variables.tsv\` has the values the server reported.

## How it was made

1. \`server.sh start\`; \`create.sql\` creates database \`hist\` and five tables of
   3000 rows each (+ \`ANALYZE TABLE\`); waited until History list length = 0.
2. Connection A (a background \`mariadb\` client reading a FIFO):
   \`START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT COUNT(*) FROM hist.t_autoinc;\`
   and left open.
3. Connection B ran \`history.sql\`: $EXPECTED_TRX separate committed transactions
   (300 + 200 single-row UPDATEs of t_autoinc / t_sec, 10 + 10 DELETEs, 5 INSERTs,
   5 multi-statement transactions on t_ulid / t_uuid / t_bin16 including a
   primary-key change). A's read view keeps purge from removing any of them.
4. Row truth from both views: A selected the rows touched by \`history.sql\`
   (\`truth/<t>.touched.snapshot.tsv\`, the versions the undo logs must reproduce) and
   counted every index (\`index_counts.snapshot.tsv\`); B did the same for the latest
   versions (\`*.touched.latest.tsv\`, \`index_counts.latest.tsv\`).
5. Still with A open: \`SET GLOBAL innodb_max_dirty_pages_pct_lwm=0,
   innodb_max_dirty_pages_pct=0, innodb_log_checkpoint_now=ON\` (this variable exists
   in the non-debug 10.11 build), polled until Innodb_buffer_pool_pages_dirty was 0
   for 3 consecutive seconds, dumped information_schema + SHOW ENGINE INNODB STATUS,
   copied the files, and checked that History list length, Log sequence number
   ($LSN) and dirty pages (0) were the same after the copy, i.e. nothing was written
   while copying. history-length.py on the copy had to give the same total.
6. A committed; \`server.sh stop\` (slow shutdown, after the copy).

Server status at capture: \`$TRXCTR_LINE\`, \`$PURGE_LINE\`.

## Files

Every InnoDB tablespace of the instance except the temporary one (ibtmp1). Not
included: the redo log (ib_logfile0) and non-InnoDB files (Aria system tables), so
this is an offline-reader fixture, not a datadir a server can start from.

| space id | name | stored as | pages | FSP flags |
|---|---|---|---|---|
$SPACES

Stored as: \`ibdata1.gz\`, \`undo001.gz\`, \`undo002.gz\`, \`mysql/*.ibd.gz\` (gzip -9 -n;
mostly zeros), \`hist/*.ibd\` uncompressed, plus \`hist/*.frm\` and \`hist/db.opt\`
(MariaDB has no SDI: the .frm files hold the SQL-layer table definitions).
\`truth/files.tsv\` gives size, page count, space id (page 0, byte 34), FSP flags
(byte 54) and SHA-256 of each uncompressed file.

| table | key | notes |
|---|---|---|
| t_autoinc | BIGINT UNSIGNED AUTO_INCREMENT | VARCHAR(200) payload, ids 1..3000 then 3001..3005 inserted by B |
| t_uuid | CHAR(36) utf8mb4 (variable-length in DYNAMIC) | UUID() v1 text, rows inserted in pseudo-random order |
| t_ulid | CHAR(26) ascii_bin (fixed-length) | ULID-like: 10 Crockford chars of an increasing ms timestamp + 16 chars from MD5 |
| t_bin16 | BINARY(16) | UNHEX(REPLACE(UUID(),'-','')), inserted in generation order (time_low first, so nearly ascending) |
| t_sec | INT UNSIGNED | UNIQUE uk_email(email), KEY k_grp_created(grp, created) |

## Rollback segments

TRX_SYS (ibdata1 page 5, offset 56) has $N_RSEG of 128 slots in use. First slots
(slot: space,page): $SLOTS_HEAD...
Slot 0 is $SLOT0 (the system-tablespace rollback segment, page 6 of ibdata1).
Slots 1..127 alternate between the undo tablespaces: odd slots use space
$ODD_SPACES, even slots space $EVEN_SPACES; in each undo tablespace the rollback
segment header pages are 3, 4, 5, ... . With undo tablespaces configured MariaDB does
not assign slot 0 to user transactions, so all of the history is in undo001/undo002.
Per file:

$RSEG_SUMMARY

\`truth/rseg_history.tsv\` lists every slot: space, rseg header page, history list
length (FLST length at page offset 46 = TRX_RSEG 38 + TRX_RSEG_HISTORY 8) and
TRX_RSEG_HISTORY_SIZE (pages, offset 42; largest value here: $MAX_HSIZE). The
history size is 0 because MariaDB keeps small undo log segments cached in their
rollback segment's undo slot (TRX_UNDO_CACHED) and appends the next transaction's
undo log header to the same page; TRX_RSEG_HISTORY_SIZE only counts the pages of
segments that left their slot. Here the rollback segments with history hold
$MIN_H..$MAX_H history entries each, and together have $SLOTS_USED TRX_RSEG_UNDO_SLOTS
entries in use (column undo_slots_used): the history entries are undo log headers
on cached undo pages that are still referenced from those slots. Reproduce with

    tests/data/mariadb-history/history-length.py tests/data/mariadb-history/ibdata1.gz \\
        tests/data/mariadb-history/undo001.gz tests/data/mariadb-history/undo002.gz

## truth/

All tab-separated with a header line as printed by \`mariadb --batch\` (NULL = \`NULL\`).

| file | source |
|---|---|
| history_list_length.tsv | server (status, metric), on-disk sum, number of transactions |
| rseg_history.tsv | history-length.py output on the stored files (per TRX_SYS slot: space, rseg header page, file, history list length, TRX_RSEG_HISTORY_SIZE, used undo slots) |
| innodb_status.txt | SHOW ENGINE INNODB STATUS right before the copy |
| innodb_metrics.tsv | INNODB_METRICS trx_* and purge_* |
| innodb_trx.tsv | INNODB_TRX (connection A, id $A_CONN, is the open transaction) |
| global_status.tsv | Innodb_lsn_*, checkpoint, dirty pages, Innodb_history_list_length, max/purge trx id |
| version.txt, variables.tsv | SELECT VERSION(); GLOBAL_VARIABLES |
| sys_tablespaces.tsv, sys_tables.tsv, sys_indexes.tsv | INNODB_SYS_TABLESPACES / _TABLES / _INDEXES (all, incl. mysql.*) |
| sys_columns.tsv, sys_fields.tsv, schema.sql | INNODB_SYS_COLUMNS / _FIELDS and SHOW CREATE TABLE for hist.* |
| <table>.pages.tsv | INNODB_BUFFER_PAGE rows of that table's space (resident pages only) |
| system_undo.pages.tsv | INNODB_BUFFER_PAGE rows of spaces 0, 1, 2 (resident pages only) |
| <table>.touched.snapshot.tsv / .touched.latest.tsv | rows touched by history.sql as seen by A / by B (t_bin16 id as hex) |
| index_counts.snapshot.tsv / .latest.tsv | COUNT(*) per index through A's view / latest |
| files.tsv | per stored file: bytes, pages, space id, FSP flags, SHA-256 of the uncompressed file |
| innochecksum.txt | innochecksum -S of every file: $ic_status |

Touched-row predicates: t_autoinc \`${TOUCHED[t_autoinc]}\`; t_sec \`${TOUCHED[t_sec]}\`;
t_ulid, t_uuid, t_bin16 \`${TOUCHED[t_ulid]}\`.
MD

echo "$prog: done; history list length: server $HLL, on disk $DISK"
( cd "$OUT" && ls -l ./*.gz hist mysql && du -sh . )
echo "innochecksum: $ic_status"
