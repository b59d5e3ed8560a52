#!/usr/bin/env bash
# InnoDB FULLTEXT auxiliary tables written by a real MariaDB, and what the server itself
# reports about them. One table, ftsdb.articles (FULLTEXT KEY ft (title, body), utf8mb4,
# hidden FTS_DOC_ID), is filled by make.sql in two batches with a sync (OPTIMIZE TABLE under
# innodb_optimize_fulltext_only=ON) after each, two rows deleted and purged from the ilists
# in between, 200 rolled-back inserts that burn doc ids, and one row deleted at the end and
# left pending in the DELETED table. The FTS cache is empty when the truth is taken.
#
#   make.sh [OUTDIR]         (OUTDIR defaults to tests/data/mariadb-fts, where this script is)
#
# Reads make.sql beside it, the SQL that builds the table (run as written).
#
# Writes (older copies of these names are replaced):
#   OUTDIR/create.sql                    SHOW CREATE TABLE articles
#   OUTDIR/articles.ibd.gz, articles.frm.gz
#   OUTDIR/FTS_<table id>_<suffix>.ibd.gz             CONFIG, DELETED, DELETED_CACHE,
#                                        BEING_DELETED, BEING_DELETED_CACHE
#   OUTDIR/FTS_<table id>_<index id>_INDEX_<1..6>.ibd.gz
#                                        every file after a slow shutdown, gzip -9 -n
#   OUTDIR/truth/innodb_ft_index_table.tsv   SELECT * FROM information_schema.INNODB_FT_INDEX_TABLE
#   OUTDIR/truth/innodb_ft_index_cache.tsv   ... INNODB_FT_INDEX_CACHE (header only: cache empty)
#   OUTDIR/truth/innodb_ft_config.tsv        ... INNODB_FT_CONFIG
#   OUTDIR/truth/innodb_ft_deleted.tsv       ... INNODB_FT_DELETED
#   OUTDIR/truth/innodb_ft_being_deleted.tsv ... INNODB_FT_BEING_DELETED
#                                        (all with innodb_ft_aux_table='ftsdb/articles')
#   OUTDIR/truth/articles.tsv            SELECT * FROM articles ORDER BY id
#   OUTDIR/truth/doc_ids.tsv             id -> FTS_DOC_ID, read back through each row's
#                                        marker word rowNN in INNODB_FT_INDEX_TABLE
#   OUTDIR/truth/innodb_sys_{tables,columns,indexes,fields}.tsv
#                                        InnoDB's dictionary rows for ftsdb/% (the aux tables'
#                                        mtype/prtype/len, index fields, space ids)
#   OUTDIR/README.md                     versions, names, commands
# All .tsv files are the mariadb client's batch (-B) output, header line included.
#
# Before copying, the server is restarted on the shut-down datadir and every truth file is
# taken again; they must be identical, so the truth describes the files exactly.
#
# Env: PORT (default 33123), KEEP_WORK=1 keeps the instance directory. Needs mariadb-server +
# mariadb-client (Debian 12: 10.11), gzip. The instance is private (scripts/mariadb/server.sh).
set -euo pipefail

PORT=${PORT:-33123}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-fts "$@"

SERVER_EXTRA_CNF="default_time_zone='+00:00'
character_set_server=utf8mb4
collation_server=utf8mb4_general_ci" start_instance "$WORK" "$PORT"

run() { sqlin "$WORK" --default-character-set=utf8mb4 "$@"; }

fixture_inputs make.sql

log "running make.sql"
run <"$HERE/make.sql" >"$WORK/make.log"

# ------------------------------------------------------------------ truth ----
capture() { # capture DIR: every truth file, from the running instance
    local dir=$1 t
    mkdir -p "$dir"
    run -e "SET GLOBAL innodb_ft_aux_table = 'ftsdb/articles'"
    for t in INDEX_TABLE INDEX_CACHE CONFIG DELETED BEING_DELETED; do
        run -B -e "SELECT * FROM information_schema.INNODB_FT_$t" \
            >"$dir/innodb_ft_$(tr 'A-Z' 'a-z' <<<"$t").tsv"
    done
    run -B ftsdb -e 'SELECT * FROM articles ORDER BY id' >"$dir/articles.tsv"
    run -B ftsdb -e "SELECT a.id, i.DOC_ID AS FTS_DOC_ID FROM articles a
        JOIN information_schema.INNODB_FT_INDEX_TABLE i ON i.WORD = CONCAT('row', LPAD(a.id, 2, '0'))
        ORDER BY a.id" >"$dir/doc_ids.tsv"
    run -B -e "SELECT * FROM information_schema.INNODB_SYS_TABLES
        WHERE NAME LIKE 'ftsdb/%' ORDER BY NAME" >"$dir/innodb_sys_tables.tsv"
    run -B -e "SELECT t.NAME AS TABLE_NAME, c.* FROM information_schema.INNODB_SYS_COLUMNS c
        JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID)
        WHERE t.NAME LIKE 'ftsdb/%' ORDER BY t.NAME, c.POS" >"$dir/innodb_sys_columns.tsv"
    run -B -e "SELECT t.NAME AS TABLE_NAME, i.* FROM information_schema.INNODB_SYS_INDEXES i
        JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID)
        WHERE t.NAME LIKE 'ftsdb/%' ORDER BY t.NAME, i.INDEX_ID" >"$dir/innodb_sys_indexes.tsv"
    run -B -e "SELECT t.NAME AS TABLE_NAME, i.NAME AS INDEX_NAME, f.* FROM information_schema.INNODB_SYS_FIELDS f
        JOIN information_schema.INNODB_SYS_INDEXES i USING (INDEX_ID)
        JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID)
        WHERE t.NAME LIKE 'ftsdb/%' ORDER BY t.NAME, f.INDEX_ID, f.POS" >"$dir/innodb_sys_fields.tsv"
}

rm -rf "$OUT/truth"
capture "$OUT/truth"
[[ $(wc -l <"$OUT/truth/innodb_ft_index_cache.tsv") -le 1 ]] ||
    die "INNODB_FT_INDEX_CACHE is not empty after the last sync"
run -N ftsdb -e 'SHOW CREATE TABLE articles' | cut -f2- | sed 's/\\n/\n/g' >"$OUT/create.sql"
echo ";" >>"$OUT/create.sql"
version=$(run -N -e 'SELECT VERSION()')
table_id=$(run -N -e "SELECT LPAD(LOWER(HEX(TABLE_ID)), 16, '0') FROM information_schema.INNODB_SYS_TABLES
    WHERE NAME = 'ftsdb/articles'")
"$SERVER" stop "$WORK" >&2

log "restarting to check that the truth describes the files on disk"
"$SERVER" start "$WORK" "$PORT" >&2
capture "$WORK/recheck"
"$SERVER" stop "$WORK" >&2
diff -r "$OUT/truth" "$WORK/recheck" >&2 || die "truth differs after a restart"

# ------------------------------------------------------------------ files ----
rm -f "$OUT"/*.ibd.gz "$OUT"/*.frm.gz
db=$WORK/data/ftsdb
files=(articles.ibd articles.frm)
for f in "$db"/FTS_"$table_id"_*.ibd; do files+=("$(basename "$f")"); done
[[ ${#files[@]} -eq 13 ]] || die "expected 11 FTS_${table_id}_* files, found $((${#files[@]} - 2))"
for f in "${files[@]}"; do
    gzip -9 -n -c "$db/$f" >"$OUT/$f.gz"
done
log "wrote ${#files[@]} files, $(($(wc -l <"$OUT/truth/innodb_ft_index_table.tsv") - 1)) INNODB_FT_INDEX_TABLE rows"

# ------------------------------------------------------------------ README ----
{
    cat <<EOF
# MariaDB FULLTEXT auxiliary tables

InnoDB's FTS auxiliary tablespaces of one FULLTEXT table, \`ftsdb.articles\`, as
${version} wrote them, with what the server itself reports through
INFORMATION_SCHEMA. Generated by \`tests/data/mariadb-fts/make.sh\` (private
instance managed by \`scripts/mariadb/server.sh\`):

    tests/data/mariadb-fts/make.sh

Table id \`0x${table_id}\`; all tablespaces are gzip -9 -n copies taken after a slow
shutdown (innodb_fast_shutdown=0).

## Files

| file | what |
| --- | --- |
| \`make.sql\` | the SQL that built the table, run as written (\`mariadb --default-character-set=utf8mb4 < make.sql\`) |
| \`create.sql\` | \`SHOW CREATE TABLE articles\` |
| \`articles.ibd.gz\`, \`articles.frm.gz\` | the table (clustered index with hidden FTS_DOC_ID, FTS_DOC_ID_INDEX, FULLTEXT index ft has no tree) |
EOF
    for f in "${files[@]}"; do
        case $f in
            FTS_*_INDEX_?.ibd) n=${f##*_INDEX_}
                echo "| \`$f.gz\` | INDEX_${n%.ibd}: (word, first_doc_id) -> last_doc_id, doc_count, ilist |";;
            FTS_*_CONFIG.ibd) echo "| \`$f.gz\` | CONFIG: key -> value |";;
            FTS_*.ibd) s=${f#FTS_"$table_id"_}; echo "| \`$f.gz\` | ${s%.ibd}: doc_id |";;
        esac
    done
    cat <<'EOF'
| `truth/innodb_ft_index_table.tsv` | `SELECT * FROM information_schema.INNODB_FT_INDEX_TABLE` |
| `truth/innodb_ft_index_cache.tsv` | `SELECT * FROM information_schema.INNODB_FT_INDEX_CACHE` (empty: everything was synced) |
| `truth/innodb_ft_config.tsv` | `SELECT * FROM information_schema.INNODB_FT_CONFIG` |
| `truth/innodb_ft_deleted.tsv` | `SELECT * FROM information_schema.INNODB_FT_DELETED` |
| `truth/innodb_ft_being_deleted.tsv` | `SELECT * FROM information_schema.INNODB_FT_BEING_DELETED` |
| `truth/articles.tsv` | `SELECT * FROM articles ORDER BY id` |
| `truth/doc_ids.tsv` | id -> FTS_DOC_ID, joined through each row's marker word `rowNN` in INNODB_FT_INDEX_TABLE |
| `truth/innodb_sys_*.tsv` | INNODB_SYS_TABLES / _COLUMNS / _INDEXES / _FIELDS rows of `ftsdb/%` |

All `.tsv` files are `mariadb -B` output (header line first), taken with
`SET GLOBAL innodb_ft_aux_table = 'ftsdb/articles'`. The client prints nothing at all,
not even the header, for an empty result, so `innodb_ft_index_cache.tsv` and
`innodb_ft_being_deleted.tsv` are empty files. The INNODB_FT_* queries have no
ORDER BY: the row order is the server's (INDEX_1..6, then (word, first_doc_id) key
order, then ilist order). INNODB_FT_INDEX_TABLE's POSITION is printed as the ilist
stores it: a document's first position, then the distance from the previous one, in
bytes of the indexed text (title, then body at title length + 1). The script takes
every truth file a second time after restarting the server on the shut-down datadir
and requires them to be identical.

## What the data covers

- Batch A (ids 1..20, doc ids from 1), synced by `OPTIMIZE TABLE` with
  `innodb_optimize_fulltext_only=ON`; rows 4 and 9 then deleted and purged by the
  next OPTIMIZE (their doc ids are gone from the ilists; `apricots`, `zucchini`,
  `kumquats`, `quinces` are gone altogether).
- 200 rolled-back inserts burn 200 doc ids, so batch B (ids 21..30) starts 200 higher;
  its sync writes a second node for words of both batches (same word, other
  first_doc_id) and their doc id delta needs two VLC bytes.
- Row 27 is deleted last and not optimized: its doc id is in DELETED
  (INNODB_FT_DELETED) while its words (`walnuts`, `xylophones`) stay in the ilists.
- Non-ASCII words (café, naïve, über, résumé, straße, ångström, Cyrillic, CJK),
  numbers, underscores, 30+ character words, a word repeated many times in one
  document (row 7), and `zenith` at a position above 16383 (row 15, a three-byte
  position).
EOF
} >"$OUT/README.md"
log "done: $OUT"
