#!/usr/bin/env bash
# What a real server prints for the tables of ibdNinja's MySQL fixtures
# (../shared/fixtures/external/ibdNinja/8.0 and 8.4): the SQL scripts that made those files
# (tests/data/ibdninja/sql, see SOURCES.md there) are run on a private MariaDB, and for every
# table the `mariadb` client's batch output of `SELECT` (its stored columns) `... ORDER BY` its
# primary key is kept:
#
#   OUTDIR/<table>.tsv      exactly what `mariadb -B -e 'SELECT ... FROM <table> ...'` printed
#   OUTDIR/<table>.log      statements MariaDB refused (MySQL-only syntax), if any
#   OUTDIR/<table>.<index>.tsv
#                           a secondary index's entries (its columns, then the primary key's),
#                           `SELECT ... FORCE INDEX (<index>) ORDER BY` them
#   OUTDIR/mariadb/<table>.ibd.gz, <table>.sql
#                           MariaDB's own tablespace of the table (after a slow shutdown) and
#                           its SHOW CREATE TABLE: `inspect rows --create-table` on a file
#                           MariaDB wrote must print <table>.tsv exactly
#   OUTDIR/mariadb/<table>.frm.gz
#                           the server's own definition file of the table (MariaDB keeps one
#                           beside each .ibd): `inspect rows` with neither must print <table>.tsv
#   OUTDIR/unpurged.tsv, unpurged.deleted.tsv, mariadb/unpurged.*
#                           a table with delete-marked rows purge has not removed (copied under
#                           FLUSH TABLES FOR EXPORT while a read view was open): its live rows,
#                           and every row that view saw with a (deleted) column, as --deleted prints
#   OUTDIR/mariadb/ibdata1.gz
#                           the system tablespace of the same server: its SYS_COLUMNS define
#                           the tables when no CREATE TABLE is given
#
#   make-mariadb-truth.sh [OUTDIR]        (OUTDIR defaults to tests/data/ibdninja/truth)
#
# `strata inspect rows` on the MySQL-written .ibd must print the same bytes, except where the
# two servers cannot agree (NOW() at different moments, JSON that MySQL normalises and MariaDB
# keeps as written); tests/data/ibdninja/README.md lists those cells.
#
# Env: PORT (default 33066), KEEP_WORK=1. Needs mariadb-server, mariadb-client (Debian 12: 10.11).
set -euo pipefail

PORT=${PORT:-33066}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-ibdninja "${@:-$(dirname "$0")/truth}"
SQL=$HERE/sql
EXTRA=$HERE/extra

# UTC, as the fixtures' TIMESTAMP columns are printed by the inspector.
SERVER_EXTRA_CNF="default_time_zone='+00:00'
character_set_server=utf8mb4" start_instance "$WORK" "$PORT"

run() { sqlin "$WORK" --default-character-set=utf8mb4 "$@"; }

# script -> tables it leaves, with the ORDER BY that lists them in primary key order
# (nullable_no_pk has none: its rows are in insertion order, as its hidden row ids are).
declare -A tables=(
    [01_simple_table]="simple_table:id"
    [02_multi_index]="multi_index:id"
    [03_instant_add_column]="instant_add_col:id"
    [04_data_types]="data_types:id"
    [05_nullable_no_pk]="nullable_no_pk:"
    [06_with_deletes]="with_deletes:id"
    [07_multi_page]="multi_page:id"
    [08_instant_add_drop]="instant_add_drop:col_uint"
    [09_all_column_types]="type_test:col_int"
    [10_upgrade_8016]=""
    [11_upgrade_8040]="ddl_test:id"
    [12_blob_external]="blob_external:id"
    [20_edge_values]="edge_numbers:id edge_text:id edge_time:id"
    [21_mariadb_instant]="mi_reorder:id mi_drop_add:id mi_compact:id mi_redundant:id mi_varpk:k mi_many:id"
    [22_charsets]="edge_charsets:id edge_mariadb_types:id"
    [23_key_shapes]="key_shapes:LEFT(name,4),n"
)

run -e 'CREATE DATABASE ibdninja_test'
all_tables=()
for script in $(printf '%s\n' "${!tables[@]}" | sort); do
    # --force: MySQL-only statements fail one by one and the rest of the script still runs.
    # MariaDB refuses CONCAT over a CHAR column in a generated column (its value would depend
    # on sql_mode); RTRIM gives the value MySQL computes, which strips CHAR's padding on read.
    # The scripts are sent as latin1, as the fixtures' own bytes show they were: the UTF-8 of
    # '中文' in 09_all_column_types.sql is stored re-encoded from latin1 (c3 a4 c2 b8 ...).
    # (Strata's own extra script is UTF-8 and sent as such.)
    file=$SQL/$script.sql charset=latin1
    [ -f "$file" ] || file=$EXTRA/$script.sql charset=utf8mb4
    sed "s/CONCAT(col_char_utf8, '_suffix')/CONCAT(RTRIM(col_char_utf8), '_suffix')/" "$file" |
        sqlin "$WORK" --default-character-set="$charset" --force ibdninja_test 2> "$WORK/$script.err" || true
    for entry in ${tables[$script]}; do
        table=${entry%%:*} key=${entry#*:}
        order=${key:+ ORDER BY $key}
        # The stored columns: a virtual column is computed by the server on read, not kept in
        # the file, so the inspector leaves it out.
        columns=$(run -N ibdninja_test -e "SELECT GROUP_CONCAT(CONCAT('\`', COLUMN_NAME, '\`')
            ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
            AND TABLE_NAME = '$table' AND EXTRA NOT LIKE '%VIRTUAL%'")
        run -B ibdninja_test -e "SELECT $columns FROM $table$order" > "$OUT/$table.tsv"
        if [[ -s $WORK/$script.err ]]; then cp "$WORK/$script.err" "$OUT/$table.log"; else rm -f "$OUT/$table.log"; fi
        log "$table: $(($(wc -l < "$OUT/$table.tsv") - 1)) rows"
        all_tables+=("$table")
    done
done

# Secondary indexes: each one's entries (its columns, then the primary key's) in index order,
# as `inspect rows --index NAME` lists them.
declare -A secondary=(
    [multi_index]="idx_name:last_name,first_name,id idx_dept:department_id,id idx_email:email,id"
)
for table in "${!secondary[@]}"; do
    for entry in ${secondary[$table]}; do
        index=${entry%%:*} columns=${entry#*:}
        run -B ibdninja_test -e "SELECT $columns FROM $table FORCE INDEX ($index) ORDER BY $columns" > "$OUT/$table.$index.tsv"
    done
done

# key_shapes' primary key is a 4-character prefix of name: each secondary index holds that
# prefix, not the whole name, after its own columns (its keys named as the server named them).
prefix="LEFT(name, 4) AS name"
for entry in "n:n,$prefix" "n_2:n,code,$prefix" "email:email,$prefix,n" "code:code,$prefix,n" "uk_code_n:code,n,$prefix"; do
    index=${entry%%:*} columns=${entry#*:}
    run -B ibdninja_test -e "SELECT $columns FROM key_shapes FORCE INDEX ($index) ORDER BY ${columns//$prefix/name}" \
        > "$OUT/key_shapes.$index.tsv"
done

# The .cfg FLUSH TABLES ... FOR EXPORT writes: the table's columns and every index's root,
# for reading key_shapes.ibd with neither its .frm nor ibdata1.
mkdir -p "$OUT/mariadb"
run ibdninja_test -e "FLUSH TABLES key_shapes FOR EXPORT;
    system gzip -9 -n -c '$WORK/data/ibdninja_test/key_shapes.cfg' > '$OUT/mariadb/key_shapes.cfg.gz'
    UNLOCK TABLES;"

# Delete-marked rows purge has not removed: a read view opened before the DELETE (a second
# client sleeping inside a consistent snapshot) keeps them, FLUSH TABLES ... FOR EXPORT writes
# the pages out, and the file is copied while the table is quiesced. `--deleted` must list the
# rows the snapshot saw, the deleted ones marked.
mkdir -p "$OUT/mariadb"
run ibdninja_test -e "CREATE TABLE unpurged (id INT PRIMARY KEY, v VARCHAR(20), t TEXT) ENGINE=InnoDB;
    INSERT INTO unpurged VALUES (1, 'one', NULL), (2, 'two', REPEAT('x', 20000)), (3, 'three', ''),
    (4, 'four', 'tab\there'), (5, 'five', REPEAT('y', 30000)), (6, 'six', 'last')"
run -B ibdninja_test -e "SELECT *, id IN (2, 4, 6) AS \`(deleted)\` FROM unpurged ORDER BY id" > "$OUT/unpurged.deleted.tsv"
run ibdninja_test -e "START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT COUNT(*) FROM unpurged; SELECT SLEEP(30)" > /dev/null &
snapshot=$!
sleep 2
run ibdninja_test -e "DELETE FROM unpurged WHERE id IN (2, 4, 6)"
run -B ibdninja_test -e "SELECT * FROM unpurged ORDER BY id" > "$OUT/unpurged.tsv"
run -N ibdninja_test -e "SHOW CREATE TABLE unpurged" | cut -f2- | sed 's/\\n/\n/g' > "$OUT/mariadb/unpurged.sql"
echo ";" >> "$OUT/mariadb/unpurged.sql"
run ibdninja_test -e "FLUSH TABLES unpurged FOR EXPORT;
    system gzip -9 -n -c '$WORK/data/ibdninja_test/unpurged.ibd' > '$OUT/mariadb/unpurged.ibd.gz'
    system gzip -9 -n -c '$WORK/data/ibdninja_test/unpurged.frm' > '$OUT/mariadb/unpurged.frm.gz'
    UNLOCK TABLES;"
kill "$snapshot" 2>/dev/null || true
wait "$snapshot" 2>/dev/null || true
for table in "${all_tables[@]}"; do
    run -N ibdninja_test -e "SHOW CREATE TABLE $table" | cut -f2- | sed 's/\\n/\n/g' > "$OUT/mariadb/$table.sql"
    echo ";" >> "$OUT/mariadb/$table.sql"
done
"$SERVER" stop "$WORK" >&2
for table in "${all_tables[@]}"; do
    gzip -9 -n -c "$WORK/data/ibdninja_test/$table.ibd" > "$OUT/mariadb/$table.ibd.gz"
    gzip -9 -n -c "$WORK/data/ibdninja_test/$table.frm" > "$OUT/mariadb/$table.frm.gz"
done
gzip -9 -n -c "$WORK/data/ibdata1" > "$OUT/mariadb/ibdata1.gz"
