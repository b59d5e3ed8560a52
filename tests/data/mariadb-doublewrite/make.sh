START_TIMEOUT=60 start_instance "$RECOVER" "$PORT" || STARTED=no#!/usr/bin/env bash
# Build a MariaDB doublewrite fixture with a real server, and what the server itself did with it:
#
#   OUTDIR/ibdata1.gz, OUTDIR/ib_logfile0.gz, OUTDIR/dw/t.ibd.gz
#       the files of an instance killed with SIGKILL while two clients updated dw.t and the page
#       cleaner flushed through the doublewrite area; then, in dw/t.ibd, the second half of
#       every page that has a copy in the area zeroed (a write torn by the crash)
#   OUTDIR/truth/recovered.tsv
#       space and page of every "Recovered page [page id: ...] from the doublewrite buffer"
#       line the server logged when a copy of exactly these files was started
#   OUTDIR/truth/unrecoverable.tsv
#       file and page of every "Unable to apply log to corrupted page" line (no copy it accepts)
#   OUTDIR/truth/log.tsv
#       its crash recovery lines (checkpoint, end of log), errors, rows and CHECK TABLE afterwards
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb-doublewrite, where this script is)
#
# Env: PORT (default 33071), SECONDS_OF_UPDATES (default 4), KEEP_WORK=1.
# Needs: mariadb-server + mariadb-client (Debian 12: 10.11), python3, gzip.
set -euo pipefail

PORT=${PORT:-33071}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-mariadb-dblwr "$@"
UPDATE_SECONDS=${SECONDS_OF_UPDATES:-4}

# The smallest log keeps the fixture small; a page cleaner that flushes all the time fills
# the doublewrite area with copies newer than the checkpoint.
export SERVER_EXTRA_CNF="innodb_log_file_size=4M
innodb_max_dirty_pages_pct_lwm=0.001
innodb_max_dirty_pages_pct=0"


MAIN=$WORK/main
start_instance "$MAIN" "$PORT"
VERSION=$(val "$MAIN" "SELECT VERSION()")
sqlin "$MAIN" -e "CREATE DATABASE dw; CREATE TABLE dw.t (id INT PRIMARY KEY AUTO_INCREMENT, a INT NOT NULL,
    b VARCHAR(120) NOT NULL, KEY (a)) ENGINE=InnoDB; USE dw;
  INSERT INTO dw.t (a, b) SELECT seq * 7919 % 100003, REPEAT(CHAR(65 + seq % 26), 60 + seq % 60) FROM seq_1_to_12000"

# Two clients change rows all over the table until the kill.
for c in 1 2; do
    python3 - "$c" >"$WORK/upd$c.sql" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
for _ in range(200000):
    x = r.randint(1, 12000)
    if r.random() < 0.8:
        print(f"UPDATE dw.t SET a = a + 1, b = CONCAT(LEFT(b, 100), '{r.randint(0, 9)}') WHERE id BETWEEN {x} AND {x + r.randint(0, 40)};")
    else:
        print(f"INSERT INTO dw.t (a, b) VALUES ({x}, REPEAT('n', {r.randint(10, 110)}));")
PY
    sqlin "$MAIN" --force <"$WORK/upd$c.sql" >/dev/null 2>&1 &
done
sleep "$UPDATE_SECONDS"
PID=$(cat "$MAIN/mariadbd.pid")
DBLWR_WRITES=$(val "$MAIN" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_DBLWR_PAGES_WRITTEN'")
kill -9 "$PID"
while kill -0 "$PID" 2>/dev/null; do sleep 0.2; done
running=()
wait 2>/dev/null || true
log "killed mariadbd ($VERSION) after ${UPDATE_SECONDS}s of updates; Innodb_dblwr_pages_written was $DBLWR_WRITES"

# Tear every page of dw/t.ibd that has a copy in the doublewrite area.
CRASHED=$WORK/crashed
mkdir -p "$CRASHED"
cp -a "$MAIN/data" "$CRASHED/data"
python3 - "$CRASHED/data" >"$WORK/torn.tsv" <<'PY'
import struct, sys
data = sys.argv[1]
ps = 16384
with open(f"{data}/ibdata1", "rb") as f:
    f.seek(5 * ps)
    trx = f.read(ps)
hdr = ps - 200
magic, block1, block2 = struct.unpack_from(">III", trx, hdr + 10)
assert magic == 0x1FFFBD5F, "no doublewrite area"
with open(f"{data}/dw/t.ibd", "r+b") as t:
    space = struct.unpack_from(">I", t.read(ps), 34)[0]
    torn = set()
    with open(f"{data}/ibdata1", "rb") as f:
        for slot in range(128):
            f.seek((block1 + slot if slot < 64 else block2 + slot - 64) * ps)
            copy = f.read(ps)
            if struct.unpack_from(">I", copy, 34)[0] != space or not any(copy):
                continue
            page = struct.unpack_from(">I", copy, 4)[0]
            if page in torn or page == 0:
                continue
            t.seek(page * ps + ps // 2)
            t.write(bytes(ps // 2))
            torn.add(page)
    print("space\tpage")
    for p in sorted(torn):
        print(f"{space}\t{p}")
PY
log "tore $(($(wc -l <"$WORK/torn.tsv") - 1)) pages of dw/t.ibd that have doublewrite copies"

# What the server does with exactly these files.
RECOVER=$WORK/recover
mkdir -p "$RECOVER"
cp -a "$CRASHED/data" "$RECOVER/data"
# A torn page with no copy recovery accepts stops it ("Unable to apply log to corrupted
# page"): the server then does not start, which is part of what it reports.
STARTED=yes
START_TIMEOUT=60 start_instance "$RECOVER" "$PORT" || STARTED=no
ERR=$RECOVER/mariadbd.err
rm -rf "$OUT/truth" "$OUT/dw"
mkdir -p "$OUT/truth" "$OUT/dw"
{
    printf 'space\tpage\n'
    sed -n 's/.*Recovered page \[page id: space=\([0-9]*\), page number=\([0-9]*\)\].*doublewrite.*/\1\t\2/p' "$ERR" | sort -n -k2 -u
} >"$OUT/truth/recovered.tsv"
{
    printf 'file\tpage\n'
    sed -n 's/.*Unable to apply log to corrupted page \([0-9]*\) in file \(.*\)$/\2\t\1/p' "$ERR" | sort -u
} >"$OUT/truth/unrecoverable.tsv"
ROWS=- CHECK=-
if [[ $STARTED == yes ]]; then
    ROWS=$(val "$RECOVER" "SELECT COUNT(*) FROM dw.t")
    CHECK=$(val "$RECOVER" "CHECK TABLE dw.t" | cut -f4 | paste -sd' ' -)
fi
{
    printf 'key\tvalue\n'
    printf 'server_version\t%s\n' "$VERSION"
    printf 'dblwr_pages_written_before_kill\t%s\n' "$DBLWR_WRITES"
    printf 'torn_pages\t%s\n' "$(($(wc -l <"$WORK/torn.tsv") - 1))"
    printf 'recovery_checkpoint_lsn\t%s\n' "$(sed -n 's/.*from checkpoint LSN=\([0-9]*\).*/\1/p' "$ERR" | head -1)"
    printf 'recovery_end_of_log_lsn\t%s\n' "$(sed -n 's/.*End of log at LSN=\([0-9]*\).*/\1/p' "$ERR" | head -1)"
    printf 'recovered_from_doublewrite\t%s\n' "$(($(wc -l <"$OUT/truth/recovered.tsv") - 1))"
    printf 'server_started\t%s\n' "$STARTED"
    printf 'unrecoverable_pages\t%s\n' "$(($(wc -l <"$OUT/truth/unrecoverable.tsv") - 1))"
    printf 'errlog_errors\t%s\n' "$(grep '\[ERROR\]' "$ERR" | sed 's/^[0-9: -]* 0 //' | paste -sd'|' -)"
    printf 'rows_after_recovery\t%s\n' "$ROWS"
    printf 'check_table_after_recovery\t%s\n' "$CHECK"
} >"$OUT/truth/log.tsv"
[[ $STARTED == yes ]] && "$SERVER" stop "$RECOVER" >&2
running=()

gzip -9 -n -c "$CRASHED/data/ibdata1" >"$OUT/ibdata1.gz"
gzip -9 -n -c "$CRASHED/data/ib_logfile0" >"$OUT/ib_logfile0.gz"
gzip -9 -n -c "$CRASHED/data/dw/t.ibd" >"$OUT/dw/t.ibd.gz"
cp "$WORK/torn.tsv" "$OUT/truth/torn.tsv"
cat >"$OUT/README.md" <<MD
# MariaDB doublewrite fixture

Made by \`tests/data/mariadb-doublewrite/make.sh\` with
$VERSION (Debian 12): dw.t (12,000 rows) updated by two clients while the page cleaner flushed
through the doublewrite area (ibdata1 pages 64-191), then SIGKILL. In dw/t.ibd the second half
of every page with a copy in the area was then zeroed, as a torn write leaves it
(\`truth/torn.tsv\`). A copy of these very files was started: the server's crash recovery
restored the pages in \`truth/recovered.tsv\` from the doublewrite buffer (its error log's
"Recovered page" lines), and gave up on those in \`truth/unrecoverable.tsv\` ("Unable to apply
log to corrupted page": no copy it accepts, as MariaDB takes only copies from the checkpoint to
the end of the log), in which case it does not start. \`truth/log.tsv\` has its checkpoint and
end-of-log LSNs and its errors (and the rows and CHECK TABLE when it started).
MD
log "done: $(cat "$OUT/truth/log.tsv" | tr '\n' ' ')"
