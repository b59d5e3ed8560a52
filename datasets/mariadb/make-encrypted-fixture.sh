#!/usr/bin/env bash
# Tables MariaDB encrypted (file_key_management, ENCRYPTED=YES), in both page formats
# (full_crc32, the default, and the older crc32 one) with the plugin's default AES-CBC, and in
# full_crc32 with AES-CTR from a key file that is itself encrypted; with the key files that
# open them, and what the server prints for them.
#
#   make-encrypted-fixture.sh OUTDIR     (normally tests/data/mariadb-encrypted)
#
# Writes (older copies are replaced):
#   OUTDIR/make.sql                 the SQL that built each table's rows
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
# Env: PORT (default 33128). Needs mariadb-server and mariadb-client (Debian 12: 10.11), gzip,
# openssl.
set -euo pipefail

prog=$(basename "$0")
HERE=$(cd "$(dirname "$0")" && pwd -P)
SERVER=$HERE/server.sh
[[ $# -eq 1 && $1 != -* ]] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
mkdir -p "$1"
OUT=$(cd "$1" && pwd -P)
PORT=${PORT:-33128}
WORK=$(mktemp -d /tmp/strata-encrypted.XXXXXX)
cleanup() {
    local rc=$?
    for f in fcrc32 crc32 ctr; do "$SERVER" stop "$WORK/$f" >/dev/null 2>&1 || true; done
    rm -rf "$WORK"
    exit $rc
}
trap cleanup EXIT

# A fixed key: the fixture is for reading, not secrecy.
echo "1;4720320ba9159608423abedbfafe9625b3e5cf6d380ee9c91c51129512e2fd14" > "$OUT/keys.txt"
echo "strata-fixture-secret" > "$OUT/filekey.txt"
openssl enc -aes-256-cbc -md sha1 -pass file:"$OUT/filekey.txt" -in "$OUT/keys.txt" -out "$OUT/keys.enc" 2>/dev/null

cat > "$OUT/make.sql" <<'SQL'
CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(200), n BIGINT, b BLOB) ENGINE=InnoDB ENCRYPTED=YES ENCRYPTION_KEY_ID=1;
INSERT INTO t SELECT seq, CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 150)),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 300000),
  CASE WHEN seq % 40 = 0 THEN REPEAT(CONCAT(MD5(seq), SHA1(seq)), 120) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_600;
DELETE FROM t WHERE id % 13 = 0;
UPDATE t SET v = CONCAT('updated ', id), n = -n WHERE id % 7 = 0;
SQL

for format in fcrc32 crc32 ctr; do
    checksum=full_crc32
    [ $format = crc32 ] && checksum=crc32
    keys="file_key_management_filename=$OUT/keys.txt"
    [ $format = ctr ] && keys="file_key_management_filename=$OUT/keys.enc
file_key_management_filekey=FILE:$OUT/filekey.txt
file_key_management_encryption_algorithm=aes_ctr"
    SERVER_EXTRA_CNF="plugin_load_add=file_key_management
$keys
innodb_checksum_algorithm=$checksum" "$SERVER" start "$WORK/$format" "$PORT" >&2
    run() { "$SERVER" sql "$WORK/$format" "$@"; }
    run -e "CREATE DATABASE e"
    for t in enc enc_pc; do
        { echo "SET GLOBAL innodb_compression_algorithm=zlib; USE e;"
          sed "s/TABLE t /TABLE $t /; s/INTO t /INTO $t /; s/FROM t /FROM $t /; s/UPDATE t /UPDATE $t /" "$OUT/make.sql" |
            if [ $t = enc_pc ]; then sed 's/ENCRYPTED=YES/PAGE_COMPRESSED=1 ENCRYPTED=YES/'; else cat; fi
          echo "FLUSH TABLES $t FOR EXPORT; UNLOCK TABLES;"
        } | run
        run -B e -e "SELECT * FROM $t ORDER BY id" > "$WORK/$format-$t.tsv"
        if [ -f "$OUT/rows.tsv.new" ]; then
            cmp -s "$OUT/rows.tsv.new" "$WORK/$format-$t.tsv" || { echo "$prog: $format/$t differs" >&2; exit 1; }
        else
            cp "$WORK/$format-$t.tsv" "$OUT/rows.tsv.new"
        fi
    done
    run -e "SET GLOBAL innodb_fast_shutdown=0"
    "$SERVER" stop "$WORK/$format" >&2
    mkdir -p "$OUT/$format"
    for t in enc enc_pc; do
        f=$WORK/$format/data/e/$t.ibd
        if innochecksum "$f" >/dev/null 2>&1; then echo "$format/$t.ibd: innochecksum exit 0"
        else echo "$format/$t.ibd: innochecksum exit $?"; fi
        gzip -9 -n -c "$f" > "$OUT/$format/$t.ibd.gz"
        gzip -9 -n -c "$WORK/$format/data/e/$t.frm" > "$OUT/$format/$t.frm.gz"
    done
done > "$OUT/innochecksum.txt"
mv "$OUT/rows.tsv.new" "$OUT/rows.tsv"
echo "$prog: $(($(wc -l < "$OUT/rows.tsv") - 1)) rows in each table" >&2
cat "$OUT/innochecksum.txt" >&2
