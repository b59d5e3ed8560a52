#!/usr/bin/env bash
# Tables MariaDB encrypted (file_key_management, ENCRYPTED=YES), in both page formats
# (full_crc32, the default, and the older crc32 one) with the plugin's default AES-CBC, and in
# full_crc32 with AES-CTR from a key file that is itself encrypted; with the key files that
# open them, and what the server prints for them.
#
#   make.sh [OUTDIR]     (OUTDIR defaults to tests/data/mariadb-encrypted, where this script is)
#
# Writes (older copies are replaced):
#   OUTDIR/keys.txt                 the key file (file_key_management format: id;hex key)
#   OUTDIR/keys.enc                 the same keys encrypted (openssl enc -aes-256-cbc -md sha1)
#                                   with the secret in OUTDIR/filekey.txt
#   OUTDIR/<format>/enc.ibd.gz      an encrypted table after a slow shutdown, gzip -9 -n
#                                   (format: fcrc32, crc32, or ctr: full_crc32 with AES-CTR)
#   OUTDIR/<format>/enc_pc.ibd.gz   the same rows, encrypted and PAGE_COMPRESSED (zlib)
#   OUTDIR/<format>/*.frm.gz        their .frm
#   OUTDIR/rows.tsv                 mariadb -B: SELECT * ... ORDER BY id (the same for all)
#   OUTDIR/innochecksum.txt         innochecksum's verdict on each file (the peer's)
#
# Reads make.sql beside it: the SQL that builds each table's rows.
#
# Env: PORT (default 33128), KEEP_WORK=1. Needs mariadb-server and mariadb-client (Debian 12: 10.11), gzip,
# openssl.
set -euo pipefail

PORT=${PORT:-33128}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-encrypted "$@"

# A fixed key: the fixture is for reading, not secrecy.
echo "1;4720320ba9159608423abedbfafe9625b3e5cf6d380ee9c91c51129512e2fd14" > "$OUT/keys.txt"
echo "strata-fixture-secret" > "$OUT/filekey.txt"
openssl enc -aes-256-cbc -md sha1 -pass file:"$OUT/filekey.txt" -in "$OUT/keys.txt" -out "$OUT/keys.enc" 2>/dev/null

fixture_inputs make.sql

for format in fcrc32 crc32 ctr; do
    checksum=full_crc32
    [ $format = crc32 ] && checksum=crc32
    keys="file_key_management_filename=$OUT/keys.txt"
    [ $format = ctr ] && keys="file_key_management_filename=$OUT/keys.enc
file_key_management_filekey=FILE:$OUT/filekey.txt
file_key_management_encryption_algorithm=aes_ctr"
    SERVER_EXTRA_CNF="plugin_load_add=file_key_management
$keys
innodb_checksum_algorithm=$checksum" start_instance "$WORK/$format" "$PORT"
    run() { sqlin "$WORK/$format" "$@"; }
    run -e "CREATE DATABASE e"
    for t in enc enc_pc; do
        { echo "SET GLOBAL innodb_compression_algorithm=zlib; USE e;"
          fixture_sql_for $t "$HERE/make.sql" |
            if [ $t = enc_pc ]; then sed 's/ENCRYPTED=YES/PAGE_COMPRESSED=1 ENCRYPTED=YES/'; else cat; fi
          echo "FLUSH TABLES $t FOR EXPORT; UNLOCK TABLES;"
        } | run
        run -B e -e "SELECT * FROM $t ORDER BY id" > "$WORK/$format-$t.tsv"
        fixture_same_rows "$WORK/$format-$t.tsv" "$format/$t"
    done
    run -e "SET GLOBAL innodb_fast_shutdown=0"
    "$SERVER" stop "$WORK/$format" >&2
    mkdir -p "$OUT/$format"
    for t in enc enc_pc; do fixture_keep_table "$WORK/$format/data/e/$t.ibd" "$OUT/$format/$t" "$format/$t.ibd"; done
done > "$OUT/innochecksum.txt"
mv "$OUT/rows.tsv.new" "$OUT/rows.tsv"
log "$(($(wc -l < "$OUT/rows.tsv") - 1)) rows in each table"
cat "$OUT/innochecksum.txt" >&2
