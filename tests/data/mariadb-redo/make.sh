#!/usr/bin/env bash
# Build MariaDB redo log (ib_logfile0) fixtures with a real server, plus the
# ground truth the server itself reports about them:
#
#   OUTDIR/ib_logfile0.gz, OUTDIR/truth/log.tsv
#       log after a normal shutdown with innodb_fast_shutdown=1 (the log has
#       wrapped around its ring buffer at least once)
#   OUTDIR/crashed/ib_logfile0.gz, OUTDIR/crashed/truth/log.tsv
#       the same instance restarted, more committed INSERTs, then SIGKILL: a log
#       with mini-transactions after its checkpoint (crash recovery needed)
#   OUTDIR/crashed/truth/page_lsns.tsv
#       the pages crash recovery changed: space, page and FIL_PAGE_LSN of every page
#       past the checkpoint once a copy was recovered (innodb_force_recovery=3) and stopped
#   OUTDIR/README.md
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb-redo, where this script is)
#
# The log is made as small as the server accepts (the minimum of
# innodb_log_file_size is probed, 4 MiB in 10.11). Each captured log is also
# checked two ways: an embedded python reader (header and checkpoint CRC-32C,
# mini-transaction walk from the checkpoint to the end of the log) and the
# server itself, started on a copy of the datadir ("End of log at LSN=...",
# "Starting crash recovery from checkpoint LSN=...").
#
# Env: PORT (default 33063; PORT+1 is used for the verification copies),
#      KEEP_WORK=1 keeps the temporary instance directory.
# Needs: mariadb-server + mariadb-client (Debian 12: 10.11), python3, gzip.
set -euo pipefail

PORT=${PORT:-33063}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-mariadb-redo "$@"
warn() { echo "$prog: WARNING: $*" >&2; }
PORT2=$((PORT + 1))
command -v python3 >/dev/null || die "python3 not found"
mariadb_require_server
MARIADBD=$(mariadb_find_tool mariadbd)

# ------------------------------------------- smallest accepted log size -----
# mariadbd clamps a too-small value and says so ("unsigned value 1 adjusted to N").
MIN_LOG_SIZE=$("$MARIADBD" --no-defaults --user="$(id -un)" --innodb-log-file-size=1 --verbose --help 2>/dev/null |
               awk '$1 == "innodb-log-file-size" { print $2 }')
[[ $MIN_LOG_SIZE =~ ^[0-9]+$ ]] || die "could not determine the minimum innodb_log_file_size"
log "smallest innodb_log_file_size accepted by $("$MARIADBD" --version | awk '{print $3}'): $MIN_LOG_SIZE"

export SERVER_EXTRA_CNF="innodb_log_file_size=$MIN_LOG_SIZE
innodb_fast_shutdown=1"

stop_slow() { # server.sh stop = slow shutdown; only for the verification copies
    "$SERVER" stop "$1" >&2
    local d keep=(); for d in "${running[@]}"; do [[ $d == "$1" ]] || keep+=("$d"); done
    running=("${keep[@]}")
}
gstatus() { val "$1" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '$2'"; }
innodb_status() { val "$1" "SHOW ENGINE INNODB STATUS" | cut -f3 | sed 's/\\n/\n/g'; }
# status_vals DIR PREFIX : "key<TAB>value" lines from the LOG section + status variables
status_vals() {
    local s
    s=$(innodb_status "$1")
    printf '%s_lsn\t%s\n'               "$2" "$(sed -n 's/^Log sequence number *\([0-9]*\).*/\1/p' <<<"$s")"
    printf '%s_flushed_lsn\t%s\n'       "$2" "$(sed -n 's/^Log flushed up to *\([0-9]*\).*/\1/p' <<<"$s")"
    printf '%s_pages_flushed_lsn\t%s\n' "$2" "$(sed -n 's/^Pages flushed up to *\([0-9]*\).*/\1/p' <<<"$s")"
    printf '%s_last_checkpoint\t%s\n'   "$2" "$(sed -n 's/^Last checkpoint at *\([0-9]*\).*/\1/p' <<<"$s")"
    val "$1" "SELECT CONCAT('$2_global_', LOWER(VARIABLE_NAME)), VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS
              WHERE VARIABLE_NAME LIKE 'INNODB_LSN%' OR VARIABLE_NAME LIKE 'INNODB_CHECKPOINT%'
              ORDER BY VARIABLE_NAME"
}
kv() { awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$2"; }   # kv KEY FILE
pid_of() { cat "$1/mariadbd.pid"; }
wait_gone() { # wait_gone PID SECONDS
    local i
    for ((i = 0; i < $2 * 5; i++)); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.2; done
    return 1
}
# quiesce DIR : wait until Innodb_lsn_current has not moved for 3 consecutive seconds
quiesce() {
    local i same=0 prev= cur
    for ((i = 0; i < 300; i++)); do
        cur=$(gstatus "$1" INNODB_LSN_CURRENT)
        if [[ $cur == "$prev" ]]; then (( ++same >= 3 )) && return 0; else same=0; fi
        prev=$cur
        sleep 1
    done
    die "LSN did not settle in 300 s (last $cur)"
}

# ------------------------------------------------- python redo log reader ---
# Prints "key<TAB>value" lines. MariaDB 10.8+ format: 12 KiB header area
# (block 0: format, first LSN, creator, CRC-32C at 508; checkpoint blocks at
# 4096 and 8192: checkpoint LSN, end LSN, CRC-32C at 60), then a ring buffer:
# file offset = 12288 + (lsn - first_lsn) % (file_size - 12288).
# Mini-transaction = records + 1 termination byte (the "sequence bit", 1 on
# even passes over the ring buffer, 0 on odd ones) + CRC-32C of the records.
cat >"$WORK/redo-check.py" <<'PY'
import gzip, struct, sys
path = sys.argv[1]
d = (gzip.open if path.endswith('.gz') else open)(path, 'rb').read()
T = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    T.append(c)
def crc32c(b):
    c = 0xffffffff
    for x in b:
        c = T[(c ^ x) & 0xff] ^ (c >> 8)
    return c ^ 0xffffffff
assert crc32c(b'123456789') == 0xe3069283
be32 = lambda b, o: struct.unpack_from('>I', b, o)[0]
be64 = lambda b, o: struct.unpack_from('>Q', b, o)[0]
START = 12288
out = []
put = lambda k, v: out.append((k, v))
put('size', len(d))
put('header_format', '0x%08x %r' % (be32(d, 0), d[0:4].decode('latin-1')))
put('header_bytes_4_7', d[4:8].hex())
first = be64(d, 8)
put('header_first_lsn', first)
put('header_creator', d[16:48].split(b'\0')[0].decode())
put('header_crc32c', '0x%08x %s' % (be32(d, 508), 'ok' if crc32c(d[:508]) == be32(d, 508) else 'BAD'))
put('header_bytes_48_507_all_zero', 'yes' if not any(d[48:508]) else 'no')
cps = []
for off in (4096, 8192):
    b = d[off:off + 64]
    ok = crc32c(b[:60]) == be32(b, 60)
    cps.append((be64(b, 0), be64(b, 8), off, ok))
    put('checkpoint_block_%d' % off, 'checkpoint_lsn=%d end_lsn=%d crc32c=0x%08x %s bytes_16_59_zero=%s'
        % (be64(b, 0), be64(b, 8), be32(b, 60), 'ok' if ok else 'BAD', 'yes' if not any(b[16:60]) else 'no'))
valid = [c for c in cps if c[3]]
if not valid:
    sys.exit('no checkpoint block with a valid CRC-32C')
cp_lsn, cp_end, cp_off, _ = max(valid)
put('newest_checkpoint_block', cp_off)
put('checkpoint_lsn', cp_lsn)
put('checkpoint_end_lsn', cp_end)
cap = len(d) - START
put('ring_capacity', cap)
off = lambda lsn: START + (lsn - first) % cap
byte = lambda lsn: d[off(lsn)]
span = lambda lsn, n: bytes(byte(lsn + i) for i in range(n))
seqbit = lambda lsn: 1 - ((lsn - first) // cap & 1)
def varint(l):
    b = byte(l)
    if b < 0x80: return b
    if b < 0xc0: return ((b & 0x3f) << 8 | byte(l + 1)) + 0x80
    if b < 0xe0: return ((b & 0x1f) << 16 | byte(l + 1) << 8 | byte(l + 2)) + 0x4080
    if b < 0xf0: return ((b & 0x0f) << 24 | byte(l + 1) << 16 | byte(l + 2) << 8 | byte(l + 3)) + 0x204080
    return None
def mtr(lsn):
    """(end_lsn, [(lsn, first byte, length after first byte)]) of the mini-transaction at lsn, or None."""
    l, recs = lsn, []
    while byte(l) > 1:
        b = byte(l)
        n = b & 0x0f
        if n == 0:                          # length = varint + 15 (counting the varint itself)
            v = varint(l + 1)
            if v is None: return None
            n = v + 15
        recs.append((l, b, n))
        l += 1 + n
        if l - lsn > cap: return None
    if not recs or byte(l) != seqbit(l): return None
    if crc32c(span(lsn, l - lsn)) != be32(span(l + 1, 4), 0): return None
    return l + 5, recs
lsn, n_mtr, n_rec, fcp = cp_lsn, 0, 0, []
while True:
    m = mtr(lsn)
    if m is None: break
    end, recs = m
    for (rl, b, n) in recs:
        if b == 0xfa:                       # FILE_CHECKPOINT: 0xf0 | len 10, space 0, page 0, 8-byte LSN
            fcp.append('%d@%d' % (be64(span(rl + 3, 8), 0), rl))
    n_mtr += 1; n_rec += len(recs); lsn = end
put('FILE_CHECKPOINT_records', ' '.join(fcp) or '(none)')   # payload LSN@record LSN, from the checkpoint on
put('mtrs_after_checkpoint', n_mtr)
put('records_after_checkpoint', n_rec)
put('end_of_log_lsn', lsn)
put('byte_at_end_of_log', '0x%02x' % byte(lsn))
put('nonzero_bytes_in_4096_after_end', sum(1 for i in range(4096) if byte(lsn + i)))
put('bytes_after_checkpoint', lsn - cp_lsn)
put('checkpoint_offset', off(cp_lsn))
put('end_of_log_offset', off(lsn))
put('ring_passes_completed_at_end', (lsn - first) // cap)
put('records_span_ring_wrap', 'yes' if (cp_lsn - first) // cap != (lsn - first) // cap else 'no')
for k, v in out:
    print('%s\t%s' % (k, v))
PY

# ------------------------------------------------------ outputs (ours only) --
rm -rf "$OUT/truth" "$OUT/crashed"
rm -f "$OUT/ib_logfile0.gz" "$OUT/README.md"
mkdir -p "$OUT/truth" "$OUT/crashed/truth"

MAIN=$WORK/main
start_instance "$MAIN" "$PORT"
VERSION=$(val "$MAIN" "SELECT VERSION()")
LOG_FILE_SIZE=$(val "$MAIN" "SELECT @@innodb_log_file_size")
LOG_BUFFER_SIZE=$(val "$MAIN" "SELECT @@innodb_log_buffer_size")
FLUSH_AT_COMMIT=$(val "$MAIN" "SELECT @@innodb_flush_log_at_trx_commit")
[[ $LOG_FILE_SIZE == "$MIN_LOG_SIZE" ]] || die "server runs with innodb_log_file_size=$LOG_FILE_SIZE, not $MIN_LOG_SIZE"
[[ $(stat -c %s "$MAIN/data/ib_logfile0") == "$LOG_FILE_SIZE" ]] || die "ib_logfile0 size differs from innodb_log_file_size"
[[ $(val "$MAIN" "SELECT @@innodb_fast_shutdown") == 1 ]] || die "innodb_fast_shutdown is not 1"
CAPACITY=$((LOG_FILE_SIZE - 12288))
log "server $VERSION, innodb_log_file_size=$LOG_FILE_SIZE, LSN after install+start: $(gstatus "$MAIN" INNODB_LSN_CURRENT)"

# ------------------------------------------------------------ workload ------
# Deterministic rows (no UUID()/RAND()); every statement is its own
# autocommit transaction.
sqlin "$MAIN" -e "CREATE DATABASE redo; CREATE TABLE redo.t (
    id INT NOT NULL PRIMARY KEY, k INT NOT NULL, v VARCHAR(255) NOT NULL, KEY k (k)) ENGINE=InnoDB"
for ((i = 1; i <= 3000; i++)); do
    echo "INSERT INTO redo.t VALUES ($i, $((i * 7919 % 10007)), REPEAT(CHAR(97 + $i % 26), $((100 + i % 100))));"
done | sqlin "$MAIN" redo
LSN_AFTER_INSERTS=$(gstatus "$MAIN" INNODB_LSN_CURRENT)
for ((i = 1; i <= 3000; i++)); do
    echo "UPDATE redo.t SET k = k + 1, v = CONCAT('u', v) WHERE id = $(((i * 37) % 3000 + 1));"
done | sqlin "$MAIN" redo
LSN_AFTER_UPDATES=$(gstatus "$MAIN" INNODB_LSN_CURRENT)
log "LSN after 3000 INSERTs: $LSN_AFTER_INSERTS, after 3000 UPDATEs: $LSN_AFTER_UPDATES (ring capacity $CAPACITY)"
(( LSN_AFTER_UPDATES - 12288 > CAPACITY )) || warn "the log has not wrapped (LSN $LSN_AFTER_UPDATES)"
ROWS_CLEAN=$(val "$MAIN" "SELECT CONCAT(COUNT(*), ' rows, max id ', MAX(id)) FROM redo.t")

# ---------------------------------------- clean (fast) shutdown capture -----
quiesce "$MAIN"
status_vals "$MAIN" status >"$WORK/clean.status"
ERR=$MAIN/mariadbd.err
ERR_LINES_BEFORE=$(wc -l <"$ERR")
pid=$(pid_of "$MAIN")
log "SET GLOBAL innodb_fast_shutdown=1; SHUTDOWN (pid $pid)"
sqlin "$MAIN" -e "SET GLOBAL innodb_fast_shutdown=1; SHUTDOWN" 2>/dev/null || true
wait_gone "$pid" 300 || die "server did not stop"
running=()
tail -n +"$((ERR_LINES_BEFORE + 1))" "$ERR" >"$WORK/clean.shutdown.err"
SHUTDOWN_LINE=$(grep -m1 'Shutdown completed; log sequence number' "$WORK/clean.shutdown.err") ||
    { cat "$WORK/clean.shutdown.err" >&2; die "no 'Shutdown completed; log sequence number' line in the error log"; }
SHUTDOWN_LSN=$(sed -n 's/.*Shutdown completed; log sequence number \([0-9]*\); transaction id \([0-9]*\).*/\1/p' <<<"$SHUTDOWN_LINE")
SHUTDOWN_TRX=$(sed -n 's/.*Shutdown completed; log sequence number \([0-9]*\); transaction id \([0-9]*\).*/\2/p' <<<"$SHUTDOWN_LINE")
grep -q 'Shutdown complete$' "$WORK/clean.shutdown.err" || die "no 'Shutdown complete' line"
ERR_WARN_CLEAN=$(grep -E '\[(Warning|ERROR)\] InnoDB' "$ERR" | paste -sd'|' - || true)
CP_LINES=$(grep -i 'checkpoint' "$WORK/clean.shutdown.err" | paste -sd'|' - || true)
log "error log: $SHUTDOWN_LINE"

gzip -9 -n -c "$MAIN/data/ib_logfile0" >"$OUT/ib_logfile0.gz"
SHA_CLEAN=$(sha256sum "$MAIN/data/ib_logfile0" | cut -d' ' -f1)
python3 "$WORK/redo-check.py" "$OUT/ib_logfile0.gz" >"$WORK/clean.file" || die "redo-check.py failed on the clean log"
FILE_CP=$(kv checkpoint_lsn "$WORK/clean.file")
FILE_END=$(kv end_of_log_lsn "$WORK/clean.file")
log "file: newest checkpoint LSN $FILE_CP, end of log (mini-transaction walk) $FILE_END; server: shutdown LSN $SHUTDOWN_LSN"

# Server's view of the same log: start a copy of the datadir and read what it
# found ("End of log at LSN=") and its checkpoint LSN before anything else runs.
VCLEAN=$WORK/verify-clean
mkdir -p "$VCLEAN"
cp -a "$MAIN/data" "$VCLEAN/data"
start_instance "$VCLEAN" "$PORT2"
RESTART_CP=$(gstatus "$VCLEAN" INNODB_LSN_LAST_CHECKPOINT)
RESTART_LSN=$(gstatus "$VCLEAN" INNODB_LSN_CURRENT)
RESTART_EOL_LINE=$(grep -m1 'InnoDB: End of log at LSN=' "$VCLEAN/mariadbd.err" || true)
RESTART_LSN_LINE=$(grep -m1 'InnoDB: log sequence number [0-9]*' "$VCLEAN/mariadbd.err" || true)
RESTART_RECOVERY_LINE=$(grep -m1 'Starting crash recovery' "$VCLEAN/mariadbd.err" || true)
RESTART_EOL=$(sed -n 's/.*End of log at LSN=\([0-9]*\).*/\1/p' <<<"$RESTART_EOL_LINE")
stop_slow "$VCLEAN"
[[ -z $RESTART_RECOVERY_LINE ]] || warn "the clean log needed crash recovery: $RESTART_RECOVERY_LINE"

check() { [[ $1 == "$2" ]] && echo "ok ($1)" || echo "MISMATCH ($1 vs $2)"; }
{
    printf 'key\tvalue\n'
    printf 'server_version\t%s\n' "$VERSION"
    printf 'log_file_size\t%s\n' "$LOG_FILE_SIZE"
    printf 'log_file_size_is_minimum\tyes (mariadbd --innodb-log-file-size=1 is adjusted to %s)\n' "$MIN_LOG_SIZE"
    printf 'log_buffer_size\t%s\n' "$LOG_BUFFER_SIZE"
    printf 'innodb_fast_shutdown\t1\n'
    printf 'file_sha256\t%s\n' "$SHA_CLEAN"
    printf 'workload\t3000 INSERT + 3000 UPDATE autocommit transactions on redo.t (%s)\n' "$ROWS_CLEAN"
    printf 'lsn_after_inserts\t%s\n' "$LSN_AFTER_INSERTS"
    printf 'lsn_after_updates\t%s\n' "$LSN_AFTER_UPDATES"
    cat "$WORK/clean.status"
    printf 'shutdown_lsn\t%s\n' "$SHUTDOWN_LSN"
    printf 'shutdown_trx_id\t%s\n' "$SHUTDOWN_TRX"
    printf 'errlog_shutdown_line\t%s\n' "$SHUTDOWN_LINE"
    printf 'errlog_innodb_warnings\t%s\n' "${ERR_WARN_CLEAN:-(none)}"
    printf 'errlog_checkpoint_line\t%s\n' "${CP_LINES:-(none: 10.11 prints no checkpoint LSN at shutdown)}"
    if [[ $FILE_CP == "$SHUTDOWN_LSN" ]]; then
        printf 'checkpoint_lsn\t%s\n' "$FILE_CP"
    else
        # Not equal: do not call it "the" checkpoint LSN; report both, labelled.
        printf 'checkpoint_lsn_file\t%s\n' "$FILE_CP"
        printf 'checkpoint_lsn_vs_shutdown_lsn\tdiffer: shutdown_lsn - checkpoint_lsn_file = %s\n' "$((SHUTDOWN_LSN - FILE_CP))"
    fi
    sed 's/^/file_/' "$WORK/clean.file" | grep -v '^file_checkpoint_lsn	'
    printf 'restart_errlog_end_of_log_line\t%s\n' "$RESTART_EOL_LINE"
    printf 'restart_errlog_lsn_line\t%s\n' "$RESTART_LSN_LINE"
    printf 'restart_end_of_log_lsn\t%s\n' "$RESTART_EOL"
    printf 'restart_global_innodb_lsn_last_checkpoint\t%s\n' "$RESTART_CP"
    printf 'restart_global_innodb_lsn_current\t%s\n' "$RESTART_LSN"
    printf 'check_file_end_of_log_eq_shutdown_lsn\t%s\n' "$(check "$FILE_END" "$SHUTDOWN_LSN")"
    printf 'check_restart_end_of_log_eq_shutdown_lsn\t%s\n' "$(check "$RESTART_EOL" "$SHUTDOWN_LSN")"
    printf 'check_file_checkpoint_eq_restart_last_checkpoint\t%s\n' "$(check "$FILE_CP" "$RESTART_CP")"
} >"$OUT/truth/log.tsv"

# ---------------------------------------------------- crashed capture -------
# Restart the same instance (same log), commit single-row INSERTs until the
# LSN has passed the next ring-buffer wrap point (so the records after the
# checkpoint are likely to run over the end of the file), then SIGKILL.
start_instance "$MAIN" "$PORT"
L0=$(gstatus "$MAIN" INNODB_LSN_CURRENT)
WRAP=$((12288 + ((L0 - 12288) / CAPACITY + 1) * CAPACITY))
TARGET=$((WRAP + 32768))
log "restarted at LSN $L0; next ring wrap at LSN $WRAP; inserting until LSN >= $TARGET"
next=3001 batch=500
while :; do
    for ((i = next; i < next + batch; i++)); do
        echo "INSERT INTO redo.t VALUES ($i, $i, REPEAT(CHAR(65 + $i % 26), $((100 + i % 50))));"
    done | sqlin "$MAIN" redo
    next=$((next + batch))
    cur=$(gstatus "$MAIN" INNODB_LSN_CURRENT)
    (( cur >= TARGET || next > 60000 )) && break
done
CRASH_LAST_ID=$((next - 1))
ROWS_CRASH=$(val "$MAIN" "SELECT CONCAT(COUNT(*), ' rows, max id ', MAX(id)) FROM redo.t")
status_vals "$MAIN" status >"$WORK/crash.status"
pid=$(pid_of "$MAIN")
kill -9 "$pid"
wait_gone "$pid" 60 || die "mariadbd $pid survived SIGKILL"
running=()
log "SIGKILL sent to mariadbd $pid after committing ids 3001..$CRASH_LAST_ID (LSN before kill $(kv status_lsn "$WORK/crash.status"))"
gzip -9 -n -c "$MAIN/data/ib_logfile0" >"$OUT/crashed/ib_logfile0.gz"
SHA_CRASH=$(sha256sum "$MAIN/data/ib_logfile0" | cut -d' ' -f1)
python3 "$WORK/redo-check.py" "$OUT/crashed/ib_logfile0.gz" >"$WORK/crash.file" || die "redo-check.py failed on the crashed log"

# Crash recovery on a copy: the server reports the checkpoint it starts from
# and where the log ends.
VCRASH=$WORK/verify-crash
mkdir -p "$VCRASH"
cp -a "$MAIN/data" "$VCRASH/data"
start_instance "$VCRASH" "$PORT2"
REC_CP_LINE=$(grep -m1 'InnoDB: Starting crash recovery from checkpoint LSN=' "$VCRASH/mariadbd.err" || true)
REC_EOL_LINE=$(grep -m1 'InnoDB: End of log at LSN=' "$VCRASH/mariadbd.err" || true)
REC_PAGES_LINE=$(grep -m1 'InnoDB: To recover: ' "$VCRASH/mariadbd.err" || true)
REC_LSN_LINE=$(grep -m1 'InnoDB: log sequence number [0-9]*' "$VCRASH/mariadbd.err" || true)
REC_CP=$(sed -n 's/.*from checkpoint LSN=\([0-9]*\).*/\1/p' <<<"$REC_CP_LINE")
REC_EOL=$(sed -n 's/.*End of log at LSN=\([0-9]*\).*/\1/p' <<<"$REC_EOL_LINE")
ROWS_RECOVERED=$(val "$VCRASH" "SELECT CONCAT(COUNT(*), ' rows, max id ', MAX(id)) FROM redo.t")
stop_slow "$VCRASH"
[[ -n $REC_CP_LINE ]] || warn "the copy of the killed instance did not run crash recovery"

# What recovery wrote: another copy recovered with innodb_force_recovery=3 (no rollback
# and no purge afterwards, so no page changes after the log is applied), stopped, and the
# FIL_PAGE_LSN of every page it left past the checkpoint listed. Doublewrite slots (copies
# of other pages: their page number field is not their place) are left out.
VPAGES=$WORK/verify-pages
mkdir -p "$VPAGES"
cp -a "$MAIN/data" "$VPAGES/data"
start_instance "$VPAGES" "$PORT2" --innodb-force-recovery=3
stop_slow "$VPAGES"
python3 - "$VPAGES/data" "$REC_CP" >"$OUT/crashed/truth/page_lsns.tsv" <<'PY'
import os, struct, sys
data, checkpoint = sys.argv[1], int(sys.argv[2])
files = [os.path.join(data, "ibdata1")]
for d, _, names in os.walk(data):
    files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".ibd")]
print("space\tpage\tlsn\tfile")
for f in files:
    with open(f, "rb") as h:
        b = h.read()
    space = struct.unpack(">I", b[34:38])[0]
    for n in range(len(b) // 16384):
        p = b[n * 16384:(n + 1) * 16384]
        page_no, lsn = struct.unpack(">I", p[4:8])[0], struct.unpack(">Q", p[16:24])[0]
        if page_no == n and lsn > checkpoint:
            print(f"{space}\t{n}\t{lsn}\t{os.path.relpath(f, data)}")
PY
log "page LSNs past the checkpoint after recovery: $(($(wc -l < "$OUT/crashed/truth/page_lsns.tsv") - 1)) pages"

ERR_WARN=$(tail -n +"$((ERR_LINES_BEFORE + 1))" "$ERR" | grep -E '\[(Warning|ERROR)\] InnoDB' | paste -sd'|' - || true)
CFILE_CP=$(kv checkpoint_lsn "$WORK/crash.file")
CFILE_END=$(kv end_of_log_lsn "$WORK/crash.file")
CFLUSHED=$(kv status_flushed_lsn "$WORK/crash.status")
{
    printf 'key\tvalue\n'
    printf 'server_version\t%s\n' "$VERSION"
    printf 'log_file_size\t%s\n' "$LOG_FILE_SIZE"
    printf 'innodb_flush_log_at_trx_commit\t%s\n' "$FLUSH_AT_COMMIT"
    printf 'file_sha256\t%s\n' "$SHA_CRASH"
    printf 'restart_lsn\t%s\n' "$L0"
    printf 'ring_wrap_lsn_targeted\t%s\n' "$WRAP"
    printf 'workload\tafter restart: INSERT ids 3001..%s, one autocommit transaction each; then SIGKILL\n' "$CRASH_LAST_ID"
    printf 'rows_before_kill\t%s\n' "$ROWS_CRASH"
    cat "$WORK/crash.status"
    if [[ $CFILE_CP == "$REC_CP" ]]; then
        printf 'checkpoint_lsn\t%s\n' "$CFILE_CP"
    else
        printf 'checkpoint_lsn_file\t%s\n' "$CFILE_CP"
        printf 'checkpoint_lsn_vs_recovery\tdiffer: file %s, server recovery %s\n' "$CFILE_CP" "$REC_CP"
    fi
    sed 's/^/file_/' "$WORK/crash.file" | grep -v '^file_checkpoint_lsn	'
    printf 'recovery_checkpoint_lsn\t%s\n' "$REC_CP"
    printf 'recovery_end_of_log_lsn\t%s\n' "$REC_EOL"
    printf 'recovery_errlog_checkpoint_line\t%s\n' "$REC_CP_LINE"
    printf 'recovery_errlog_end_of_log_line\t%s\n' "$REC_EOL_LINE"
    printf 'recovery_errlog_to_recover_line\t%s\n' "$REC_PAGES_LINE"
    printf 'recovery_errlog_lsn_line\t%s\n' "$REC_LSN_LINE"
    printf 'rows_after_recovery\t%s\n' "$ROWS_RECOVERED"
    printf 'errlog_innodb_warnings\t%s\n' "${ERR_WARN:-(none)}"
    printf 'check_file_checkpoint_eq_recovery_checkpoint\t%s\n' "$(check "$CFILE_CP" "$REC_CP")"
    printf 'check_file_end_of_log_eq_recovery_end_of_log\t%s\n' "$(check "$CFILE_END" "$REC_EOL")"
    printf 'check_recovery_end_of_log_ge_status_flushed_lsn\t%s\n' \
        "$( (( REC_EOL >= CFLUSHED )) && echo "ok ($REC_EOL >= $CFLUSHED)" || echo "MISMATCH ($REC_EOL < $CFLUSHED)")"
    printf 'check_rows_after_recovery_eq_before_kill\t%s\n' "$(check "$ROWS_RECOVERED" "$ROWS_CRASH")"
} >"$OUT/crashed/truth/log.tsv"

chmod 0644 "$OUT/ib_logfile0.gz" "$OUT/crashed/ib_logfile0.gz" "$OUT/truth/log.tsv" "$OUT/crashed/truth/log.tsv" "$OUT/crashed/truth/page_lsns.tsv"
if grep -h '^check_' "$OUT/truth/log.tsv" "$OUT/crashed/truth/log.tsv" | grep -q MISMATCH; then
    warn "some checks disagree (see check_* in the truth files):"
    grep -h '^check_.*MISMATCH' "$OUT/truth/log.tsv" "$OUT/crashed/truth/log.tsv" >&2
fi
for f in "$OUT/ib_logfile0.gz" "$OUT/crashed/ib_logfile0.gz"; do
    (( $(stat -c %s "$f") <= 2 * 1024 * 1024 )) || warn "$f is larger than 2 MiB"
done

# ---------------------------------------------------------------- README ----
C=$OUT/truth/log.tsv K=$OUT/crashed/truth/log.tsv
if [[ $(kv file_FILE_CHECKPOINT_records "$K" | wc -w) -gt 1 ]]; then
    FCP_NOTE="Some are for *older* checkpoints, written long after their own LSN (the
  page cleaner lags far behind with a 4 MiB log): the one to match is the record whose
  payload is the checkpoint LSN."
else
    FCP_NOTE="Here only the one for this checkpoint; in other runs of this script records
  for *older* checkpoints (payload < checkpoint LSN, written long after their own LSN)
  also followed the checkpoint, so match the record whose payload is the checkpoint LSN."
fi
size_of() { stat -c %s "$1"; }
cat >"$OUT/README.md" <<MD
# MariaDB redo log fixtures (ib_logfile0)

Generated by \`tests/data/mariadb-redo/make.sh\` (instance managed by
\`scripts/mariadb/server.sh\`). Regenerate with

    tests/data/mariadb-redo/make.sh

Regenerating changes LSNs and timestamps, so the logs and \`truth/\` must always be
taken from the same run.

Server: \`$VERSION\` (Debian 12 package \`mariadb-server\`), x86_64, private instance
(my.cnf from \`server.sh\`) with \`innodb_log_file_size=$LOG_FILE_SIZE\` (the smallest
value 10.11 accepts: \`mariadbd --innodb-log-file-size=1\` is adjusted to $MIN_LOG_SIZE),
\`innodb_log_buffer_size=$LOG_BUFFER_SIZE\`, \`innodb_fast_shutdown=1\`,
\`innodb_flush_log_at_trx_commit=$FLUSH_AT_COMMIT\`, page size 16 KiB, no encryption.

| file | bytes (gz) | bytes | what |
|---|---|---|---|
| ib_logfile0.gz | $(size_of "$OUT/ib_logfile0.gz") | $LOG_FILE_SIZE | log after a normal shutdown (innodb_fast_shutdown=1) |
| truth/log.tsv | | | ground truth for it |
| crashed/ib_logfile0.gz | $(size_of "$OUT/crashed/ib_logfile0.gz") | $LOG_FILE_SIZE | the same instance restarted, more commits, then SIGKILL |
| crashed/truth/log.tsv | | | ground truth for it |

Both \`.gz\` files are \`gzip -9 -n\`; \`file_sha256\` in the truth files is the SHA-256
of the uncompressed log.

## How they were made

1. Fresh datadir (mariadb-install-db creates the log with first LSN 12288).
   \`CREATE TABLE redo.t (id INT PRIMARY KEY, k INT, v VARCHAR(255), KEY k (k))\`;
   3000 single-row INSERTs, then 3000 single-row UPDATEs (k+1, v grows by one
   byte), each its own autocommit transaction: LSN $(kv lsn_after_inserts "$C") after the
   inserts, $(kv lsn_after_updates "$C") after the updates, i.e. the ${CAPACITY}-byte ring
   buffer has been written over $(kv file_ring_passes_completed_at_end "$C") times.
2. Waited until the LSN stood still for 3 s, took \`SHOW ENGINE INNODB STATUS\` (LOG
   section) and \`Innodb_lsn_*\` / \`Innodb_checkpoint_*\` (\`status_*\` keys), then
   \`SET GLOBAL innodb_fast_shutdown=1; SHUTDOWN\`. Error log:

       $(kv errlog_shutdown_line "$C")

   10.11 prints no checkpoint LSN at shutdown. \`ib_logfile0.gz\` is the log as left.
3. A copy of the datadir was started once to have the server read the log back:
   \`$(kv restart_errlog_end_of_log_line "$C" | sed 's/^.*InnoDB/InnoDB/')\`, and right after startup
   Innodb_lsn_last_checkpoint = $(kv restart_global_innodb_lsn_last_checkpoint "$C").
4. The original instance was restarted (LSN $(kv restart_lsn "$K")), INSERTs committed
   (\`$(kv workload "$K")\`) until the LSN had passed the next ring-buffer wrap point
   ($(kv ring_wrap_lsn_targeted "$K")), \`SHOW ENGINE INNODB STATUS\` was taken, and mariadbd
   was killed with SIGKILL at once. \`crashed/ib_logfile0.gz\` is the log as left.
5. A copy of that datadir was started: crash recovery reported
   \`$(kv recovery_errlog_checkpoint_line "$K" | sed 's/^.*InnoDB/InnoDB/')\` and
   \`$(kv recovery_errlog_end_of_log_line "$K" | sed 's/^.*InnoDB/InnoDB/')\`; all committed rows were there
   ($(kv rows_after_recovery "$K")).

## Ground truth (clean shutdown log)

| | LSN |
|---|---|
| Log sequence number (status, before SHUTDOWN) | $(kv status_lsn "$C") |
| Log flushed up to | $(kv status_flushed_lsn "$C") |
| Pages flushed up to | $(kv status_pages_flushed_lsn "$C") |
| Last checkpoint at | $(kv status_last_checkpoint "$C") |
| Shutdown completed; log sequence number | $(kv shutdown_lsn "$C") |
| newest checkpoint block in the file (block $(kv file_newest_checkpoint_block "$C")) | ${FILE_CP} |
| end of log (mini-transaction walk from the checkpoint) | $(kv file_end_of_log_lsn "$C") |
| End of log at LSN= (server, restart of a copy) | $(kv restart_end_of_log_lsn "$C") |

The checkpoint LSN in the file is **not** the printed shutdown LSN:
shutdown LSN - checkpoint LSN = $((SHUTDOWN_LSN - FILE_CP)). A MariaDB checkpoint is followed by a
FILE_CHECKPOINT mini-transaction (1 type/length byte 0xFA, space id 0, page 0,
8-byte checkpoint LSN, termination byte, CRC-32C: 16 bytes) written *after* the
checkpoint LSN, and the shutdown message prints the LSN after that record. The file's
checkpoint LSN is what the server itself uses when it reopens the log (restart
Innodb_lsn_last_checkpoint above), and the end of the log it finds equals the shutdown
LSN. That is why \`truth/log.tsv\` has \`checkpoint_lsn_file\` (and no \`checkpoint_lsn\`
key) whenever the two differ.

## Ground truth (crashed log)

| | LSN |
|---|---|
| Log sequence number (status just before SIGKILL) | $(kv status_lsn "$K") |
| Log flushed up to | $(kv status_flushed_lsn "$K") |
| Pages flushed up to | $(kv status_pages_flushed_lsn "$K") |
| Last checkpoint at | $(kv status_last_checkpoint "$K") |
| checkpoint in the file (block $(kv file_newest_checkpoint_block "$K"); end_lsn field $(kv file_checkpoint_end_lsn "$K")) | ${CFILE_CP} |
| crash recovery: checkpoint LSN= | $(kv recovery_checkpoint_lsn "$K") |
| end of log (mini-transaction walk) | $(kv file_end_of_log_lsn "$K") |
| crash recovery: End of log at LSN= | $(kv recovery_end_of_log_lsn "$K") |

$(kv file_mtrs_after_checkpoint "$K") mini-transactions ($(kv file_records_after_checkpoint "$K") records,
$(kv file_bytes_after_checkpoint "$K") bytes) follow the checkpoint; they run over the end of the
ring buffer: $(kv file_records_span_ring_wrap "$K"). Redo between "Log flushed up to" and
"Log sequence number" was still in the log buffer at the kill and is lost; it held no
user commits (innodb_flush_log_at_trx_commit=1, and recovery gave back every row).

## Format notes (MariaDB 10.8+ "Phys" log, as found in these files)

- Bytes 0-3: format 0x50687973 ("Phys"); 4-7: zero; 8-15: first LSN of the file
  ($(kv file_header_first_lsn "$C") here);
  16-47: creator, NUL-padded (\`$(kv file_header_creator "$C")\`); CRC-32C of bytes 0-507 at 508.
- Checkpoint blocks at 4096 and 8192: 8-byte checkpoint LSN, 8-byte "end LSN" (the
  LSN at which the checkpoint was taken; the FILE_CHECKPOINT record is written at or
  after it, following FILE_MODIFY records for the files changed since the checkpoint),
  bytes 16-59 zero, CRC-32C of 0-59 at 60, all big-endian. The blocks are used
  alternately; the newest is the one with the larger checkpoint LSN. The two fields are
  equal when nothing older was dirty (the final checkpoint at shutdown: clean log,
  block $(kv file_newest_checkpoint_block "$C")); under load end LSN > checkpoint LSN (crashed log; see
  \`file_checkpoint_block_*\` in the truth files). FILE_CHECKPOINT records found after
  the crashed log's checkpoint (\`payload@position\`): $(kv file_FILE_CHECKPOINT_records "$K").
  $FCP_NOTE
- Bytes 8-15 (first LSN) are 12288 only because mariadb-install-db created this log;
  when the server recreates the log (e.g. a changed innodb_log_file_size; seen while
  writing this script: \`Resizing redo log from 4.000MiB to 5.000MiB; LSN=N\`) the new
  file's first LSN is N, its block 8192 holds checkpoint N and block 4096 is all zeros
  (a never-written block, which fails its CRC).
- Log records from file offset 12288 on; the file is a ring buffer:
  offset = 12288 + (LSN - first LSN) mod (file size - 12288). Each mini-transaction
  ends with a byte that is 1 on even and 0 on odd passes over the ring, followed by the
  CRC-32C of the mini-transaction's records (not including the termination byte).
  The byte at the end-of-log LSN is $(kv file_byte_at_end_of_log "$C") (clean) / $(kv file_byte_at_end_of_log "$K") (crashed),
  but the rest of that 4 KiB block is not zero ($(kv file_nonzero_bytes_in_4096_after_end "$C") / $(kv file_nonzero_bytes_in_4096_after_end "$K")
  non-zero bytes): older passes and stale log-buffer contents remain there, so the end
  of the log is found by the termination byte / CRC-32C check, not by zeros.
MD

log "done:"
ls -l "$OUT" "$OUT/truth" "$OUT/crashed" "$OUT/crashed/truth" >&2
