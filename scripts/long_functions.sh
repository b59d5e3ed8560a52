#!/bin/sh
# The longest functions of the product modules, by lines, with the counts issue 41's target
# names (none over 120 lines, fewer than 35 over 80). Needs universal-ctags
# (scripts/install-deps.sh review).
#   scripts/long_functions.sh [N]   the N longest (default 40)
cd "$(dirname "$0")/.." || exit 2
ctags -R --languages=C++ --kinds-C++=f --fields=+ne -x --_xformat='%{end} %{line} %N %F' \
  ondisk sqltext engine sql inspect cli viz datasets experiments 2>/dev/null |
  awk '$1 != "-" { print $1 - $2 + 1, $3, $4 ":" $2 }' | sort -rn > /tmp/strata-functions.$$
echo "over 120 lines: $(awk '$1 > 120' /tmp/strata-functions.$$ | wc -l)," \
  "over 80: $(awk '$1 > 80' /tmp/strata-functions.$$ | wc -l)"
head -n "${1:-40}" /tmp/strata-functions.$$
rm -f /tmp/strata-functions.$$
