#!/usr/bin/env bash
# Ground truth for insert-order fidelity: how a real MariaDB (10.11) lays out a
# sysbench-like table after its rows were inserted ONE ROW PER STATEMENT, in
# file order, with autocommit (the page splits an application would cause).
#
#   insert-fidelity.sh STRATEGY ROWS.tsv OUT.json [WORKDIR]
#
# STRATEGY  seq | autoinc | uuid | ulid | uuid-bin (type of the primary key id):
#             seq       id INT NOT NULL PRIMARY KEY
#             autoinc   id INT NOT NULL AUTO_INCREMENT PRIMARY KEY (id not inserted)
#             uuid      id CHAR(36) NOT NULL PRIMARY KEY
#             ulid      id CHAR(26) NOT NULL PRIMARY KEY
#             uuid-bin  id BINARY(16) NOT NULL PRIMARY KEY (inserted as X'...')
#           followed by k INT UNSIGNED, c CHAR(120), pad CHAR(60), KEY k_1 (k);
#           table fid.sbtest1, InnoDB, ROW_FORMAT=DYNAMIC, utf8mb4_general_ci.
# ROWS.tsv  one row per line, UTF-8, 4 tab-separated fields: id, k, c, pad.
#           id: empty for autoinc, 32 hex digits for uuid-bin, a decimal INT for
#           seq, the key text for uuid/ulid. No quoting or escapes; LF endings.
# OUT.json  written at the end (parent directory must exist):
#           {"strategy", "rows", "primary": {...}, "k_1": {...}, "file_bytes",
#            "server_version", ...}; per index: leaf_pages, avg_leaf_fill,
#           non_leaf_pages, levels, total_pages, pages_per_level, ...
# WORKDIR   where the private instance (WORKDIR/server, see server.sh) and the
#           intermediate files live; kept afterwards. It must not already hold
#           an instance. Default: a new mktemp dir, removed on success (kept,
#           with the server's logs, if the run failed after the server was
#           started, or with KEEP_WORK=1).
#
# Env: PORT (default: first free port from 33062), BUFFER_POOL (default 512M;
#      every page of the table must stay resident), KEEP_WORK=1,
#      SERVER_EXTRA_CNF (appended after this script's my.cnf lines).
#
# Where the figures come from (all from the server or from the pages it wrote):
#   leaf_pages      mysql.innodb_index_stats stat_name='n_leaf_pages' after
#                   ANALYZE TABLE; checked to equal the number of level-0 pages
#                   of the index found in INNODB_BUFFER_PAGE.
#   avg_leaf_fill   mean over the index's leaf pages of
#                   DATA_SIZE / (16384 - 120 - 8 - 4), DATA_SIZE from
#                   information_schema.INNODB_BUFFER_PAGE.
#   non_leaf_pages, levels, pages_per_level
#                   INNODB_BUFFER_PAGE has no level column, so PAGE_LEVEL (2 bytes
#                   big-endian at byte 64 of each 16 KiB page) is read from
#                   fid/sbtest1.ibd after the slow shutdown (innodb_fast_shutdown=0,
#                   which flushes every page) for exactly the page numbers the
#                   buffer pool listed. Each such page is checked to be an INDEX
#                   page of the same index id with the same record count and
#                   data size as the server reported, and a scan of the whole file
#                   must find no other page of either index (so the buffer pool
#                   listing was complete). levels = PAGE_LEVEL of the root page
#                   (INNODB_SYS_INDEXES.PAGE_NO) + 1.
#   reserved_pages  innodb_index_stats stat_name='size' (pages reserved by the
#                   index's two segments, including not yet used ones).
#   file_bytes      size of fid/sbtest1.ibd after the slow shutdown.
# Speed settings (no effect on layout): innodb_flush_log_at_trx_commit=0,
# innodb_doublewrite=0, a 256M redo log; all statements go through ONE client
# session. Needs mariadb-server, mariadb-client, python3 (Debian 12: 10.11).
set -euo pipefail

source "$(dirname "$0")/../../scripts/mariadb/lib.sh"
usage() { sed -n '2,56p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

[[ $# -ge 3 && $# -le 4 ]] || usage
STRATEGY=$1 ROWS=$2 OUTJSON=$3 WORKARG=${4:-}

case $STRATEGY in
    seq)      ID_DDL='id INT NOT NULL PRIMARY KEY';;
    autoinc)  ID_DDL='id INT NOT NULL AUTO_INCREMENT PRIMARY KEY';;
    uuid)     ID_DDL='id CHAR(36) NOT NULL PRIMARY KEY';;
    ulid)     ID_DDL='id CHAR(26) NOT NULL PRIMARY KEY';;
    uuid-bin) ID_DDL='id BINARY(16) NOT NULL PRIMARY KEY';;
    *) die "unknown STRATEGY '$STRATEGY' (expected one of: seq autoinc uuid ulid uuid-bin)";;
esac
[[ -e $ROWS ]] || die "ROWS file '$ROWS' does not exist"
[[ -f $ROWS ]] || die "ROWS file '$ROWS' is not a regular file"
[[ -r $ROWS ]] || die "ROWS file '$ROWS' is not readable"
OUTDIR=$(dirname -- "$OUTJSON")
[[ -d $OUTDIR ]] || die "directory of OUT.json does not exist: $OUTDIR"
[[ -w $OUTDIR ]] || die "directory of OUT.json is not writable: $OUTDIR"
[[ ! -d $OUTJSON ]] || die "OUT.json '$OUTJSON' is a directory"
command -v python3 >/dev/null || die "python3 not found (apt-get install -y python3)"
mariadb_require_server
BUFFER_POOL=${BUFFER_POOL:-512M}
[[ $BUFFER_POOL =~ ^[0-9]+[KMG]?$ ]] || die "BUFFER_POOL must look like 512M, got '$BUFFER_POOL'"

own_work=0
if [[ -n $WORKARG ]]; then
    mkdir -p -- "$WORKARG" || die "cannot create WORKDIR '$WORKARG'"
    WORK=$(cd -- "$WORKARG" && pwd -P)
    [[ ! -e $WORK/server/data ]] ||
        die "$WORK/server already holds a MariaDB instance; remove it or pass another WORKDIR"
else
    WORK=$(mktemp -d /tmp/strata-fid.XXXXXX)
    own_work=1
fi
INST=$WORK/server
DB=fid
running=0
load_pid=
started=0   # once the server was started, a failed run keeps WORK for its logs

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n $load_pid ]] && kill -0 "$load_pid" 2>/dev/null; then
        kill "$load_pid" 2>/dev/null || true     # the client of the load, by pid
        wait "$load_pid" 2>/dev/null || true
    fi
    if (( running )); then "$SERVER" stop "$INST" >&2 || true; fi
    if (( own_work )) && (( rc == 0 || ! started )) && [[ ${KEEP_WORK:-0} != 1 ]]; then
        rm -rf -- "$WORK"
    else
        log "work directory kept: $WORK"
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

sql() { sqlin "$INST" --default-character-set=utf8mb4 "$@"; }

# ------------------------------------------- validate ROWS, write the SQL ----
# rows.sql: line 1 = session settings, line N+1 = the INSERT for ROWS line N,
# so the client's "ERROR ... at line L" maps back to ROWS line L-1.
log "checking $ROWS and writing one INSERT per row"
NROWS=$(python3 - "$STRATEGY" "$ROWS" "$WORK/rows.sql" <<'PY'
import re, sys
strategy, src, dst = sys.argv[1:4]
INT_RE = re.compile(r'-?[0-9]+\Z')
UINT_RE = re.compile(r'[0-9]+\Z')
HEX32_RE = re.compile(r'[0-9A-Fa-f]{32}\Z')
MAXLEN = {'uuid': 36, 'ulid': 26}

def fail(n, msg):
    sys.stderr.write(f"insert-fidelity.sh: error: {src}: line {n}: {msg}\n")
    sys.exit(3)

def lit(s):  # MySQL string literal (sql_mode without NO_BACKSLASH_ESCAPES)
    return "'" + (s.replace('\\', '\\\\').replace("'", "\\'")
                  .replace('\0', '\\0').replace('\x1a', '\\Z')) + "'"

cols = '(k,c,pad)' if strategy == 'autoinc' else '(id,k,c,pad)'
n = 0
with open(src, 'rb') as f, open(dst, 'w', encoding='utf-8') as out:
    out.write("SET SESSION sql_mode='STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION', "
              "autocommit=1, unique_checks=1, foreign_key_checks=1;\n")
    for n, raw in enumerate(f, 1):
        line = raw[:-1] if raw.endswith(b'\n') else raw
        if line.endswith(b'\r'):
            fail(n, "line ends in CR (DOS line endings?); convert the file to LF")
        try:
            text = line.decode('utf-8')
        except UnicodeDecodeError as e:
            fail(n, f"not valid UTF-8 ({e.reason} at byte {e.start})")
        if text == '':
            fail(n, "empty line")
        fields = text.split('\t')
        if len(fields) != 4:
            fail(n, f"expected 4 tab-separated fields (id, k, c, pad), found {len(fields)}")
        id_, k, c, pad = fields
        if strategy == 'autoinc':
            if id_ != '':
                fail(n, f"id must be empty for autoinc, found '{id_[:40]}'")
            idsql = None
        elif strategy == 'seq':
            if not INT_RE.match(id_) or not -2**31 <= int(id_) < 2**31:
                fail(n, f"id must be a decimal INT (-2147483648..2147483647) for seq, found '{id_[:40]}'")
            idsql = str(int(id_))
        elif strategy == 'uuid-bin':
            if not HEX32_RE.match(id_):
                fail(n, f"id must be exactly 32 hex digits for uuid-bin, found '{id_[:40]}'")
            idsql = f"X'{id_.lower()}'"
        else:
            if id_ == '' or len(id_) > MAXLEN[strategy]:
                fail(n, f"id must be 1..{MAXLEN[strategy]} characters for {strategy}, "
                        f"found {len(id_)}: '{id_[:40]}'")
            idsql = lit(id_)
        if not UINT_RE.match(k) or int(k) > 2**32 - 1:
            fail(n, f"k must be an unsigned decimal INT (0..4294967295), found '{k[:40]}'")
        if len(c) > 120:
            fail(n, f"c has {len(c)} characters, CHAR(120) holds at most 120")
        if len(pad) > 60:
            fail(n, f"pad has {len(pad)} characters, CHAR(60) holds at most 60")
        vals = ([idsql] if idsql else []) + [str(int(k)), lit(c), lit(pad)]
        out.write(f"INSERT INTO sbtest1 {cols} VALUES ({','.join(vals)});\n")
if n == 0:
    sys.stderr.write(f"insert-fidelity.sh: error: {src}: no rows\n")
    sys.exit(3)
print(n)
PY
) || exit 1
log "$NROWS rows, strategy $STRATEGY, work directory $WORK"

# ------------------------------------------------------------ the server ----
if [[ -n ${PORT:-} ]]; then
    [[ $PORT =~ ^[0-9]+$ ]] || die "PORT must be a number, got '$PORT'"
else
    PORT=$(mariadb_free_port 33062)
fi

# Later lines win over server.sh's defaults (its 32M pool and 4M redo log).
# innodb_stats_persistent_sample_pages=1: in 10.11, when ANALYZE does a full
# leaf scan instead of sampling (sample_pages * n_uniq > leaf pages, e.g. k_1
# with fewer than 40 leaves at the default 20), dict_stats_analyze_index()
# stores n_leaf_pages = 1 (the value dict_stats_empty_index() just reset)
# instead of the segment's used-page count. With 1 sample page the exact
# count from btr_get_size() is kept for every multi-page index; only the
# n_diff estimates, which are not reported here, get coarser.
# innodb_page_size is only honoured when the datadir is created, which is why
# it goes through SERVER_EXTRA_CNF (also read by mariadb-install-db).
export SERVER_EXTRA_CNF="innodb_page_size=16384
innodb_buffer_pool_size=$BUFFER_POOL
innodb_log_file_size=256M
innodb_log_buffer_size=16M
innodb_flush_log_at_trx_commit=0
innodb_doublewrite=0
innodb_file_per_table=1
innodb_default_row_format=dynamic
innodb_stats_persistent=ON
innodb_stats_persistent_sample_pages=1
innodb_stats_auto_recalc=OFF
innodb_autoinc_lock_mode=1
${SERVER_EXTRA_CNF:-}"

running=1   # from here on the trap stops whatever server.sh may have started
started=1
"$SERVER" start "$INST" "$PORT" >&2

PAGE_SIZE=$(val "$INST" "SELECT @@innodb_page_size")
[[ $PAGE_SIZE == 16384 ]] || die "server runs with innodb_page_size=$PAGE_SIZE, expected 16384"

sql <<SQL
CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
CREATE TABLE $DB.sbtest1 (
  $ID_DDL,
  k INT UNSIGNED NOT NULL DEFAULT 0,
  c CHAR(120) NOT NULL DEFAULT '',
  pad CHAR(60) NOT NULL DEFAULT '',
  KEY k_1 (k)
) ENGINE=InnoDB ROW_FORMAT=DYNAMIC DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
SQL

# ------------------------------------------------------------- the load -----
log "inserting $NROWS rows, one INSERT (autocommit) per row, one client session"
# The client runs as our own background child (not through server.sh) so that
# INT/TERM are handled at once and cleanup can end it by its pid.
CLIENT=$(command -v mariadb || command -v mysql) || die "mariadb client not found (apt-get install -y mariadb-client)"
t0=$(date +%s.%N)
"$CLIENT" --defaults-file="$INST/my.cnf" --default-character-set=utf8mb4 --batch "$DB" \
    <"$WORK/rows.sql" 2>"$WORK/load.err" &
load_pid=$!
load_rc=0
wait "$load_pid" || load_rc=$?
load_pid=
if (( load_rc != 0 )); then
    # The client also echoes the failing statement; keep its ERROR line.
    msg=$(grep -m1 '^ERROR' "$WORK/load.err" || head -n 3 "$WORK/load.err")
    if [[ $msg =~ at\ line\ ([0-9]+) ]] && (( BASH_REMATCH[1] > 1 )); then
        n=$(( BASH_REMATCH[1] - 1 ))
        msg=${msg/ at line ${BASH_REMATCH[1]}/}
        die "$ROWS: line $n: the server rejected the row: $msg
  row: $(sed -n "${n}p" "$ROWS" | cut -c1-200)"
    fi
    die "loading failed: $msg"
fi
t1=$(date +%s.%N)
LOAD_SECONDS=$(python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$t1")
log "loaded in ${LOAD_SECONDS}s"

got=$(val "$INST" "SELECT COUNT(*) FROM $DB.sbtest1 FORCE INDEX (PRIMARY)")
[[ $got == "$NROWS" ]] || die "table has $got rows after the load, expected $NROWS"
got=$(val "$INST" "SELECT COUNT(*) FROM $DB.sbtest1 FORCE INDEX (k_1)")
[[ $got == "$NROWS" ]] || die "index k_1 has $got entries, expected $NROWS"

# ----------------------------------------------------- server-side truth ----
sql --batch --skip-column-names -e "ANALYZE TABLE $DB.sbtest1" >"$WORK/analyze.tsv"
grep -qP '\tanalyze\tstatus\tOK$' "$WORK/analyze.tsv" ||
    die "ANALYZE TABLE did not report OK: $(cat "$WORK/analyze.tsv")"

val "$INST" "SELECT index_name, stat_name, stat_value FROM mysql.innodb_index_stats
     WHERE database_name='$DB' AND table_name='sbtest1' AND stat_name IN ('n_leaf_pages','size')
     ORDER BY index_name, stat_name" >"$WORK/index_stats.tsv"

SPACE=$(val "$INST" "SELECT SPACE FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME='$DB/sbtest1'")
[[ $SPACE =~ ^[0-9]+$ ]] || die "tablespace $DB/sbtest1 not found in INNODB_SYS_TABLESPACES"
val "$INST" "SELECT i.NAME, i.INDEX_ID, i.PAGE_NO FROM information_schema.INNODB_SYS_INDEXES i
     JOIN information_schema.INNODB_SYS_TABLES t ON t.TABLE_ID = i.TABLE_ID
     WHERE t.NAME='$DB/sbtest1' ORDER BY i.INDEX_ID" >"$WORK/indexes.tsv"

# Every INDEX page of the tablespace that is in the buffer pool (all of them:
# the pool is big enough and nothing else ran; checked against the file below).
val "$INST" "SELECT INDEX_NAME, PAGE_NUMBER, NUMBER_RECORDS, DATA_SIZE, TABLE_NAME
     FROM information_schema.INNODB_BUFFER_PAGE
     WHERE SPACE=$SPACE AND PAGE_TYPE='INDEX'
     ORDER BY PAGE_NUMBER" >"$WORK/buffer_pages.tsv"

VERSION=$(val "$INST" "SELECT VERSION()")
val "$INST" "SELECT LOWER(VARIABLE_NAME), VARIABLE_VALUE FROM information_schema.GLOBAL_VARIABLES
     WHERE VARIABLE_NAME IN ('INNODB_PAGE_SIZE','INNODB_BUFFER_POOL_SIZE','INNODB_FLUSH_LOG_AT_TRX_COMMIT',
       'INNODB_DOUBLEWRITE','INNODB_FILE_PER_TABLE','INNODB_CHANGE_BUFFERING','INNODB_CHECKSUM_ALGORITHM',
       'INNODB_AUTOINC_LOCK_MODE','INNODB_FILL_FACTOR','INNODB_COMPRESSION_ALGORITHM',
       'INNODB_STATS_PERSISTENT_SAMPLE_PAGES','INNODB_ADAPTIVE_HASH_INDEX')
     ORDER BY 1" >"$WORK/variables.tsv"
val "$INST" "SELECT ROW_FORMAT FROM information_schema.TABLES WHERE TABLE_SCHEMA='$DB' AND TABLE_NAME='sbtest1'" \
    >"$WORK/row_format.txt"

# ------------------------------------------------------ slow shutdown ------
"$SERVER" stop "$INST" >&2
running=0
IBD=$INST/data/$DB/sbtest1.ibd
[[ -f $IBD ]] || die "tablespace file not found after shutdown: $IBD"

# ------------------------------------ page levels from the file, the JSON ---
python3 - "$WORK" "$IBD" "$OUTJSON" "$STRATEGY" "$NROWS" "$VERSION" "$LOAD_SECONDS" "$SPACE" <<'PY' || exit 1
import json, os, struct, sys
work, ibd, outjson, strategy, nrows, version, load_s, space = sys.argv[1:9]
nrows, space = int(nrows), int(space)
PS = 16384
USABLE = PS - 120 - 8 - 4          # page header..supremum end, FIL trailer, 2 dir slots
FIL_PAGE_INDEX = 17855

def die(msg):
    sys.stderr.write(f"insert-fidelity.sh: error: {msg}\n")
    sys.exit(1)

def rows(name):
    with open(os.path.join(work, name), encoding='utf-8') as f:
        return [l.rstrip('\n').split('\t') for l in f if l.strip()]

indexes = {r[0]: {'index_id': int(r[1]), 'root_page': int(r[2])} for r in rows('indexes.tsv')}
if set(indexes) != {'PRIMARY', 'k_1'}:
    die(f"unexpected indexes in INNODB_SYS_INDEXES: {sorted(indexes)}")
stats = {}
for name, stat, v in rows('index_stats.tsv'):
    stats.setdefault(name, {})[stat] = int(v)
bp = {}
for name, pno, nrec, dsize, tname in rows('buffer_pages.tsv'):
    if name not in indexes or tname != '`fid`.`sbtest1`':
        die(f"INDEX page {pno} of the tablespace belongs to {tname} {name}, not to fid.sbtest1")
    pno = int(pno)
    if pno in bp:
        die(f"page {pno} listed twice in INNODB_BUFFER_PAGE")
    bp[pno] = (name, int(nrec), int(dsize))

size = os.path.getsize(ibd)
if size % PS:
    die(f"{ibd}: size {size} is not a multiple of {PS}")
id2name = {v['index_id']: k for k, v in indexes.items()}
in_file = {}          # page number -> (index name, level, n_recs, data size)
with open(ibd, 'rb') as f:
    for pno in range(size // PS):
        p = f.read(PS)
        ptype, = struct.unpack_from('>H', p, 24)
        if ptype != FIL_PAGE_INDEX:
            continue
        heap_top, = struct.unpack_from('>H', p, 38 + 2)
        garbage, = struct.unpack_from('>H', p, 38 + 8)
        n_recs, = struct.unpack_from('>H', p, 38 + 16)
        level, = struct.unpack_from('>H', p, 38 + 26)       # byte 64
        index_id, = struct.unpack_from('>Q', p, 38 + 28)
        page_no, = struct.unpack_from('>I', p, 4)
        space_id, = struct.unpack_from('>I', p, 34)
        if page_no != pno or space_id != space:
            die(f"{ibd}: page {pno} carries page number {page_no} / space {space_id}")
        if index_id not in id2name:
            die(f"{ibd}: page {pno} is an INDEX page of unknown index id {index_id}")
        in_file[pno] = (id2name[index_id], level, n_recs, heap_top - 120 - garbage)

# The buffer pool listing must be exactly the index pages in the file, and the
# file must hold what the server reported (nothing changed after the query).
if set(bp) != set(in_file):
    only_bp = sorted(set(bp) - set(in_file))[:10]
    only_f = sorted(set(in_file) - set(bp))[:10]
    die("INNODB_BUFFER_PAGE and the .ibd file disagree on the index pages "
        f"(only in buffer pool: {only_bp}..., only in file: {only_f}...); "
        "if pages are missing from the pool, raise BUFFER_POOL")
for pno, (name, nrec, dsize) in bp.items():
    fname, level, fnrec, fdsize = in_file[pno]
    if (fname, fnrec, fdsize) != (name, nrec, dsize):
        die(f"page {pno}: server reported {name} n_recs={nrec} data_size={dsize}, "
            f"file has {fname} n_recs={fnrec} data_size={fdsize}")

result = {'strategy': strategy, 'rows': nrows}
for name in ('PRIMARY', 'k_1'):
    pages = [(pno, in_file[pno][1], nrec, dsize)
             for pno, (n, nrec, dsize) in sorted(bp.items()) if n == name]
    root = indexes[name]['root_page']
    if root not in bp or bp[root][0] != name:
        die(f"{name}: root page {root} not among its pages")
    root_level = in_file[root][1]
    levels = root_level + 1
    per_level = [sum(1 for p in pages if p[1] == lv) for lv in range(levels)]
    if sum(per_level) != len(pages) or per_level[-1] != 1:
        die(f"{name}: inconsistent levels (root level {root_level}, pages per level {per_level}, "
            f"{len(pages)} pages)")
    leaves = [p for p in pages if p[1] == 0]
    n_leaf_stat = stats.get(name, {}).get('n_leaf_pages')
    if n_leaf_stat != len(leaves):
        die(f"{name}: innodb_index_stats n_leaf_pages={n_leaf_stat} but {len(leaves)} "
            "level-0 pages were found")
    leaf_recs = sum(p[2] for p in leaves)
    if leaf_recs != nrows:
        die(f"{name}: the leaf pages hold {leaf_recs} records, expected {nrows}")
    leaf_bytes = sum(p[3] for p in leaves)
    result['PRIMARY' if name == 'PRIMARY' else 'k_1'] = {
        'leaf_pages': n_leaf_stat,
        'avg_leaf_fill': round(sum(p[3] / USABLE for p in leaves) / len(leaves), 6),
        'non_leaf_pages': len(pages) - len(leaves),
        'levels': levels,
        'total_pages': len(pages),
        'pages_per_level': per_level,
        'leaf_records': leaf_recs,
        'leaf_data_bytes': leaf_bytes,
        'reserved_pages': stats.get(name, {}).get('size'),
        'root_page': root,
        'index_id': indexes[name]['index_id'],
    }
result['primary'] = result.pop('PRIMARY')
result['k_1'] = result.pop('k_1')
result['file_bytes'] = size
result['file_pages'] = size // PS
result['server_version'] = version
with open(os.path.join(work, 'row_format.txt')) as f:
    result['row_format'] = f.read().strip()
result['settings'] = {k: v for k, v in rows('variables.tsv')}
result['fill_denominator'] = USABLE
result['load_seconds'] = float(load_s)
result['method'] = ("one INSERT per row, autocommit, one client session; leaf_pages from "
                    "mysql.innodb_index_stats n_leaf_pages after ANALYZE TABLE; fill from "
                    "INNODB_BUFFER_PAGE.DATA_SIZE; PAGE_LEVEL from the .ibd after slow shutdown")
tmp = outjson + '.tmp'
with open(tmp, 'w') as f:
    json.dump(result, f, indent=2)
    f.write('\n')
os.replace(tmp, outjson)
p, k = result['primary'], result['k_1']
print(f"{strategy}: rows={nrows} primary leaf={p['leaf_pages']} fill={p['avg_leaf_fill']:.4f} "
      f"non-leaf={p['non_leaf_pages']} levels={p['levels']} | k_1 leaf={k['leaf_pages']} "
      f"fill={k['avg_leaf_fill']:.4f} non-leaf={k['non_leaf_pages']} levels={k['levels']} | "
      f"file_bytes={size}", file=sys.stderr)
PY
log "wrote $OUTJSON"
