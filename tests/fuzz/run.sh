#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time (SECONDS each), seeded with real pages and files.
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS
set -euo pipefail
build=$1
seconds=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus="$build/fuzz-corpus/page"
mkdir -p "$corpus"

# Seeds: a selector byte (2 = 16 KiB, normal format; 10 = 16 KiB full_crc32; 11 and 12 = 32
# and 64 KiB full_crc32) and one page, from every fixture file, so the fuzzer starts from real
# INDEX, FSP, INODE, SDI and LOB pages of every size.
n=0
# seed FILE SELECTOR PAGE_BYTES FIRST COUNT: one seed per page FIRST.. of FILE (pages past its
# end are skipped), each the selector byte (printf escape) then the page.
seed() {
  local file=$1 sel=$2 bytes=$3 first=$4 count=$5 pages p
  pages=$(( $(stat -c %s "$file") / bytes ))
  for ((p = first; p < pages && p < first + count; p++)); do
    printf "$sel" > "$corpus/seed-$n"
    dd if="$file" bs="$bytes" skip="$p" count=1 status=none >> "$corpus/seed-$n"
    n=$((n + 1))
  done
}
if [ -z "$(ls -A "$corpus")" ]; then
  for f in "$top"/../shared/fixtures/mysql-sakila/*/*/*.ibd "$top"/tests/data/mariadb/*.ibd; do
    [ -f "$f" ] || continue
    sel='\x02'
    case "$f" in */mariadb/t_crc32*) ;; */mariadb/*) sel='\x0a' ;; esac
    seed "$f" "$sel" 16384 0 8
  done
  ibd=$(mktemp)
  for f in "$top"/tests/data/mariadb-large-pages/*/t_pages.ibd.gz; do
    zcat "$f" > "$ibd"
    case "$f" in */32k/*) seed "$ibd" '\x0b' 32768 0 8 ;; *) seed "$ibd" '\x0c' 65536 0 8 ;; esac
  done
  # ROW_FORMAT=COMPRESSED pages of every KEY_BLOCK_SIZE (selector bit 7, bits 4-6 the size).
  for k in 0 1 2 3 4; do
    zcat "$top/tests/data/mariadb-compressed/zip$((1 << k)).ibd.gz" > "$ibd"
    seed "$ibd" "\\x$(printf %x $((0x82 | k << 4)))" $((1024 << k)) 3 8
  done
  # MariaDB PAGE_COMPRESSED pages of every algorithm, both formats (selector 10: full_crc32).
  for f in "$top"/tests/data/mariadb-page-compressed/*/pc_*.ibd.gz; do
    zcat "$f" > "$ibd"
    case "$f" in */fcrc32/*) seed "$ibd" '\x0a' 16384 1 8 ;; *) seed "$ibd" '\x02' 16384 1 8 ;; esac
  done
  # MariaDB-encrypted pages (the page fuzzer decrypts them with a fixed key).
  for f in "$top"/tests/data/mariadb-encrypted/*/enc*.ibd.gz; do
    zcat "$f" > "$ibd"
    case "$f" in */crc32/*) seed "$ibd" '\x02' 16384 1 8 ;; *) seed "$ibd" '\x0a' 16384 1 8 ;; esac
  done
  rm -f "$ibd"
  echo "fuzz: $n seed pages"
fi

echo "fuzz: page_fuzzer for ${seconds}s"
"$build/tests/fuzz/page_fuzzer" -max_total_time="$seconds" -max_len=65537 -timeout=10 \
  -print_final_stats=1 "$corpus"

# Whole files for the inspector's readers: the small real tablespaces as seeds.
files="$build/fuzz-corpus/inspect"
mkdir -p "$files"
cp -n "$top"/tests/data/mariadb/*.ibd "$files"/ 2>/dev/null || true
# MySQL 8.0 files with their dictionaries, for `inspect rows`: every column type, instant
# ADD/DROP row versions, off-page LOBs.
for f in data_types type_test instant_add_drop ddl_test blob_external nullable_no_pk; do
  cp -n "$top/../shared/fixtures/external/ibdNinja/8.0/$f.ibd" "$files/ibdninja-$f.ibd" 2>/dev/null || true
done
# MariaDB files altered instantly (metadata records, column maps), which the fuzzer reads with
# the definitions of the script that made them.
for f in "$top"/tests/data/ibdninja/truth/mariadb/mi_*.ibd.gz "$top"/tests/data/mariadb-fts/FTS_*INDEX_[15].ibd.gz \
  "$top"/tests/data/ibdninja/truth/mariadb/type_test.frm.gz "$top"/tests/data/ibdninja/truth/mariadb/key_shapes.cfg.gz; do
  [ -e "$files/mariadb-$(basename "$f" .gz)" ] || gunzip -c "$f" > "$files/mariadb-$(basename "$f" .gz)"
done
# Encrypted tablespaces, which the fuzzer opens with their keys; a key file and a keyring.
for f in fcrc32/enc_pc crc32/enc ctr/enc; do
  [ -e "$files/mariadb-encrypted-${f%%/*}.ibd" ] || gunzip -c "$top/tests/data/mariadb-encrypted/$f.ibd.gz" > "$files/mariadb-encrypted-${f%%/*}.ibd"
done
cp -n "$top/../shared/fixtures/external/percona-parser/encrypted_test.ibd" "$files/mysql-encrypted.ibd" 2>/dev/null || true
cp -n "$top/tests/data/mariadb-encrypted/keys.txt" "$files/keys.txt" 2>/dev/null || true
cp -n "$top/tests/data/mysql-encrypted/keyring_test" "$files/keyring" 2>/dev/null || true
# The first 64 KiB of a MySQL 9.0 #ib_redo file: header, checkpoints and 124 blocks of records.
[ -e "$files/mysql-ib_redo10" ] || head -c 65536 "$top/../shared/fixtures/external/idb-utils-mysql90/mysql90_redo_10" \
  > "$files/mysql-ib_redo10" 2>/dev/null || true
echo "fuzz: inspect_fuzzer for ${seconds}s"
"$build/tests/fuzz/inspect_fuzzer" -max_total_time="$seconds" -max_len=$((1 << 20)) -timeout=30 \
  -rss_limit_mb=4096 -print_final_stats=1 "$files"

# SQL text: the dump fixture's scripts (and a dump's first statements) as seeds.
sql="$build/fuzz-corpus/sql"
mkdir -p "$sql"
if [ -z "$(ls -A "$sql")" ]; then
  for f in "$top"/tests/data/mariadb-dump/create.sql "$top"/tests/data/mariadb/create.sql \
           "$top"/tests/data/ibdninja/truth/mariadb/type_test.sql "$top"/tests/data/ibdninja/sql/09_all_column_types.sql; do
    { printf '\x05'; cat "$f"; } > "$sql/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
  done
  { printf '\x40'; zcat "$top"/tests/data/mariadb-dump/dump.sql.gz | head -c 200000 || true; } > "$sql/seed-dump-head"
fi
echo "fuzz: sql_fuzzer for ${seconds}s"
"$build/tests/fuzz/sql_fuzzer" -max_total_time="$seconds" -max_len=$((1 << 18)) -timeout=10 \
  -print_final_stats=1 "$sql"

# SQL that runs: the harness's seed scripts over its two tables, grown by its SQL-shaped mutator.
statements="$build/fuzz-corpus/sql-exec"
mkdir -p "$statements"
[ -n "$(ls -A "$statements")" ] || "$build/tests/fuzz/sql_exec_replay" --seeds "$statements"
echo "fuzz: sql_exec_fuzzer for ${seconds}s"
"$build/tests/fuzz/sql_exec_fuzzer" -max_total_time="$seconds" -max_len=$((1 << 16)) -timeout=20 \
  -rss_limit_mb=4096 -print_final_stats=1 "$statements"

# Redo records for recovery: the harness's own seeds (groups as the engine logs them).
redo="$build/fuzz-corpus/redo"
mkdir -p "$redo"
[ -n "$(ls -A "$redo")" ] || "$build/tests/fuzz/redo_replay" --seeds "$redo"
echo "fuzz: redo_fuzzer for ${seconds}s"
"$build/tests/fuzz/redo_fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -print_final_stats=1 "$redo"
