#!/usr/bin/env bash
# ROW_FORMAT=COMPRESSED tables written by a real MariaDB, one per KEY_BLOCK_SIZE (1, 2, 4, 8
# and 16 KiB pages), and what the server prints for them. Each table has a primary key, a
# secondary index, short and off-page values, NULLs, and rows deleted and updated after the
# load, so its pages carry a modification log, a free list and BLOB pointers as well as the
# compressed stream.
#
#   make-compressed-fixture.sh OUTDIR       (normally tests/data/mariadb-compressed)
#
# Writes (older copies are replaced):
#   OUTDIR/make.sql              the SQL that built the tables
#   OUTDIR/zip<K>.sql            SHOW CREATE TABLE zip<K>
#   OUTDIR/zip<K>.ibd.gz, .frm.gz   the files after a slow shutdown, gzip -9 -n
#   OUTDIR/zip1.tsv, zip.tsv     mariadb -B: SELECT * FROM zip<K> ORDER BY id (zip.tsv for 2-16
#                                KiB, whose rows are the same)
#   OUTDIR/innochecksum.txt      innochecksum's verdict on each file (the peer's, not ours)
#
# Env: PORT (default 33124). Needs mariadb-server + mariadb-client (Debian 12: 10.11), gzip.
# MariaDB 10.6+ opens compressed tables read-only unless innodb_read_only_compressed=OFF.
set -euo pipefail

prog=$(basename "$0")
HERE=$(cd "$(dirname "$0")" && pwd -P)
SERVER=$HERE/server.sh
[[ $# -eq 1 && $1 != -* ]] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
mkdir -p "$1"
OUT=$(cd "$1" && pwd -P)
PORT=${PORT:-33124}
WORK=$(mktemp -d /tmp/strata-zip.XXXXXX)
cleanup() {
    local rc=$?
    "$SERVER" stop "$WORK" >/dev/null 2>&1 || true
    rm -rf "$WORK"
    exit $rc
}
trap cleanup EXIT

SERVER_EXTRA_CNF="innodb_read_only_compressed=OFF
character_set_server=utf8mb4" "$SERVER" start "$WORK" "$PORT" >&2
run() { "$SERVER" sql "$WORK" --default-character-set=utf8mb4 "$@"; }

{
    echo "CREATE DATABASE zipdb;"
    echo "USE zipdb;"
    for k in 1 2 4 8 16; do
        # 1 KiB pages hold short rows only: their text is shorter and their key narrower.
        width=$((k == 1 ? 20 : 120))
        cat <<SQL
CREATE TABLE zip$k (
  id INT NOT NULL PRIMARY KEY,
  v VARCHAR($width),
  n BIGINT,
  b BLOB,
  KEY by_v (v(10))
) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$k DEFAULT CHARSET=utf8mb4;
INSERT INTO zip$k SELECT seq, LEFT(CONCAT('row ', seq, ' ', REPEAT(CHAR(97 + seq % 26), seq % 90)), $width),
  IF(seq % 11 = 0, NULL, CAST(seq AS SIGNED) * 7919 - 500000),
  CASE WHEN seq % 50 = 0 AND $k > 1 THEN REPEAT(CONCAT('blob', seq), 900) WHEN seq % 3 = 0 THEN 'short' ELSE NULL END
  FROM seq_1_to_1200;
DELETE FROM zip$k WHERE id % 7 = 0;
UPDATE zip$k SET v = LEFT(CONCAT(v, ' updated'), $width), n = -n WHERE id % 5 = 0;
INSERT INTO zip$k VALUES (5000, 'after the deletes', 1, NULL);
SQL
    done
} > "$OUT/make.sql"
run < "$OUT/make.sql"
for k in 1 2 4 8 16; do
    run -B zipdb -e "SELECT * FROM zip$k ORDER BY id" > "$OUT/zip$k.tsv"
    # 2-16 KiB tables hold the same rows: one copy of their output is kept, as zip.tsv.
    if [[ $k -gt 2 ]]; then cmp -s "$OUT/zip2.tsv" "$OUT/zip$k.tsv" || { echo "$prog: zip$k differs from zip2" >&2; exit 1; }; fi
    run -N zipdb -e "SHOW CREATE TABLE zip$k" | cut -f2- | sed 's/\\n/\n/g' > "$OUT/zip$k.sql"
    echo ";" >> "$OUT/zip$k.sql"
    echo "$prog: zip$k: $(($(wc -l < "$OUT/zip$k.tsv") - 1)) rows" >&2
done
mv "$OUT/zip2.tsv" "$OUT/zip.tsv"
rm -f "$OUT"/zip[48].tsv "$OUT/zip16.tsv"
"$SERVER" stop "$WORK" >&2
: > "$OUT/innochecksum.txt"
for k in 1 2 4 8 16; do
    f=$WORK/data/zipdb/zip$k.ibd
    if innochecksum "$f" >/dev/null 2>&1; then echo "zip$k.ibd: innochecksum exit 0" >> "$OUT/innochecksum.txt"
    else echo "zip$k.ibd: innochecksum exit $?" >> "$OUT/innochecksum.txt"; fi
    gzip -9 -n -c "$f" > "$OUT/zip$k.ibd.gz"
    gzip -9 -n -c "$WORK/data/zipdb/zip$k.frm" > "$OUT/zip$k.frm.gz"
done
cat "$OUT/innochecksum.txt" >&2
