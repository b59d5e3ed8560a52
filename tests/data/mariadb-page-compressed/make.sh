#!/usr/bin/env bash
# PAGE_COMPRESSED=1 tables written by a real MariaDB: one per algorithm its Debian build can
# load (zlib built in; lz4, lzo, lzma, bzip2 and snappy through the mariadb-plugin-provider-*
# packages), in both page formats (full_crc32, the default since 10.5, and the older crc32
# one, whose pages name their algorithm each: pc_mixed holds pages of two), and what the
# server prints for them.
#
#   make.sh [OUTDIR]     (OUTDIR defaults to tests/data/mariadb-page-compressed, where this script is)
#
# Writes (older copies are replaced):
#   OUTDIR/<format>/pc_<algo>.ibd.gz     the file after a slow shutdown, gzip -9 -n
#   OUTDIR/<format>/pc_<algo>.frm.gz     its .frm
#   OUTDIR/rows.tsv                      mariadb -B: SELECT * ... ORDER BY id (every table
#                                        holds the same rows; the script checks it)
#   OUTDIR/innochecksum.txt              innochecksum's verdict on each file (the peer's)
#
# Reads make.sql beside it: the SQL that builds each table's rows (600 rows: short and long
# text, some off-page onto BLOB pages that are page-compressed too, NULLs; every 13th deleted and
# every 7th updated after the load).
#
# Env: PORT (default 33126), KEEP_WORK=1. Needs mariadb-server, mariadb-client, the provider plugins
# (scripts/install-deps.sh mariadb), gzip.
set -euo pipefail

PORT=${PORT:-33126}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-pagecomp "$@"

ALGOS="zlib lz4 lzo lzma bzip2 snappy"
PLUGINS="plugin_load_add=provider_lz4
plugin_load_add=provider_lzo
plugin_load_add=provider_lzma
plugin_load_add=provider_bzip2
plugin_load_add=provider_snappy"

fixture_inputs make.sql

for format in fcrc32 crc32; do
    checksum=full_crc32
    [ $format = crc32 ] && checksum=crc32
    SERVER_EXTRA_CNF="$PLUGINS
innodb_checksum_algorithm=$checksum" start_instance "$WORK/$format" "$PORT"
    run() { sqlin "$WORK/$format" "$@"; }
    run -e "CREATE DATABASE pc"
    tables=$ALGOS
    [ $format = crc32 ] && tables="$ALGOS mixed"
    for a in $tables; do
        algo=$a
        [ $a = mixed ] && algo=zlib
        # The algorithm is read when a page is written (crc32 format) or when the table is
        # made (full_crc32): it is set before either, and the table is flushed while it holds.
        { echo "SET GLOBAL innodb_compression_algorithm=$algo; USE pc;"
          fixture_sql_for pc_$a "$HERE/make.sql"
          echo "FLUSH TABLES pc_$a FOR EXPORT; UNLOCK TABLES;"
          if [ $a = mixed ]; then
              # Some pages rewritten with lz4: one file, pages of two algorithms.
              echo "SET GLOBAL innodb_compression_algorithm=lz4;"
              echo "UPDATE pc_$a SET n = n + 1 WHERE id > 500; UPDATE pc_$a SET n = n - 1 WHERE id > 500;"
              echo "FLUSH TABLES pc_$a FOR EXPORT; UNLOCK TABLES;"
          fi
        } | run
        run -B pc -e "SELECT * FROM pc_$a ORDER BY id" > "$WORK/$format-$a.tsv"
        fixture_same_rows "$WORK/$format-$a.tsv" "$format/pc_$a"
    done
    run -e "SET GLOBAL innodb_fast_shutdown=0"
    "$SERVER" stop "$WORK/$format" >&2
    mkdir -p "$OUT/$format"
    for a in $tables; do fixture_keep_table "$WORK/$format/data/pc/pc_$a.ibd" "$OUT/$format/pc_$a" "$format/pc_$a.ibd"; done
done > "$OUT/innochecksum.txt"
mv "$OUT/rows.tsv.new" "$OUT/rows.tsv"
log "$(($(wc -l < "$OUT/rows.tsv") - 1)) rows in each table"
cat "$OUT/innochecksum.txt" >&2
