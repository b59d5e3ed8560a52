#!/usr/bin/env bash
# ROW_FORMAT=COMPRESSED tables written by a real MariaDB, one per KEY_BLOCK_SIZE (1, 2, 4, 8
# and 16 KiB pages), and what the server prints for them. Each table has a primary key, a
# secondary index, short and off-page values, NULLs, and rows deleted and updated after the
# load, so its pages carry a modification log, a free list and BLOB pointers as well as the
# compressed stream.
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb-compressed, where this script is)
#
# Writes (older copies are replaced):
#   OUTDIR/show-create.sql       SHOW CREATE TABLE of each table
#   OUTDIR/zip<K>.ibd.gz, .frm.gz   the files after a slow shutdown, gzip -9 -n
#   OUTDIR/zip1.tsv, zip.tsv     mariadb -B: SELECT * FROM zip<K> ORDER BY id (zip.tsv for 2-16
#                                KiB, whose rows are the same)
#   OUTDIR/innochecksum.txt      innochecksum's verdict on each file (the peer's, not ours)
#
# Reads make.sql beside it, the SQL that builds the tables (one CREATE, INSERT, DELETE and UPDATE
# per KEY_BLOCK_SIZE).
#
# Env: PORT (default 33124), KEEP_WORK=1. Needs mariadb-server + mariadb-client (Debian 12: 10.11), gzip.
# MariaDB 10.6+ opens compressed tables read-only unless innodb_read_only_compressed=OFF.
set -euo pipefail

PORT=${PORT:-33124}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-zip "$@"

SERVER_EXTRA_CNF="innodb_read_only_compressed=OFF
character_set_server=utf8mb4" start_instance "$WORK" "$PORT"
run() { sqlin "$WORK" --default-character-set=utf8mb4 "$@"; }

fixture_inputs make.sql
rm -f "$OUT/show-create.sql"
run < "$HERE/make.sql"
for k in 1 2 4 8 16; do
    run -B zipdb -e "SELECT * FROM zip$k ORDER BY id" > "$OUT/zip$k.tsv"
    # 2-16 KiB tables hold the same rows: one copy of their output is kept, as zip.tsv.
    if [[ $k -gt 2 ]]; then cmp -s "$OUT/zip2.tsv" "$OUT/zip$k.tsv" || die "zip$k differs from zip2"; fi
    run -N zipdb -e "SHOW CREATE TABLE zip$k" | cut -f2- | sed 's/\\n/\n/g' >> "$OUT/show-create.sql"
    echo ";" >> "$OUT/show-create.sql"
    log "zip$k: $(($(wc -l < "$OUT/zip$k.tsv") - 1)) rows"
done
mv "$OUT/zip2.tsv" "$OUT/zip.tsv"
rm -f "$OUT"/zip[48].tsv "$OUT/zip16.tsv"
"$SERVER" stop "$WORK" >&2
: > "$OUT/innochecksum.txt"
for k in 1 2 4 8 16; do
    fixture_keep_table "$WORK/data/zipdb/zip$k.ibd" "$OUT/zip$k" "zip$k.ibd" >> "$OUT/innochecksum.txt"
done
cat "$OUT/innochecksum.txt" >&2
