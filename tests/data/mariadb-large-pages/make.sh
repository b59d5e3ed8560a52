#!/usr/bin/env bash
# Tablespaces with 32 KiB and 64 KiB pages, written by a real MariaDB server (innodb_page_size
# is fixed when a data directory is created, so each size gets an instance of its own;
# the files are mostly zeros, kept gzipped):
#
#   OUTDIR/32k/t_pages.ibd.gz, OUTDIR/64k/t_pages.ibd.gz   one table, 1,500 rows: an int key, a
#       secondary index, short and off-page text, so the file holds INDEX pages of two levels,
#       BLOB pages, the FSP header, an INODE page and a full extent descriptor page
#   OUTDIR/<size>/truth.tsv   what the server says of it: page size, rows, and
#       innochecksum's verdict
#
#   make.sh [OUTDIR]        (OUTDIR defaults to tests/data/mariadb-large-pages, where this script is)
#
# Env: PORT (default 33065), KEEP_WORK=1. Needs mariadb-server, mariadb-client (Debian 12: 10.11).
set -euo pipefail

PORT=${PORT:-33065}
source "$(dirname "$0")/../../../scripts/mariadb/lib.sh"
fixture_init strata-large-pages "$@"

for size in 32k 64k; do
    inst=$WORK/$size
    SERVER_EXTRA_CNF="innodb_page_size=$size
innodb_file_per_table=1
innodb_data_file_path=ibdata1:12M:autoextend
innodb_temp_data_file_path=ibtmp1:12M:autoextend" start_instance "$inst" "$PORT"
    sqlin "$inst" <<'SQL'
CREATE DATABASE fx;
USE fx;
CREATE TABLE t_pages (
  id INT NOT NULL PRIMARY KEY,
  k  INT NOT NULL,
  s  VARCHAR(200) NOT NULL,
  big TEXT NULL,
  KEY k_k (k)
) ENGINE=InnoDB ROW_FORMAT=DYNAMIC;
INSERT INTO t_pages
  SELECT seq, (seq * 7919) % 1000, CONCAT('row-', seq, '-', REPEAT('s', seq % 150)),
         IF(seq % 100 = 0, REPEAT(CONCAT('blob', seq), 5000), NULL)
  FROM seq_1_to_1500;
SQL
    rows=$(val "$inst" 'SELECT COUNT(*) FROM fx.t_pages')
    page=$(val "$inst" 'SELECT @@innodb_page_size')
    "$SERVER" stop "$inst" >&2
    mkdir -p "$OUT/$size"
    verdict=ok
    innochecksum "$inst/data/fx/t_pages.ibd" >/dev/null 2>&1 || verdict=failed
    gzip -9 -n -c "$inst/data/fx/t_pages.ibd" > "$OUT/$size/t_pages.ibd.gz"
    printf 'page_size\trows\tinnochecksum\n%s\t%s\t%s\n' "$page" "$rows" "$verdict" > "$OUT/$size/truth.tsv"
    log "$size: $(stat -c %s "$inst/data/fx/t_pages.ibd") bytes, $rows rows, innochecksum $verdict"
done
