#!/usr/bin/env bash
# Build small InnoDB tablespace fixtures with a real MariaDB server, plus the
# ground truth the server reports about them.
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb, where this script is)
#
# Env: PORT (default 33061), KEEP_WORK=1 keeps the temporary instance directory.
# Needs: mariadb-server + mariadb-client (Debian 12: 10.11). See scripts/mariadb/server.sh.
set -euo pipefail

PORT=${PORT:-33061}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-mariadb "$@"
DB=strata_fx
TABLES=(t_int t_uuid t_redundant t_compact t_blob t_crc32 t_crc32_compact)

sql()  { sqlin "$WORK" "$@"; }
# q FILE QUERY : tab-separated result with a header line (NULL written as NULL)
q()    { sql --batch -e "$2" "$DB" >"$1"; }

# Clear old outputs we produce (only our own file names).
rm -rf "$OUT/truth"
rm -f "$OUT"/*.ibd "$OUT/README.md"
fixture_inputs create.sql
mkdir -p "$OUT/truth"

start_instance "$WORK" "$PORT"

# ---------------------------------------------------------------- create ----
# group_concat_max_len must be raised for the 40 KB values.
{ echo "SET SESSION group_concat_max_len = 1048576;"; cat "$HERE/create.sql"; } | sql

# Note: ALTER ... ROW_FORMAT on an empty table rebuilds it; the flags come
# from the checksum algorithm at rebuild time, which is still crc32 above.

# ------------------------------------------------------- wait for purge -----
hll() { val "$WORK" "SHOW ENGINE INNODB STATUS" | sed -n 's/.*History list length \([0-9]*\).*/\1/p' | head -n1; }
for ((i = 0; i < 120; i++)); do
    h=$(hll)
    [[ $h == 0 ]] && break
    sleep 1
done
echo "$prog: history list length before dump: ${h:-?}"

# --------------------------------- pull every page into the buffer pool -----
# Scan each index with FORCE INDEX, and read the off-page columns.
: >"$OUT/truth/index_counts.tsv"
printf 'table\tindex\tcount\n' >>"$OUT/truth/index_counts.tsv"
for t in "${TABLES[@]}"; do
    for ix in $(val "$WORK" "SELECT INDEX_NAME FROM information_schema.STATISTICS
                     WHERE TABLE_SCHEMA='$DB' AND TABLE_NAME='$t'
                     GROUP BY INDEX_NAME ORDER BY INDEX_NAME='PRIMARY' DESC, INDEX_NAME"); do
        c=$(val "$WORK" "SELECT COUNT(*) FROM $DB.$t FORCE INDEX (\`$ix\`)")
        printf '%s\t%s\t%s\n' "$t" "$ix" "$c" >>"$OUT/truth/index_counts.tsv"
    done
done
val "$WORK" "SELECT SUM(LENGTH(body)) + SUM(LENGTH(txt)) FROM $DB.t_blob" >/dev/null

# ---------------------------------------------------------- ground truth ----
TID="SELECT TABLE_ID FROM information_schema.INNODB_SYS_TABLES WHERE NAME LIKE '$DB/%'"

val "$WORK" "SELECT VERSION()" >"$OUT/truth/version.txt"
q "$OUT/truth/variables.tsv" "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_VARIABLES
   WHERE VARIABLE_NAME IN ('VERSION','INNODB_PAGE_SIZE','INNODB_CHECKSUM_ALGORITHM','INNODB_DEFAULT_ROW_FORMAT',
     'INNODB_COMPRESSION_ALGORITHM','INNODB_FILE_PER_TABLE','INNODB_BUFFER_POOL_SIZE','INNODB_LOG_FILE_SIZE',
     'INNODB_DATA_FILE_PATH','INNODB_UNDO_TABLESPACES','INNODB_FAST_SHUTDOWN','CHARACTER_SET_SERVER',
     'COLLATION_SERVER','INNODB_STATS_PERSISTENT','INNODB_CHANGE_BUFFERING','INNODB_ENCRYPT_TABLES')
   ORDER BY VARIABLE_NAME"
q "$OUT/truth/sys_tablespaces.tsv" "SELECT SPACE, NAME, FLAG, ROW_FORMAT, PAGE_SIZE, FILENAME, FS_BLOCK_SIZE, FILE_SIZE, ALLOCATED_SIZE
   FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME LIKE '$DB/%' ORDER BY SPACE"
q "$OUT/truth/sys_tables.tsv" "SELECT * FROM information_schema.INNODB_SYS_TABLES WHERE NAME LIKE '$DB/%' ORDER BY TABLE_ID"
q "$OUT/truth/sys_indexes.tsv" "SELECT INDEX_ID, NAME, TABLE_ID, TYPE, N_FIELDS, PAGE_NO, SPACE, MERGE_THRESHOLD
   FROM information_schema.INNODB_SYS_INDEXES WHERE TABLE_ID IN ($TID) ORDER BY INDEX_ID"
q "$OUT/truth/sys_columns.tsv" "SELECT * FROM information_schema.INNODB_SYS_COLUMNS WHERE TABLE_ID IN ($TID) ORDER BY TABLE_ID, POS"
q "$OUT/truth/sys_fields.tsv" "SELECT * FROM information_schema.INNODB_SYS_FIELDS
   WHERE INDEX_ID IN (SELECT INDEX_ID FROM information_schema.INNODB_SYS_INDEXES WHERE TABLE_ID IN ($TID)) ORDER BY INDEX_ID, POS"
q "$OUT/truth/tablespaces_fsp.tsv" "SELECT t.NAME, t.SPACE, t.FLAG, HEX(t.FLAG) AS FLAG_HEX FROM information_schema.INNODB_SYS_TABLESPACES t
   WHERE t.NAME LIKE '$DB/%' ORDER BY t.SPACE"
for t in "${TABLES[@]}"; do
    q "$OUT/truth/$t.pages.tsv" "SELECT SPACE, PAGE_NUMBER, PAGE_TYPE, NUMBER_RECORDS, DATA_SIZE, INDEX_NAME, TABLE_NAME,
         NEWEST_MODIFICATION, OLDEST_MODIFICATION, COMPRESSED_SIZE, PAGE_STATE, IO_FIX, IS_OLD
       FROM information_schema.INNODB_BUFFER_PAGE
       WHERE SPACE = (SELECT SPACE FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME = '$DB/$t')
       ORDER BY PAGE_NUMBER"
    val "$WORK" "SHOW CREATE TABLE $DB.$t" | cut -f2- | sed 's/\\n/\n/g; s/$/;/' >>"$OUT/truth/schema.sql.tmp"
done
mv "$OUT/truth/schema.sql.tmp" "$OUT/truth/schema.sql"

# Full row contents (blob/text columns as length + SHA-256 of the value).
for t in t_int t_uuid t_redundant t_compact t_crc32 t_crc32_compact; do
    q "$OUT/truth/$t.rows.tsv" "SELECT * FROM $t ORDER BY 1"
done
q "$OUT/truth/t_blob.rows.tsv" "SELECT id, note, LENGTH(body) AS body_len, SHA2(body, 256) AS body_sha256,
   LENGTH(txt) AS txt_len, SHA2(txt, 256) AS txt_sha256 FROM t_blob ORDER BY id"

val "$WORK" "SHOW ENGINE INNODB STATUS" | cut -f3 | sed 's/\\n/\n/g' >"$OUT/truth/innodb_status.txt"
HLL=$(sed -n 's/^History list length \([0-9]*\).*/\1/p' "$OUT/truth/innodb_status.txt" | head -n1)
printf 'history_list_length\t%s\n' "$HLL" >"$OUT/truth/history_list_length.tsv"

# ---------------------------------------------------------------- finish ----
"$SERVER" stop "$WORK"

for t in "${TABLES[@]}"; do
    cp "$WORK/data/$DB/$t.ibd" "$OUT/$t.ibd"
    chmod 0644 "$OUT/$t.ibd"
done

# FSP flags as written on disk (page 0, FSP header offset 38 + FSP_SPACE_FLAGS 16 = byte 54).
INNOCHECKSUM=$(command -v innochecksum || true)
{
    printf 'file\tbytes\tpages\tfsp_flags_hex\tfull_crc32\n'
    for t in "${TABLES[@]}"; do
        f=$OUT/$t.ibd
        flags=$(od -A n -t x1 -j 54 -N 4 "$f" | tr -d ' \n')
        size=$(stat -c %s "$f")
        fc=$(( (16#$flags & 0x10) ? 1 : 0 ))
        printf '%s\t%s\t%s\t0x%s\t%s\n' "$t.ibd" "$size" $((size / 16384)) "$flags" "$fc"
    done
} >"$OUT/truth/files.tsv"

ic_status="innochecksum not found"
if [[ -n $INNOCHECKSUM ]]; then
    ic_status="all files OK"
    : >"$OUT/truth/innochecksum.txt"
    for t in "${TABLES[@]}"; do
        echo "### innochecksum -S $t.ibd" >>"$OUT/truth/innochecksum.txt"
        if ! "$INNOCHECKSUM" -S "$OUT/$t.ibd" >>"$OUT/truth/innochecksum.txt" 2>&1; then
            ic_status="FAILED for $t.ibd"
            echo "$prog: warning: innochecksum rejected $t.ibd" >&2
        fi
    done
    # Make the summary independent of where OUTDIR was.
    sed -i "s|$OUT/||g" "$OUT/truth/innochecksum.txt"
fi

VERSION=$(cat "$OUT/truth/version.txt")
cat >"$OUT/README.md" <<MD
# MariaDB InnoDB fixtures

Generated by \`tests/data/mariadb/make.sh\` (instance managed by
\`scripts/mariadb/server.sh\`). Regenerate with:

    tests/data/mariadb/make.sh

Regenerating changes UUIDs, LSNs, space/table/index ids and timestamps, so
ground truth and .ibd files must always be taken from the same run.

## Server

- Version: \`$VERSION\` (Debian 12 package \`mariadb-server\`), x86_64.
- Fresh private instance (\`mariadb-install-db --auth-root-authentication-method=normal\`),
  started with \`--defaults-file\` only (no system option files), see \`server.sh\` for
  the full my.cnf. Relevant settings: innodb_page_size=16384 (default),
  innodb_checksum_algorithm=full_crc32 (default), innodb_file_per_table=ON,
  innodb_default_row_format=dynamic (default), innodb_buffer_pool_size=32M,
  innodb_log_file_size=4M (minimum), innodb_data_file_path=ibdata1:3M:autoextend,
  innodb_autoextend_increment=1, innodb_undo_tablespaces=0, no binlog,
  character-set-server=utf8mb4 / utf8mb4_general_ci, no encryption, no page compression.
  \`truth/variables.tsv\` has the values the server reported.

## How the files were made

1. \`server.sh start\` on a new temp dir; \`create.sql\` (this directory) was run in one
   client session with \`group_concat_max_len=1048576\`. \`t_crc32\` and
   \`t_crc32_compact\` were created after \`SET GLOBAL innodb_checksum_algorithm=crc32\`
   (and the setting was put back to full_crc32 before their rows were inserted), so those
   two files use the pre-10.5 (non-full_crc32) tablespace format; all other files are full_crc32.
2. Waited for purge (History list length 0) so no delete-marked/undo-pending state remains.
3. Read every index with \`SELECT COUNT(*) FROM t FORCE INDEX (ix)\` (results in
   \`truth/index_counts.tsv\`) and read the off-page columns of \`t_blob\`, so that
   the pages are resident in the buffer pool; then dumped information_schema (below).
   Everything happened in one server run, so pages 0..2 of each file are resident too.
4. \`server.sh stop\`: \`SET GLOBAL innodb_fast_shutdown=0; SHUTDOWN\` (slow shutdown: full
   purge, all dirty pages flushed), then the \`.ibd\` files were copied from the datadir.
   ibdata1, redo log and .frm files are not included.

## Files

| file | contents |
|---|---|
| t_int.ibd | 2000 rows, INT AUTO_INCREMENT PK, VARCHAR(100), nullable INT + KEY k_val; DYNAMIC; 2-level clustered index |
| t_uuid.ibd | 2000 rows, CHAR(36) utf8mb4 PK from UUID() (random insert order); DYNAMIC |
| t_redundant.ibd | 300 rows, ROW_FORMAT=REDUNDANT, INT/BIGINT/VARCHAR/CHAR/DATE/nullable INT + KEY k_n |
| t_compact.ibd | same rows, ROW_FORMAT=COMPACT |
| t_blob.ibd | 4 rows, one 40000-byte LONGBLOB and one 40000-byte TEXT stored off-page (BLOB pages); DYNAMIC |
| t_crc32.ibd | 300 rows, DYNAMIC, **non-full_crc32** format (FSP flags 0x21, crc32 checksums) |
| t_crc32_compact.ibd | same rows, COMPACT, **non-full_crc32** format (FSP flags 0x00) |
| create.sql | the exact SQL that created the tables and rows |

Ground truth, all tab-separated with a header line, as printed by \`mariadb --batch\`
(NULL is written as \`NULL\`; \\t, \\n, \\\\ escaped):

| truth/ file | source |
|---|---|
| version.txt, variables.tsv | SELECT VERSION(); information_schema.GLOBAL_VARIABLES |
| sys_tablespaces.tsv | INNODB_SYS_TABLESPACES (SPACE, NAME, FLAG, ROW_FORMAT, PAGE_SIZE, FILENAME, FS_BLOCK_SIZE, FILE_SIZE, ALLOCATED_SIZE) |
| tablespaces_fsp.tsv | FLAG in decimal and hex per tablespace |
| sys_tables.tsv, sys_columns.tsv, sys_fields.tsv | INNODB_SYS_TABLES / _COLUMNS / _FIELDS |
| sys_indexes.tsv | INNODB_SYS_INDEXES (INDEX_ID, NAME, TABLE_ID, TYPE, N_FIELDS, PAGE_NO = root page, SPACE, MERGE_THRESHOLD) |
| <table>.pages.tsv | INNODB_BUFFER_PAGE rows for that table's space: PAGE_NUMBER, PAGE_TYPE, NUMBER_RECORDS, DATA_SIZE, INDEX_NAME, NEWEST_MODIFICATION (= FIL_PAGE_LSN), ... Only pages that were resident are listed (allocated-but-never-used pages are not). |
| <table>.rows.tsv | SELECT * ORDER BY PK; for t_blob: lengths and SHA2-256 of body/txt |
| index_counts.tsv | COUNT(*) per (table, index) |
| schema.sql | SHOW CREATE TABLE |
| innodb_status.txt, history_list_length.tsv | SHOW ENGINE INNODB STATUS (just before shutdown; History list length $HLL) |
| files.tsv | on-disk size, page count and FSP flags (page 0, byte offset 54) of each .ibd after shutdown |
| innochecksum.txt | \`innochecksum -S\` (page type summary) of each .ibd: $ic_status |

FSP flags: full_crc32 files have bit 0x10 set (0x15 = marker | page_ssize 5 = 16 KiB);
non-full_crc32 DYNAMIC = 0x21 (POST_ANTELOPE | ATOMIC_BLOBS), COMPACT/REDUNDANT = 0x00.
MD

echo "$prog: done; contents of $OUT:"
( cd "$OUT" && ls -l ./*.ibd && du -sh . && cat truth/files.tsv )
echo "innochecksum: $ic_status"
