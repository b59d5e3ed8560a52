#!/usr/bin/env bash
# Fidelity of Strata's B-tree fill against a real MariaDB:
# the same generated rows, inserted one by one, into Strata and into a private MariaDB
# (experiments/mariadb/insert-fidelity.sh); leaf pages and average leaf fill of PRIMARY and
# k_1 compared. Exits 1 when a PRIMARY figure differs by more than 10%.
#
#   tests/bench/insert_fidelity.sh [ROWS] [STRATEGY...]     (default 200000, all five)
#   env: STRATA (the binary, default build/cli/strata), WORK (default a temp dir)
# Needs: scripts/install-deps.sh mariadb
set -euo pipefail
# shellcheck source=tests/bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
rows=${1:-200000}
shift || true
strategies=("$@")
[[ ${#strategies[@]} -gt 0 ]] || strategies=(seq autoinc uuid ulid uuid-bin)
work=${WORK:-$(mktemp -d /tmp/strata-fidelity.XXXXXX)}
mkdir -p "$work"
[[ -x $strata ]] || die "$strata not found (build first)"

for s in "${strategies[@]}"; do
  echo "== $s: $rows rows" >&2
  rm -rf "$work/$s"
  "$strata" bench insert --datadir "$work/$s" --keys "$s" --rows "$rows" --flush-log-at-trx-commit 0 --rows-out "$work/$s.tsv" --json > "$work/$s.strata-insert.json"
  "$strata" inspect index "$work/$s/bench/sbtest1.ibd" --json > "$work/$s.strata-index.json"
  "$top/experiments/mariadb/insert-fidelity.sh" "$s" "$work/$s.tsv" "$work/$s.mariadb.json" > "$work/$s.mariadb.log" 2>&1 ||
    { echo "insert_fidelity: MariaDB run failed, see $work/$s.mariadb.log" >&2; exit 1; }
done

python3 - "$work" "${strategies[@]}" <<'PY'
import json, sys, os
work, strategies = sys.argv[1], sys.argv[2:]
bad = False
print("| strategy | index | MariaDB leaf pages | Strata leaf pages | diff | MariaDB avg fill | Strata avg fill | diff | MariaDB / Strata non-leaf |")
print("|---|---|---|---|---|---|---|---|---|")
for s in strategies:
    ours = json.load(open(os.path.join(work, s + ".strata-index.json")))
    theirs = json.load(open(os.path.join(work, s + ".mariadb.json")))
    f = ours["files"][0] if "files" in ours else ours
    for name, key in (("PRIMARY", "primary"), ("k_1", "k_1")):
        ix = next(i for i in f["indexes"] if i.get("name") == name)
        leaf = next(l for l in ix["levels"] if l["level"] == 0)
        non_leaf = sum(l["pages"] for l in ix["levels"] if l["level"] > 0)
        m = theirs[key]
        d_pages = leaf["pages"] / m["leaf_pages"] - 1
        d_fill = leaf["fill_avg"] / m["avg_leaf_fill"] - 1
        if name == "PRIMARY" and (abs(d_pages) > 0.10 or abs(d_fill) > 0.10):
            bad = True
        print(f"| {s} | {name} | {m['leaf_pages']} | {leaf['pages']} | {d_pages:+.1%} | {m['avg_leaf_fill']:.3f} | "
              f"{leaf['fill_avg']:.3f} | {d_fill:+.1%} | {m['non_leaf_pages']} / {non_leaf} |")
sys.exit(1 if bad else 0)
PY
