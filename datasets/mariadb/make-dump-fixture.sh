#!/usr/bin/env bash
# Build a REAL mysqldump (mariadb-dump) file of a small database that covers
# the common column types and every string escape mariadb-dump writes, plus a
# table big enough for one extended INSERT of more than 10 MB, together with
# ground-truth checksums computed by the server itself. Used to test
# `strata import` / `strata sql` against a genuine dump.
#
#   make-dump-fixture.sh OUTDIR
#
# Writes (only these names; older copies are replaced):
#   OUTDIR/dump.sql.gz           mariadb-dump --net-buffer-length=16777216
#                                --databases dumptest, otherwise default options
#                                (gzip -9n)
#   OUTDIR/create.sql            the SQL that created the database
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

prog=$(basename "$0")
HERE=$(cd "$(dirname "$0")" && pwd -P)
SERVER=$HERE/server.sh
die() { echo "$prog: error: $*" >&2; exit 1; }
say() { echo "$prog: $*" >&2; }
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

OUTARG=
while [[ $# -gt 0 ]]; do
    case $1 in
        -h|--help) usage; exit 0;;
        -*) die "unknown option '$1' (see --help)";;
        *) [[ -z $OUTARG ]] || die "only one OUTDIR, got '$OUTARG' and '$1' (see --help)"
           OUTARG=$1; shift;;
    esac
done
[[ -n $OUTARG ]] || { usage >&2; exit 2; }
[[ -x $SERVER ]] || die "helper not found or not executable: $SERVER"

find_bin() { # first of NAME... in PATH or the usual sbin/bin directories
    local n d
    for n in "$@"; do
        command -v "$n" 2>/dev/null && return 0
        for d in /usr/sbin /usr/bin /usr/local/sbin /usr/local/bin; do
            [[ -x $d/$n ]] && { echo "$d/$n"; return 0; }
        done
    done
    return 1
}
install_hint="install with: scripts/install-deps.sh mariadb"
find_bin mariadbd mysqld >/dev/null || die "mariadbd not found; $install_hint"
CLIENT=$(find_bin mariadb mysql) || die "mariadb client not found; $install_hint"
DUMP=$(find_bin mariadb-dump mysqldump) || die "mariadb-dump not found; $install_hint"
for t in gzip sha256sum awk; do
    command -v "$t" >/dev/null || die "$t not found"
done

port_in_use() { (exec 4<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [[ -n ${PORT:-} ]]; then
    [[ $PORT =~ ^[0-9]+$ ]] || die "PORT must be a number, got '$PORT'"
else
    PORT=33063
    while port_in_use "$PORT"; do
        (( ++PORT < 33200 )) || die "no free port in 33063..33199; set PORT"
    done
fi

mkdir -p "$OUTARG"
OUT=$(cd "$OUTARG" && pwd -P)
DB=dumptest
BIG_TABLES=(big huge)          # checksummed, but no truth/<table>.tsv
NET_BUFFER_LENGTH=16777216     # the largest value mariadb-dump accepts (16 MiB)
MIN_STATEMENT=10000000         # big must get one INSERT at least this long
MIN_LINE=10000000              # and the dump must have a line at least this long

WORK=$(mktemp -d /tmp/strata-mariadb-dump.XXXXXX)
CNF=$WORK/my.cnf               # written by server.sh start
running=0
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if (( running )); then "$SERVER" stop "$WORK" >&2 || true; fi
    if (( rc != 0 )) || [[ ${KEEP_WORK:-0} == 1 ]]; then
        say "instance directory kept: $WORK"
    else
        rm -rf "$WORK"
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Every client call names the character set: the client's compiled-in default
# is "auto" (taken from the locale), which would not be utf8mb4 everywhere.
sql() { "$SERVER" sql "$WORK" --default-character-set=utf8mb4 "$@"; }
val() { sql --batch --skip-column-names -e "$1"; }

# Clear old outputs (only our own file names).
rm -rf "$OUT/truth"
rm -f "$OUT/dump.sql.gz" "$OUT/create.sql" "$OUT/README.md"
mkdir -p "$OUT/truth"

# max_allowed_packet=64M: the dump's largest statement is just under 16 MiB,
# which is the server's default limit; loading it back must not depend on
# how close it gets.
"$SERVER" start "$WORK" "$PORT" --default-time-zone=+00:00 \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
    --max-allowed-packet=64M >&2
running=1
[[ $(val "SELECT @@global.time_zone") == +00:00 ]] || die "server time zone is not +00:00"
[[ $(val "SELECT @@character_set_server") == utf8mb4 ]] || die "character_set_server is not utf8mb4"

# ---------------------------------------------------------------- create ----
cat >"$OUT/create.sql" <<'SQL'
-- Executed by make-dump-fixture.sh (mariadb --default-character-set=utf8mb4)
-- against a fresh private MariaDB instance started with
-- --default-time-zone=+00:00. Every value is deterministic.
CREATE DATABASE dumptest CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
USE dumptest;

-- A string with every character mariadb-dump escapes (' " \ LF CR NUL ^Z)
-- and the tab, which it writes raw.
SET @esc = CONCAT('quote '' dquote " backslash \\ newline', CHAR(10 USING utf8mb4),
                  'cr', CHAR(13 USING utf8mb4), 'tab', CHAR(9 USING utf8mb4),
                  'nul', CHAR(0 USING utf8mb4), 'ctrlz', CHAR(26 USING utf8mb4), 'end');
-- Non-ASCII text: 2-byte (Latin, Greek, Cyrillic), 3-byte (CJK, Hangul) and
-- 4-byte (emoji, one with a skin-tone modifier) UTF-8.
SET @utf8 = 'café naïve Zürich Ærøskøbing Ωμέγα Привет 日本語 中文 한국어 😀🎉👍🏽';
-- The 256 byte values 0x00..0xFF in ascending order (a binary string).
SET @bytes = (SELECT UNHEX(GROUP_CONCAT(LPAD(HEX(seq), 2, '0') ORDER BY seq SEPARATOR ''))
              FROM seq_0_to_255);

-- Integers: every width, signed and unsigned, minimum/maximum, NULLs,
-- NOT NULL DEFAULT columns, a UNIQUE and a two-column secondary key, an
-- AUTO_INCREMENT gap, and a row with id 0 (why mariadb-dump sets
-- SQL_MODE='NO_AUTO_VALUE_ON_ZERO').
CREATE TABLE t_int (
  id          INT NOT NULL AUTO_INCREMENT,
  ti          TINYINT NULL,
  ti_u        TINYINT UNSIGNED NULL,
  si          SMALLINT NULL,
  si_u        SMALLINT UNSIGNED NULL,
  mi          MEDIUMINT NULL,
  mi_u        MEDIUMINT UNSIGNED NULL,
  i           INT NULL,
  i_u         INT UNSIGNED NULL,
  bi          BIGINT NULL,
  bi_u        BIGINT UNSIGNED NULL,
  code        VARCHAR(20) NOT NULL,
  qty         INT NOT NULL DEFAULT 0,
  flag        TINYINT NOT NULL DEFAULT 1,
  big_default BIGINT UNSIGNED NOT NULL DEFAULT 18446744073709551615,
  PRIMARY KEY (id),
  UNIQUE KEY uk_code (code),
  KEY k_i_bi (i, bi)
) ENGINE=InnoDB;
INSERT INTO t_int (ti, ti_u, si, si_u, mi, mi_u, i, i_u, bi, bi_u, code, qty, flag, big_default) VALUES
  (-128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0, 'min', -2147483648, -128, 0),
  (127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807,
   18446744073709551615, 'max', 2147483647, 127, 18446744073709551615),
  (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'zero', 0, 0, 0),
  (-1, 1, -1, 1, -1, 1, -1, 1, -1, 1, 'minus-one', -1, -1, 1);
INSERT INTO t_int (code) VALUES ('nulls-and-defaults');
INSERT INTO t_int (ti, ti_u, si, si_u, mi, mi_u, i, i_u, bi, bi_u, code, qty)
  SELECT CAST(seq AS SIGNED) * 37 % 256 - 128, seq * 53 % 256,
         CAST(seq AS SIGNED) * 1237 % 65536 - 32768, seq * 2477 % 65536,
         CAST(seq AS SIGNED) * 104729 % 16777216 - 8388608, seq * 224737 % 16777216,
         CAST(seq AS SIGNED) * 1000003 * IF(seq % 2 = 0, 1, -1), seq * 85999999 % 4294967296,
         CAST(seq AS SIGNED) * 123456789012345 * IF(seq % 3 = 0, 1, -1), seq * 369000000000000007,
         CONCAT('gen-', LPAD(seq, 2, '0')), IF(seq % 4 = 0, NULL, seq)
  FROM seq_1_to_40 WHERE seq % 4 <> 0
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL, NULL, seq, NULL, NULL, NULL, CONCAT('gen-', LPAD(seq, 2, '0')), 0
  FROM seq_1_to_40 WHERE seq % 4 = 0
  ORDER BY 11;
INSERT INTO t_int (id, code, qty) VALUES (1000, 'after-gap', 7);
INSERT INTO t_int (code, qty) VALUES ('after-gap-auto', 8);
SET @saved_mode = @@sql_mode;
SET sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO');
INSERT INTO t_int (id, ti, code) VALUES (0, 0, 'id-zero');
SET sql_mode = @saved_mode;

-- Fixed and floating point. FLOAT/DOUBLE values are ones whose printed form
-- reads back as the same value (at most 6 significant digits for FLOAT).
CREATE TABLE t_num (
  id     SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT,
  label  VARCHAR(20) NOT NULL,
  money  DECIMAL(10,2) NULL,
  whole  DECIMAL(5,0) NULL,
  fine   DECIMAL(20,6) NULL,
  wide   DECIMAL(65,30) NULL,
  f      FLOAT NULL,
  d      DOUBLE NULL,
  price  DECIMAL(8,3) NOT NULL DEFAULT 9.990,
  ratio  DOUBLE NOT NULL DEFAULT 0.5,
  f_def  FLOAT NOT NULL DEFAULT -1.5,
  PRIMARY KEY (id),
  KEY k_money (money)
) ENGINE=InnoDB;
INSERT INTO t_num (label, money, whole, fine, wide, f, d) VALUES
  ('zero', 0, 0, 0, 0, 0, 0),
  ('zero-fraction', 100.00, 12345, 42.000000, 1.000000000000000000000000000000, 1.5, 1.5),
  ('negative', -12345678.90, -99999, -0.000001,
   -12345678901234567890123456789012345.123456789012345678901234567890, -0.25, -0.25),
  ('maximum', 99999999.99, 99999, 99999999999999.999999,
   99999999999999999999999999999999999.999999999999999999999999999999, 3.14159, 3.14159),
  ('minimum', -99999999.99, -99999, -99999999999999.999999,
   -99999999999999999999999999999999999.999999999999999999999999999999, -3.14159, -3.141592653589793),
  ('large', 1234567.89, 1, 0.5, 0.000000000000000000000000000001, 1e20, 1e20),
  ('large-negative', -0.01, -1, -0.5, -0.000000000000000000000000000001, -1e20, -1.7976931348623157e308),
  ('small', 0.10, 10, 0.100000, 0.1, 0.125, 0.1),
  ('misc-1', 1.05, 100, 1234.5678, 3.141592653589793238462643383279, 65504, 3.141592653589793),
  ('misc-2', -7.50, -7, -7.25, -2.718281828459045, -7, 2.718281828459045),
  ('misc-3', 42.42, 42, 1e-6, 42, 0.00001, 1e-300),
  ('misc-4', 5, 5, 5, 5, 1234.5, 123456789.125),
  ('misc-5', 6, 6, 6, 6, 100000, 1e15);
INSERT INTO t_num (label) VALUES ('nulls-and-defaults');
INSERT INTO t_num (label, money, price, ratio, f_def) VALUES ('explicit', 1, 0, -2.5, 0.75);

-- Strings keyed by a VARCHAR. Keys use only [a-z0-9-] so the collation order
-- (utf8mb4_general_ci) is also the byte order.
CREATE TABLE t_str (
  k       VARCHAR(40) NOT NULL,
  c       CHAR(10) NULL,
  vc      VARCHAR(300) NULL,
  tt      TINYTEXT NULL,
  tx      TEXT NULL,
  mt      MEDIUMTEXT NULL,
  lt      LONGTEXT NULL,
  status  VARCHAR(16) NOT NULL DEFAULT 'new',
  note    VARCHAR(100) NOT NULL DEFAULT '',
  PRIMARY KEY (k),
  UNIQUE KEY uk_c (c),
  KEY k_vc (vc(16)),
  KEY k_status_note (status, note)
) ENGINE=InnoDB;
INSERT INTO t_str (k, c, vc, tt, tx, mt, lt, status, note) VALUES
  ('escapes',
   CONCAT('''', '"', '\\', CHAR(10 USING utf8mb4), CHAR(13 USING utf8mb4), CHAR(9 USING utf8mb4),
          CHAR(0 USING utf8mb4), CHAR(26 USING utf8mb4)),
   @esc, @esc, @esc, @esc, @esc, 'esc', @esc),
  ('utf8', 'Zürich日本😀', @utf8, @utf8, @utf8, @utf8, @utf8, 'ünïcödé', '日本語 😀'),
  ('empty', '', '', '', '', '', '', '', ''),
  ('null-word', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'),
  ('backslash-sequences', 'a\\nb', 'a\\nb\\tc\\0d\\\\e\\Zf\\''g\\"h\\rj', '\\', '\\\\',
   'ends with a backslash \\', CONCAT('\\', CHAR(10 USING utf8mb4), '\\'), 'bs', 'C:\\temp\\new'),
  ('sql-lookalikes', 'a;b', CONCAT('end of statement; ', CHAR(10 USING utf8mb4), '-- not a comment',
   CHAR(10 USING utf8mb4), '/* not a comment */ `tick` #hash'),
   '''); DROP TABLE t_str; --', 'INSERT INTO `t_str` VALUES (''x'');', '),(', '/*!40000 ALTER */;',
   'sql', CONCAT(');', CHAR(10 USING utf8mb4), 'UNLOCK TABLES;')),
  ('spaces', 'ab  ', '  lead and trail  ', ' ', CONCAT('tab at end', CHAR(9 USING utf8mb4)),
   CONCAT('newline at end', CHAR(10 USING utf8mb4)), '   ', 'sp ', ' sp'),
  ('long', 'long', REPEAT('v', 300), REPEAT('t', 255),
   REPEAT(CONCAT('text é ', CHAR(9 USING utf8mb4), '中 ', CHAR(10 USING utf8mb4)), 300),
   REPEAT(CONCAT('mediumtext é 中 😀 ''q'' "d" \\ ', CHAR(10 USING utf8mb4)), 2000),
   REPEAT('longtext-0123456789 ', 1000), 'long', 'sizes: vc 300, tt 255, mt > 64 KiB');
INSERT INTO t_str (k) VALUES ('nulls-and-defaults');
INSERT INTO t_str (k, c, vc, tt, tx, status)
  SELECT CONCAT('row-', LPAD(seq, 3, '0')), CONCAT('c', seq),
         CONCAT('value ', seq, ' ', REPEAT('ab', seq)),
         IF(seq % 3 = 0, NULL, CONCAT('tiny ', seq)),
         IF(seq % 5 = 0, NULL, CONCAT('text ', seq, ' ', MD5(seq))),
         ELT(1 + seq % 3, 'new', 'open', 'closed')
  FROM seq_1_to_30;

-- Binary data keyed by a BINARY(16) "UUID" (16 bytes from MD5, and a few
-- keys made of the bytes that need escaping); all 256 byte values, and
-- byte pairs that would be UTF-8 lead bytes followed by a quote/backslash.
CREATE TABLE t_bin (
  id   BINARY(16) NOT NULL,
  seq  INT NOT NULL,
  b4   BINARY(4) NULL,
  vb   VARBINARY(300) NULL,
  tb   TINYBLOB NULL,
  bl   BLOB NULL,
  mb   MEDIUMBLOB NULL,
  lb   LONGBLOB NULL,
  tag  VARBINARY(8) NOT NULL DEFAULT 'none',
  PRIMARY KEY (id),
  UNIQUE KEY uk_seq (seq),
  KEY k_b4 (b4)
) ENGINE=InnoDB;
INSERT INTO t_bin (id, seq, b4, vb, tb, bl, mb, lb, tag) VALUES
  (UNHEX(MD5('dumptest-1')), 1, UNHEX('00275C1A'), @bytes, LEFT(@bytes, 255),
   REPEAT(REVERSE(@bytes), 4), REPEAT(@bytes, 257), REPEAT(@bytes, 80), 'all256'),
  (UNHEX(REPEAT('00', 16)), 2, 'ab', '', '', '', '', '', ''),
  (UNHEX('275C220D0A1A00095C5C2727000000FF'), 3, UNHEX('0D0A0900'),
   UNHEX('C327E05CF09F2722C30AE2805CF0E29C'), CAST(@esc AS BINARY), CAST(@utf8 AS BINARY),
   UNHEX('5C5C5C00000027'), UNHEX('1A1A0D0D0A0A'), UNHEX('00FF5C27')),
  (UNHEX(REPEAT('FF', 16)), 4, UNHEX('FFFFFFFF'), UNHEX('80'), UNHEX('C0'), UNHEX('FE'), UNHEX('FF'), UNHEX('00'), 'ff');
INSERT INTO t_bin (id, seq) VALUES (UNHEX('7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F7F'), 5);
INSERT INTO t_bin (id, seq, b4, vb, tb, bl, tag)
  SELECT UNHEX(MD5(CONCAT('dumptest-', seq))), seq, UNHEX(LEFT(MD5(seq), 8)),
         REPEAT(UNHEX(MD5(seq)), seq % 5), IF(seq % 3 = 0, NULL, UNHEX(SHA1(seq))),
         IF(seq % 7 = 0, NULL, UNHEX(SHA2(seq, 512))), CAST(CONCAT('g', seq) AS BINARY)
  FROM seq_10_to_49;

-- Dates and times, keyed by a composite primary key (DATE, SMALLINT).
-- `modified` is always given explicitly (its default is CURRENT_TIMESTAMP).
CREATE TABLE t_time (
  day      DATE NOT NULL,
  n        SMALLINT NOT NULL,
  d        DATE NULL,
  dt       DATETIME NULL,
  dt6      DATETIME(6) NULL,
  ts       TIMESTAMP NULL,
  modified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  created  DATETIME NOT NULL DEFAULT '2000-01-01 00:00:00',
  label    VARCHAR(30) NOT NULL DEFAULT '',
  PRIMARY KEY (day, n),
  KEY k_ts (ts),
  UNIQUE KEY uk_label_n (label, n)
) ENGINE=InnoDB;
INSERT INTO t_time (day, n, d, dt, dt6, ts, modified, created, label) VALUES
  ('2024-02-29', 1, '2024-02-29', '2024-02-29 23:59:59', '2024-02-29 23:59:59.999999',
   '2024-02-29 12:00:00', '2024-03-01 00:00:00', '2024-02-29 00:00:00', 'leap-day'),
  ('2024-02-29', -2, '2024-03-01', '2024-03-01 00:00:00', '2024-03-01 00:00:00.000001',
   '2024-03-01 00:00:00', '2024-03-01 00:00:01', '2024-03-01 00:00:00', 'leap-day'),
  ('1000-01-01', 1, '1000-01-01', '1000-01-01 00:00:00', '1000-01-01 00:00:00.000000',
   '1970-01-01 00:00:01', '1970-01-01 00:00:01', '1000-01-01 00:00:00', 'minimum'),
  ('9999-12-31', 32767, '9999-12-31', '9999-12-31 23:59:59', '9999-12-31 23:59:59.999999',
   '2038-01-19 03:14:07', '2038-01-19 03:14:07', '9999-12-31 23:59:59', 'maximum'),
  ('2000-01-01', -32768, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000000',
   '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', 'zero-dates'),
  ('2001-02-03', 4, '2001-02-03', '2001-02-03 04:05:06', '2001-02-03 04:05:06.500000',
   '2001-02-03 04:05:06', '2001-02-03 04:05:06', '2001-02-03 04:05:06', 'half-second');
INSERT INTO t_time (day, n, modified, label) VALUES ('2000-01-01', 0, '2000-01-01 00:00:00', 'nulls-and-defaults');
INSERT INTO t_time (day, n, d, dt, dt6, ts, modified, created, label)
  SELECT DATE('2020-01-01') + INTERVAL (seq DIV 3) DAY, seq % 3,
         DATE('1999-12-31') + INTERVAL (seq * 97) DAY,
         TIMESTAMP('2020-01-01 00:00:00') + INTERVAL (seq * 3607) SECOND,
         TIMESTAMP('2020-01-01 00:00:00') + INTERVAL (seq * 1000003) MICROSECOND,
         IF(seq % 4 = 0, NULL, TIMESTAMP('2020-09-13 12:26:40') + INTERVAL (seq * 86399) SECOND),
         TIMESTAMP('2021-01-01 00:00:00') + INTERVAL seq MINUTE,
         TIMESTAMP('2019-06-30 23:59:59') - INTERVAL seq HOUR,
         CONCAT('gen-', seq)
  FROM seq_1_to_30;

-- sysbench-like, 100000 rows: mariadb-dump (net_buffer_length 16 MiB) writes
-- it as one INSERT of just under 16 MiB plus a second, smaller one. The
-- values are derived from the id and repeat inside a row, so they compress.
CREATE TABLE big (
  id   INT NOT NULL AUTO_INCREMENT,
  k    INT NOT NULL DEFAULT 0,
  c    CHAR(120) NOT NULL DEFAULT '',
  pad  CHAR(60) NOT NULL DEFAULT '',
  PRIMARY KEY (id),
  KEY k_1 (k)
) ENGINE=InnoDB;
INSERT INTO big (k, c, pad)
  SELECT 1 + seq * 7919 % 50000,
         LEFT(REPEAT(CONCAT(LPAD(seq, 11, '0'), '-', LEFT(MD5(seq), 8), '-'), 6), 119),
         REPEAT(CHAR(97 + seq % 26 USING ascii), 59)
  FROM seq_1_to_100000 ORDER BY seq;

-- One row of more than 10 MB: since MariaDB 10.11.x mariadb-dump puts every
-- row of an extended INSERT on a line of its own, so only a huge row makes
-- a line longer than 10 MB.
CREATE TABLE huge (
  id    INT NOT NULL,
  note  VARCHAR(40) NOT NULL,
  body  LONGTEXT NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
INSERT INTO huge VALUES
  (1, 'small, before', 'a short row before the huge one'),
  (2, 'huge', REPEAT(CONCAT('huge row: it''s "quoted", a \\ backslash,', CHAR(9 USING utf8mb4),
                            'tab, é 中 😀, CR', CHAR(13 USING utf8mb4), ' and LF', CHAR(10 USING utf8mb4)),
                     155000)),
  (3, 'small, after', 'a short row after it');
SQL

say "creating database $DB"
sql <"$OUT/create.sql"

mapfile -t TABLES < <(val "SELECT TABLE_NAME FROM information_schema.TABLES
                          WHERE TABLE_SCHEMA = '$DB' ORDER BY TABLE_NAME")
(( ${#TABLES[@]} > 0 )) || die "no tables in $DB"
is_big() { local b; for b in "${BIG_TABLES[@]}"; do [[ $1 == "$b" ]] && return 0; done; return 1; }

# order_by TABLE -> the primary key columns, comma-separated, in key order
order_by() {
    val "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX SEPARATOR ',')
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
        rows=$(val "SELECT COUNT(*) FROM \`$DB\`.\`$t\`")
        if (( save )) && ! is_big "$t"; then
            batch "$t" "$ob" >"$OUT/truth/$t.tsv"
            sum=$(sha256sum <"$OUT/truth/$t.tsv")
        else
            sum=$(batch "$t" "$ob" | sha256sum)
        fi
        printf '%s\t%s\t%s\t%s\n' "$t" "$rows" "${sum%% *}" "$ob" >>"$file"
    done
}

say "computing the ground truth (${TABLES[*]})"
checksums "$OUT/truth/checksums.tsv" 1
VERSION=$(val "SELECT VERSION()")
HUGE_BYTES=$(val "SELECT LENGTH(body) FROM $DB.huge WHERE id = 2")

# ------------------------------------------------------------------ dump ----
# --defaults-file must come first; it only provides the [client] connection
# settings server.sh wrote (user root, the private socket).
DUMP_OPTS=(--net-buffer-length=$NET_BUFFER_LENGTH --databases "$DB")
say "dumping with $(basename "$DUMP") ${DUMP_OPTS[*]}"
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
say "loading the dump back and checking the checksums again"
val "DROP DATABASE $DB" >/dev/null
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
running=0

# ---------------------------------------------------------------- README ----
TABLE_LIST=$(awk -F'\t' 'NR > 1 { printf "| `%s` | %d | `%s` | %s |\n", $1, $2, $4,
             ($1 == "big" || $1 == "huge") ? "checksum only" : "`truth/" $1 ".tsv`" }' "$OUT/truth/checksums.tsv")
SAMPLE_SQL=$(select_sql t_time "day,n")
{
cat <<EOF
# MariaDB dump fixture

A real \`mariadb-dump\` file (\`dump.sql.gz\`) of database \`dumptest\` and the
server's own ground truth for it (\`truth/\`). Generated by
\`datasets/mariadb/make-dump-fixture.sh\` (private instance managed by
\`datasets/mariadb/server.sh\`). Regenerate with:

    scripts/install-deps.sh mariadb     # once, as root or with sudo
    datasets/mariadb/make-dump-fixture.sh tests/data/mariadb-dump

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

say "done: $OUT (dump.sql.gz $GZ_BYTES bytes; longest line $LONGEST_LINE bytes; largest big INSERT $BIG_MAX_STMT bytes)"
