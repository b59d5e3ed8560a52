#!/usr/bin/env bash
# PAGE_COMPRESSED=1 tables written by a real MariaDB: one per algorithm its Debian build can
# load (zlib built in; lz4, lzo, lzma, bzip2 and snappy through the mariadb-plugin-provider-*
# packages), in both page formats (full_crc32, the default since 10.5, and the older crc32
# one, whose pages name their algorithm each: pc_mixed holds pages of two), and what the
# server prints for them.
#
#   make-page-compressed-fixture.sh OUTDIR     (normally tests/data/mariadb-page-compressed)
#
# Writes (older copies are replaced):
#   OUTDIR/make.sql                      the SQL that built each table's rows
#   OUTDIR/<format>/pc_<algo>.ibd.gz     the file after a slow shutdown, gzip -9 -n
#   OUTDIR/<format>/pc_<algo>.frm.gz     its .frm
#   OUTDIR/rows.tsv                      mariadb -B: SELECT * ... ORDER BY id (every table
#                                        holds the same rows; the script checks it)
#   OUTDIR/innochecksum.txt              innochecksum's verdict on each file (the peer's)
#
# Env: PORT (default 33126). Needs mariadb-server, mariadb-client, the provider plugins
# (scripts/install-deps.sh mariadb), gzip.
set -euo pipefail

prog=$(basename "$0")
HERE=$(cd "$(dirname "$0")" && pwd -P)
SERVER=$HERE/server.sh
[[ $# -eq 1 && $1 != -* ]] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
mkdir -p "$1"
OUT=$(cd "$1" && pwd -P)
PORT=${PORT:-33126}
WORK=$(mktemp -d /tmp/strata-pagecomp.XXXXXX)
cleanup() {
    local rc=$?
    for f in fcrc32 crc32; do "$SERVER" stop "$WORK/$f" >/dev/null 2>&1 || true; done
    rm -rf "$WORK"
    exit $rc
}
trap cleanup EXIT

ALGOS="zlib lz4 lzo lzma bzip2 snappy"
PLUGINS="plugin_load_add=provider_lz4
plugin_load_add=provider_lzo
plugin_load_add=provider_lzma
plugin_load_add=provider_bzip2
plugin_load_add=provider_snappy"

# 600 rows: short and long text (some rows' values go off-page, onto BLOB pages that are
# page-compressed too), NULLs; every 13th deleted and every 7th updated after the load.
cat > "$OUT/make.sql" <<'SQL'
CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(200), n BIGINT, b BLOB) ENGINE=InnoDB PAGE_COMPRESSED=1;
INSERT INTO t SELECT seq, CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 150)),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 300000),
  CASE WHEN seq % 40 = 0 THEN REPEAT(CONCAT(MD5(seq), SHA1(seq)), 120) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_600;
DELETE FROM t WHERE id % 13 = 0;
UPDATE t SET v = CONCAT('updated ', id), n = -n WHERE id % 7 = 0;
SQL

for format in fcrc32 crc32; do
    checksum=full_crc32
    [ $format = crc32 ] && checksum=crc32
    SERVER_EXTRA_CNF="$PLUGINS
innodb_checksum_algorithm=$checksum" "$SERVER" start "$WORK/$format" "$PORT" >&2
    run() { "$SERVER" sql "$WORK/$format" "$@"; }
    run -e "CREATE DATABASE pc"
    tables=$ALGOS
    [ $format = crc32 ] && tables="$ALGOS mixed"
    for a in $tables; do
        algo=$a
        [ $a = mixed ] && algo=zlib
        # The algorithm is read when a page is written (crc32 format) or when the table is
        # made (full_crc32): it is set before either, and the table is flushed while it holds.
        { echo "SET GLOBAL innodb_compression_algorithm=$algo; USE pc;"
          sed "s/TABLE t /TABLE pc_$a /; s/INTO t /INTO pc_$a /; s/FROM t /FROM pc_$a /; s/UPDATE t /UPDATE pc_$a /" "$OUT/make.sql"
          echo "FLUSH TABLES pc_$a FOR EXPORT; UNLOCK TABLES;"
          if [ $a = mixed ]; then
              # Some pages rewritten with lz4: one file, pages of two algorithms.
              echo "SET GLOBAL innodb_compression_algorithm=lz4;"
              echo "UPDATE pc_$a SET n = n + 1 WHERE id > 500; UPDATE pc_$a SET n = n - 1 WHERE id > 500;"
              echo "FLUSH TABLES pc_$a FOR EXPORT; UNLOCK TABLES;"
          fi
        } | run
        run -B pc -e "SELECT * FROM pc_$a ORDER BY id" > "$WORK/$format-$a.tsv"
        if [ -f "$OUT/rows.tsv.new" ]; then
            cmp -s "$OUT/rows.tsv.new" "$WORK/$format-$a.tsv" || { echo "$prog: $format/pc_$a differs" >&2; exit 1; }
        else
            cp "$WORK/$format-$a.tsv" "$OUT/rows.tsv.new"
        fi
    done
    run -e "SET GLOBAL innodb_fast_shutdown=0"
    "$SERVER" stop "$WORK/$format" >&2
    mkdir -p "$OUT/$format"
    for a in $tables; do
        f=$WORK/$format/data/pc/pc_$a.ibd
        if innochecksum "$f" >/dev/null 2>&1; then echo "$format/pc_$a.ibd: innochecksum exit 0"
        else echo "$format/pc_$a.ibd: innochecksum exit $?"; fi
        gzip -9 -n -c "$f" > "$OUT/$format/pc_$a.ibd.gz"
        gzip -9 -n -c "$WORK/$format/data/pc/pc_$a.frm" > "$OUT/$format/pc_$a.frm.gz"
    done
done > "$OUT/innochecksum.txt"
mv "$OUT/rows.tsv.new" "$OUT/rows.tsv"
echo "$prog: $(($(wc -l < "$OUT/rows.tsv") - 1)) rows in each table" >&2
cat "$OUT/innochecksum.txt" >&2
