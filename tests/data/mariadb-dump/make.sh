#!/usr/bin/env bash
# Build a REAL mysqldump (mariadb-dump) file of a small database that covers
# the common column types and every string escape mariadb-dump writes, plus a
# table big enough for one extended INSERT of more than 10 MB, together with
# ground-truth checksums computed by the server itself. Used to test
# `strata import` / `strata sql` against a genuine dump.
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb-dump, where this script is)
#
# Reads create.sql beside it, the SQL that creates the database.
#
# Writes (only these names; older copies are replaced):
#   OUTDIR/dump.sql.gz           mariadb-dump --net-buffer-length=16777216
#                                --databases dumptest, otherwise default options
#                                (gzip -9n)
#   OUTDIR/truth/checksums.tsv   table  rows  sha256  order_by  (one line per
#                                table, header first): sha256 of the mariadb
#                                client's batch output (header line included)
#                                of SELECT * FROM t ORDER BY <primary key>
#   OUTDIR/truth/<table>.tsv     that batch output itself, for every table
#                                except big and huge
#   OUTDIR/README.md             versions, commands, table list, sizes
#
# Before writing, the dump is loaded back into the server and the checksums
# are computed again; they must not change (the dump is faithful).
#
# Env: PORT (default: first free port from 33063), KEEP_WORK=1 keeps the
#      temporary instance directory (also kept when the script fails).
# Needs mariadb-server + mariadb-client (Debian 12: 10.11; install them with
# scripts/install-deps.sh mariadb), gzip, sha256sum, awk. The instance is a
# private one managed by server.sh (own datadir and socket under a mktemp dir).
set -euo pipefail

PORT=${PORT:-}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
case ${1:-} in
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0;;
esac
fixture_init strata-mariadb-dump "$@"

install_hint="install with: scripts/install-deps.sh mariadb"
mariadb_require_server
DUMP=$(mariadb_find_tool mariadb-dump) || die "mariadb-dump not found; $install_hint"
for t in gzip sha256sum awk; do
    command -v "$t" >/dev/null || die "$t not found"
done
if [[ -n $PORT ]]; then
    [[ $PORT =~ ^[0-9]+$ ]] || die "PORT must be a number, got '$PORT'"
else
    PORT=$(mariadb_free_port 33063)
fi

DB=dumptest
BIG_TABLES=(big huge)          # checksummed, but no truth/<table>.tsv
NET_BUFFER_LENGTH=16777216     # the largest value mariadb-dump accepts (16 MiB)
MIN_STATEMENT=10000000         # big must get one INSERT at least this long
MIN_LINE=10000000              # and the dump must have a line at least this long

CNF=$WORK/my.cnf               # written by server.sh start

# Every client call names the character set: the client's compiled-in default
# is "auto" (taken from the locale), which would not be utf8mb4 everywhere.
sql() { sqlin "$WORK" --default-character-set=utf8mb4 "$@"; }
utf8val() { sql --batch --skip-column-names -e "$1"; }

# Clear old outputs (only our own file names).
rm -rf "$OUT/truth"
rm -f "$OUT/dump.sql.gz" "$OUT/README.md"
fixture_inputs create.sql
mkdir -p "$OUT/truth"

# max_allowed_packet=64M: the dump's largest statement is just under 16 MiB,
# which is the server's default limit; loading it back must not depend on
# how close it gets.
start_instance "$WORK" "$PORT" --default-time-zone=+00:00 \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
    --max-allowed-packet=64M
[[ $(utf8val "SELECT @@global.time_zone") == +00:00 ]] || die "server time zone is not +00:00"
[[ $(utf8val "SELECT @@character_set_server") == utf8mb4 ]] || die "character_set_server is not utf8mb4"

# ---------------------------------------------------------------- create ----

log "creating database $DB"
sql <"$HERE/create.sql"

mapfile -t TABLES < <(utf8val "SELECT TABLE_NAME FROM information_schema.TABLES
                          WHERE TABLE_SCHEMA = '$DB' ORDER BY TABLE_NAME")
(( ${#TABLES[@]} > 0 )) || die "no tables in $DB"
is_big() { local b; for b in "${BIG_TABLES[@]}"; do [[ $1 == "$b" ]] && return 0; done; return 1; }

# order_by TABLE -> the primary key columns, comma-separated, in key order
order_by() {
    utf8val "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX SEPARATOR ',')
         FROM information_schema.STATISTICS
         WHERE TABLE_SCHEMA = '$DB' AND TABLE_NAME = '$1' AND INDEX_NAME = 'PRIMARY'"
}
# select_sql TABLE ORDER_BY -> the query whose batch output is checksummed
select_sql() { echo "SELECT * FROM \`$1\` ORDER BY \`${2//,/\`, \`}\`"; }
# batch TABLE ORDER_BY : the batch output (header line included) on stdout
batch() { sql --batch -e "$(select_sql "$1" "$2")" "$DB"; }

# checksums FILE [SAVE_TSV] : write table/rows/sha256/order_by for every table
checksums() {
    local file=$1 save=${2:-0} t ob rows sum
    printf 'table\trows\tsha256\torder_by\n' >"$file"
    for t in "${TABLES[@]}"; do
        ob=$(order_by "$t")
        [[ -n $ob && $ob != NULL ]] || die "table $t has no primary key"
        rows=$(utf8val "SELECT COUNT(*) FROM \`$DB\`.\`$t\`")
        if (( save )) && ! is_big "$t"; then
            batch "$t" "$ob" >"$OUT/truth/$t.tsv"
            sum=$(sha256sum <"$OUT/truth/$t.tsv")
        else
            sum=$(batch "$t" "$ob" | sha256sum)
        fi
        printf '%s\t%s\t%s\t%s\n' "$t" "$rows" "${sum%% *}" "$ob" >>"$file"
    done
}

log "computing the ground truth (${TABLES[*]})"
checksums "$OUT/truth/checksums.tsv" 1
VERSION=$(utf8val "SELECT VERSION()")
HUGE_BYTES=$(utf8val "SELECT LENGTH(body) FROM $DB.huge WHERE id = 2")

# ------------------------------------------------------------------ dump ----
# --defaults-file must come first; it only provides the [client] connection
# settings server.sh wrote (user root, the private socket).
DUMP_OPTS=(--net-buffer-length=$NET_BUFFER_LENGTH --databases "$DB")
log "dumping with $(basename "$DUMP") ${DUMP_OPTS[*]}"
"$DUMP" --defaults-file="$CNF" "${DUMP_OPTS[@]}" >"$WORK/dump.sql" 2>"$WORK/dump.err" ||
    { cat "$WORK/dump.err" >&2; die "mariadb-dump failed"; }
if [[ -s $WORK/dump.err ]]; then
    cat "$WORK/dump.err" >&2
    die "mariadb-dump wrote warnings (see above)"
fi
DUMP_VERSION=$("$DUMP" --version)
DUMP_HEADER=$(sed -n '1,2p' "$WORK/dump.sql" | sed -n '/^-- MariaDB dump\|^-- MySQL dump/p')
DUMP_FIRST_LINE=$(head -n 1 "$WORK/dump.sql")

# The parts of a default dump the importer has to handle must all be there.
for pat in '^/\*!40101 SET NAMES utf8mb4 \*/;$' "^/\\*!40103 SET TIME_ZONE='+00:00' \\*/;\$" \
           "^/\\*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' \\*/;\$" \
           '^CREATE DATABASE /\*!32312 IF NOT EXISTS\*/ `dumptest`' '^USE `dumptest`;$' \
           '^DROP TABLE IF EXISTS `big`;$' '^CREATE TABLE `big` ($' '^LOCK TABLES `big` WRITE;$' \
           '^/\*!40000 ALTER TABLE `big` DISABLE KEYS \*/;$' '^UNLOCK TABLES;$'; do
    LC_ALL=C grep -q -- "$pat" "$WORK/dump.sql" || die "the dump has no line matching: $pat"
done

# Statement and line lengths (bytes, newline included). Every newline in a
# dump is structural (newlines in values are written as \n), and each row line
# of an extended INSERT ends in ',' or ';'.
LC_ALL=C awk '
    { len = length($0) + 1; if (len > maxline) { maxline = len; maxline_no = NR } }
    /^INSERT INTO `/ { inins = 1; stmt = 0; lines = 0; tbl = $3 }
    inins { stmt += len; lines++ }
    inins && /;$/ {
        inins = 0; n[tbl]++
        if (stmt > maxstmt[tbl]) maxstmt[tbl] = stmt
        printf "insert\t%s\t%d\t%d\n", tbl, stmt, lines
    }
    END { printf "maxline\t%d\t%d\n", maxline, maxline_no }
' "$WORK/dump.sql" >"$WORK/dump-stats.tsv"
LONGEST_LINE=$(awk -F'\t' '$1 == "maxline" { print $2 }' "$WORK/dump-stats.tsv")
LONGEST_LINE_NO=$(awk -F'\t' '$1 == "maxline" { print $3 }' "$WORK/dump-stats.tsv")
BIG_MAX_STMT=$(awk -F'\t' '$1 == "insert" && $2 == "`big`" && $3 > m { m = $3 } END { print m + 0 }' "$WORK/dump-stats.tsv")
(( BIG_MAX_STMT >= MIN_STATEMENT )) ||
    die "the largest INSERT for big is $BIG_MAX_STMT bytes, less than $MIN_STATEMENT"
(( LONGEST_LINE >= MIN_LINE )) || die "the longest dump line is $LONGEST_LINE bytes, less than $MIN_LINE"
INSERT_LIST=$(awk -F'\t' '$1 == "insert" { printf "| %s | %d | %d |\n", $2, $3, $4 }' "$WORK/dump-stats.tsv")
DUMP_BYTES=$(wc -c <"$WORK/dump.sql")
DUMP_LINES=$(wc -l <"$WORK/dump.sql")
DUMP_SHA=$(sha256sum <"$WORK/dump.sql"); DUMP_SHA=${DUMP_SHA%% *}

# ------------------------------------------------------- reload and check ----
log "loading the dump back and checking the checksums again"
utf8val "DROP DATABASE $DB" >/dev/null
sql --max-allowed-packet=64M <"$WORK/dump.sql"
checksums "$WORK/checksums.reloaded.tsv" 0
if ! cmp -s "$OUT/truth/checksums.tsv" "$WORK/checksums.reloaded.tsv"; then
    diff "$OUT/truth/checksums.tsv" "$WORK/checksums.reloaded.tsv" >&2 || true
    die "the checksums after loading the dump back differ"
fi

gzip -9n -c "$WORK/dump.sql" >"$OUT/dump.sql.gz"
GZ_SHA=$(gzip -dc "$OUT/dump.sql.gz" | sha256sum)
[[ ${GZ_SHA%% *} == "$DUMP_SHA" ]] || die "dump.sql.gz does not decompress to the dump"
GZ_BYTES=$(wc -c <"$OUT/dump.sql.gz")

"$SERVER" stop "$WORK" >&2

# ---------------------------------------------------------------- README ----
TABLE_LIST=$(awk -F'\t' 'NR > 1 { printf "| `%s` | %d | `%s` | %s |\n", $1, $2, $4,
             ($1 == "big" || $1 == "huge") ? "checksum only" : "`truth/" $1 ".tsv`" }' "$OUT/truth/checksums.tsv")
SAMPLE_SQL=$(select_sql t_time "day,n")
{
cat <<EOF
# MariaDB dump fixture

A real \`mariadb-dump\` file (\`dump.sql.gz\`) of database \`dumptest\` and the
server's own ground truth for it (\`truth/\`). Generated by
\`tests/data/mariadb-dump/make.sh\` (private instance managed by
\`scripts/mariadb/server.sh\`). Regenerate with:

    scripts/install-deps.sh mariadb     # once, as root or with sudo
    tests/data/mariadb-dump/make.sh

Regenerating rewrites \`dump.sql.gz\`, \`create.sql\`, \`truth/\` and this file;
the dump differs at least in its "Dump completed on" line. Take all files from the
same run.

## Versions

- Server: \`SELECT VERSION()\` = \`$VERSION\`
- Dump tool: \`$DUMP_VERSION\`
- Dump header: \`$DUMP_HEADER\`

## How it was made

1. \`server.sh start DIR PORT --default-time-zone=+00:00 --character-set-server=utf8mb4
   --collation-server=utf8mb4_general_ci --max-allowed-packet=64M\` (a fresh
   datadir; my.cnf as written by server.sh).
2. \`mariadb --default-character-set=utf8mb4 < create.sql\` created the database
   and filled it (every value deterministic).
3. Ground truth, for every table \`t\` with primary key columns \`k1,k2,...\`
   (the \`order_by\` column):

       mariadb --default-character-set=utf8mb4 --batch -e 'SELECT * FROM \`t\` ORDER BY \`k1\`, \`k2\`' dumptest | sha256sum

   (plus the connection options \`--defaults-file=DIR/my.cnf\`: user root, the
   private socket). For example, for \`t_time\` the query is exactly
   \`\` $SAMPLE_SQL \`\`.
   \`rows\` is \`SELECT COUNT(*)\`. \`truth/<t>.tsv\` is the same batch output,
   byte for byte (its sha256 is the one in \`checksums.tsv\`).
4. \`$(basename "$DUMP") --defaults-file=DIR/my.cnf ${DUMP_OPTS[*]} > dump.sql\`:
   default options (--opt: extended inserts, --lock-tables, --add-drop-table,
   --disable-keys, --set-charset with utf8mb4, --tz-utc, --quick, ...), plus
   \`--databases dumptest\` (CREATE DATABASE and USE) and
   \`--net-buffer-length=$NET_BUFFER_LENGTH\`, the largest value it accepts
   (larger values are cut to 16 MiB with a warning). No \`--hex-blob\`: binary
   data is written as escaped strings.
5. Self-check: \`DROP DATABASE dumptest\`, the dump loaded back with
   \`mariadb --default-character-set=utf8mb4 --max-allowed-packet=64M < dump.sql\`,
   and all checksums computed again: identical.
6. \`gzip -9n\`; \`server.sh stop\`.

## Files and sizes

- \`dump.sql.gz\`: $GZ_BYTES bytes; uncompressed $DUMP_BYTES bytes, $DUMP_LINES lines,
  sha256 \`$DUMP_SHA\`.
- Longest line: $LONGEST_LINE bytes including its newline (line $LONGEST_LINE_NO:
  row 2 of \`huge\`, whose LONGTEXT is $HUGE_BYTES bytes).
- Largest INSERT statement of \`big\`: $BIG_MAX_STMT bytes.
- \`create.sql\`: the SQL that made the database (comments explain each table).
- \`truth/checksums.tsv\`: \`table rows sha256 order_by\`, tab-separated, header line first.
- \`truth/<table>.tsv\`: batch output of every table except \`big\` and \`huge\`.

INSERT statements in the dump (bytes include the final newline; lines = the
\`\`INSERT INTO \`t\` VALUES\`\` line + one line per row):

| table | bytes | lines |
|---|---|---|
$INSERT_LIST

## Tables

| table | rows | primary key (ORDER BY) | batch output |
|---|---|---|---|
$TABLE_LIST

- \`t_int\`: TINYINT/SMALLINT/MEDIUMINT/INT/BIGINT, signed and unsigned, minimum
  and maximum values (BIGINT -9223372036854775808, BIGINT UNSIGNED
  18446744073709551615), NULLs, NOT NULL DEFAULT columns, UNIQUE and two-column
  KEY, AUTO_INCREMENT with a gap (1000) and a row with id 0.
- \`t_num\`: DECIMAL(10,2)/(5,0)/(20,6)/(65,30) with negatives, zero and
  trailing-zero fractions, extremes; FLOAT and DOUBLE.
- \`t_str\` (VARCHAR(40) key): CHAR/VARCHAR/TINYTEXT/TEXT/MEDIUMTEXT/LONGTEXT with
  every escape, UTF-8 (2/3/4-byte), empty strings, the string 'NULL',
  literal backslash sequences, SQL-looking text (\`;\`, \`--\`, \`/* */\`,
  \`');\`, backticks), leading/trailing spaces, TINYTEXT of exactly 255
  bytes and a MEDIUMTEXT over 64 KiB.
- \`t_bin\` (BINARY(16) key): BINARY/VARBINARY/TINYBLOB/BLOB/MEDIUMBLOB/LONGBLOB
  with all 256 byte values, keys made of 0x00, 0xFF and bytes that need
  escaping, bytes that look like UTF-8 lead bytes followed by a quote or a
  backslash, a MEDIUMBLOB over 64 KiB, empty values and NULLs.
- \`t_time\` (composite key DATE, SMALLINT): DATE/DATETIME/DATETIME(6)/TIMESTAMP
  including 1000-01-01, 9999-12-31 23:59:59.999999, TIMESTAMP 1970-01-01 00:00:01
  and 2038-01-19 03:14:07, zero dates (0000-00-00), a leap day, NULLs, a
  \`TIMESTAMP ... DEFAULT current_timestamp() ON UPDATE current_timestamp()\`
  column (always given explicitly) and DATETIME NOT NULL DEFAULT.
- \`big\`: sysbench-like (\`id\` AUTO_INCREMENT, \`k\` with KEY k_1, \`c\` CHAR(120),
  \`pad\` CHAR(60)); values derived from the id (digits and the first 8 hex
  digits of MD5(id), repeated), so the dump compresses well.
- \`huge\`: three rows, the middle one a LONGTEXT of more than 10 MB, so that the
  dump has a line over 10 MB (see below why \`big\` cannot give one).

FLOAT values used: 0, 1.5, -0.25, 3.14159, -3.14159, 1e20, -1e20, 0.125, 65504,
-7, 0.00001 (printed so), 1234.5, 100000, -1.5 (default), 0.75. DOUBLE values:
0, 1.5, -0.25, 3.14159, -3.141592653589793, 1e20, -1.7976931348623157e308, 0.1,
3.141592653589793, 2.718281828459045, 1e-300, 123456789.125, 1e15, 0.5 (default),
-2.5. All of them print in a form that reads back as the same value (the
reload check above confirms it).

## Formats a reader must reproduce

### mariadb-dump

- The first line is \`$DUMP_FIRST_LINE\` (note the space before the newline).
  mariadb-dump starts with this "sandbox mode" marker since the 2024 security
  releases (10.11.8 in this series). The mariadb client reads \`\\-\` as a
  command (no more client commands after it); to a server it is a version
  comment \`/*M!999999 ... */\` that is skipped.
- Extended INSERTs put **each row on its own line**: \`\`INSERT INTO \`t\` VALUES\`\`
  alone on the first line, then \`(...),\` lines and a last \`(...);\` line
  (MDEV-25152; older mariadb-dump releases and MySQL's mysqldump write a whole
  INSERT on one line). So \`big\`'s INSERT of more than 10 MB is 84000-odd
  lines, and only the one huge row in \`huge\` makes a line over 10 MB. A new
  INSERT starts when the next row would make the statement reach
  net_buffer_length (16 MiB here).
- String escapes: \`\\0\` NUL, \`\\n\` LF, \`\\r\` CR, \`\\Z\` 0x1A, \`\\\\\`, \`\\'\`,
  \`\\"\`. The tab and every other byte (0x01-0x1F except those, 0x7F, and
  0x80-0xFF in binary columns) are written raw, so the file is not valid UTF-8.
  A byte that could start a UTF-8 sequence but does not is written raw and the
  quote or backslash after it is escaped as usual (\`C3 27\` -> \`C3 5C 27\`).
  No \`_binary\` introducer and no hex literals for binary columns.
- Numbers unquoted; NULL as \`NULL\`; DECIMAL with its full scale (\`100.00\`);
  dates and times quoted (\`'2024-02-29 23:59:59.999999'\`). TIMESTAMPs are in
  UTC because of \`SET TIME_ZONE='+00:00'\` (--tz-utc, the default).
- FLOAT prints with at most 6 significant digits (\`%g\`-like: \`3.14159\`, \`1e20\`,
  \`0.00001\`); DOUBLE with the shortest form that reads back exactly (up to 17
  digits: \`3.141592653589793\`, \`1e-300\`, \`1e15\`, but \`100000000000000\` for
  1e14). Dump and client print the same text (both get the server's text result).
- CHAR values lose their trailing spaces (\`'ab  '\` in a CHAR(10) reads back as
  \`ab\`); VARCHAR/TEXT keep them.
- The dump ends with a \`-- Dump completed on <date>\` line.

### mariadb client batch output (the checksummed bytes)

- First line: the column names, tab-separated; then one line per row; every
  line ends with LF; fields separated by TAB.
- SQL NULL prints as \`NULL\`, the same bytes as the 4-character string 'NULL'.
  Row \`null-word\` of \`t_str\` holds the string in every column (the dump has
  \`'NULL'\`), row \`nulls-and-defaults\` real NULLs (the dump has \`NULL\`): the
  checksum cannot tell the two apart, except in the NOT NULL columns \`status\`
  and \`note\`, where a NULL could not be stored.
- Inside values the client escapes only four bytes: NUL -> \`\\0\`, TAB -> \`\\t\`,
  LF -> \`\\n\`, backslash -> \`\\\\\`. CR, 0x1A and all other bytes (including
  0x80-0xFF of binary columns) are written raw; binary columns are not shown as
  hex (--binary-as-hex is off).
- Values are the server's text: the FLOAT/DOUBLE/DECIMAL forms above,
  \`YYYY-MM-DD\`, \`YYYY-MM-DD hh:mm:ss\`, DATETIME(6) always with 6 fraction digits,
  TIMESTAMP in the session time zone (+00:00, the server default here),
  zero dates as \`0000-00-00\` / \`0000-00-00 00:00:00\`.
- \`--default-character-set=utf8mb4\` matters: the client default is "auto" (from
  the locale), and with another character set the text bytes would differ.

## Notes

- Loading the dump into MariaDB needs max_allowed_packet larger than the largest
  statement ($BIG_MAX_STMT bytes); the server default (16 MiB) is only just enough,
  so the self-check used 64M on both sides.
- \`big\` says \`AUTO_INCREMENT=131071\`, not 100001: InnoDB reserved
  auto-increment values in growing batches for the one INSERT ... SELECT
  (innodb_autoinc_lock_mode=1, the default). An importer that recomputes the
  counter from MAX(id) will differ here; the rows do not.
- \`t_int\` has a row with id 0; the dump relies on \`SQL_MODE='NO_AUTO_VALUE_ON_ZERO'\`
  to keep it 0.
- Collation is utf8mb4_general_ci. \`t_str\` keys use only \`[a-z0-9-]\`, so ORDER BY
  k is also byte order. \`t_bin\` keys compare as bytes.
EOF
} >"$OUT/README.md"

log "done: $OUT (dump.sql.gz $GZ_BYTES bytes; longest line $LONGEST_LINE bytes; largest big INSERT $BIG_MAX_STMT bytes)"
