#!/usr/bin/env bash
# Redraws the README's pictures (docs/*.png) and the figure tables beside them, from fresh runs:
#   1. `make demo`'s own run: 500,000 rows per key strategy, 16 MiB buffer pool;
#   2. the same statements at 1,000,000 rows in Strata and in a private MariaDB
#      (needs `scripts/install-deps.sh mariadb`; SKIP_MARIADB=1 leaves those pictures as they are);
#   3. the three MariaDB 10.11 tables bundled in tests/data, and sakila's 25 tablespaces
#      (MySQL 8.0, from the shared fixtures: STRATA_FIXTURES or ../shared/fixtures), drawn with
#      `strata render`.
# The tables in README.md between `<!-- NAME:begin -->` and `<!-- NAME:end -->` are replaced
# by the runs' own report tables, so the numbers beside a picture are the picture's.
# Takes about 15 minutes on 2 cores, most of it MariaDB's UUID table. Usage:
#   scripts/readme-pictures.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
strata=$build/cli/strata
out=$build/readme-pictures
[ -x "$strata" ] || { echo "readme-pictures: $strata not built (make build)" >&2; exit 1; }
mkdir -p "$out"

# The report.md table of a run, cut to the columns a README reader needs.
table() {
  awk -F' [|] ' -v keep="strategy,engine,key,insert s,file MiB,pages vs autoinc,leaf pages,leaf fill,page splits,COUNT(*) cold s" '
    function row(   line, i) {
      line = "|"
      for (i = 1; i <= n; i++) line = line " " cell[col[i]] " |"
      print line
    }
    /^\| strategy / {
      gsub(/^\| | \|$/, ""); split($0, names, / \| /)
      split(keep, wanted, ",")
      for (w = 1; w in wanted; w++) for (c in names) if (names[c] == wanted[w]) col[++n] = c
      for (i = 1; i <= n; i++) cell[col[i]] = names[col[i]]
      row(); line = "|"
      for (i = 1; i <= n; i++) line = line (i <= 3 ? "---|" : "---:|")
      print line; intable = 1; next
    }
    intable && /^\|---/ { next }
    intable && /^\| / { gsub(/^\| | \|$/, ""); split($0, cell, / \| /); row(); next }
    intable { exit }
  ' "$1"
}

# Replaces the lines between the markers of NAME in README.md with the contents of FILE.
replace_block() {
  local name=$1 file=$2
  grep -q "<!-- $name:begin -->" README.md || { echo "readme-pictures: README.md has no $name block" >&2; exit 1; }
  awk -v name="$name" -v file="$file" '
    $0 == "<!-- " name ":begin -->" { print; while ((getline line < file) > 0) print line; skip = 1; next }
    $0 == "<!-- " name ":end -->" { skip = 0 }
    !skip { print }
  ' README.md > README.md.new && mv README.md.new README.md
}

echo "== 1/3: make demo's run (500,000 rows per table)"
"$strata" experiment keys --rows 500000 --buffer-pool 16M --out "$out/demo"
for f in insert_time extents lsn; do cp "$out/demo/$f.png" "docs/keys-${f//_/-}.png"; done
table "$out/demo/report.md" > "$out/demo/table.md"
replace_block demo-table "$out/demo/table.md"

if [ -z "${SKIP_MARIADB:-}" ]; then
  echo "== 2/3: Strata and MariaDB, 1,000,000 rows per table"
  "$strata" experiment keys --rows 1000000 --strategies autoinc,uuid,ulid --buffer-pool 16M --mariadb --out "$out/mariadb-1m"
  for f in insert_time extents lsn; do cp "$out/mariadb-1m/$f.png" "docs/keys-1m-mariadb-${f//_/-}.png"; done
  table "$out/mariadb-1m/report.md" > "$out/mariadb-1m/table.md"
  replace_block mariadb-table "$out/mariadb-1m/table.md"
fi

echo "== 3/3: the bundled MariaDB tables and sakila"
# The fixture's ibdata1 is compressed in the repository; unpacked beside the tables it names
# their indexes (PRIMARY, not "index 24").
rm -rf "$out/mariadb-history" && cp -r tests/data/mariadb-history "$out/mariadb-history" && gunzip -f "$out"/mariadb-history/*.gz
h=$out/mariadb-history/hist
"$strata" render extents $h/t_uuid.ibd $h/t_ulid.ibd $h/t_autoinc.ibd \
  --title "MariaDB 10.11: 3,000 rows keyed by UUID, ULID and auto-increment, then 530 small transactions" \
  -o docs/uuid-vs-ulid-extents.png
"$strata" render lsn $h/t_uuid.ibd $h/t_ulid.ibd $h/t_autoinc.ibd --shared-scale -o docs/uuid-vs-ulid-lsn.png
sakila=${STRATA_FIXTURES:-../shared/fixtures}/mysql-sakila/8.0/sakila
if [ -d "$sakila" ]; then
  "$strata" render index "$sakila" --width 1600 --title "sakila (MySQL 8.0): its 25 tablespaces by index" -o docs/sakila-index.png
else
  echo "readme-pictures: $sakila not found; docs/sakila-index.png left as it is" >&2
fi
echo "readme-pictures: docs/*.png and README.md's tables redrawn; the runs are in $out"
