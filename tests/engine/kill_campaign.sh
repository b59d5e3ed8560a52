#!/usr/bin/env bash
# The long kill -9 campaign (CI runs a bounded sample: 3 kills per shape in the
# unit suite, 30 under the slow label): KILLS rounds of each shape of
# tests/engine/kill_shapes_test.cc, one shape after another, each round a child killed at a
# random point and the recovered directory checked against the model.
# Usage: tests/engine/kill_campaign.sh [KILLS_PER_SHAPE] [BUILD_DIR]   (default 1500, build)
# Prints a line per shape as it ends (kills, acknowledged transactions, commits verified);
# exits 1 if any shape failed, after printing its failure.
set -uo pipefail
kills=${1:-1500}
build=${2:-build}
bin="$build/tests/engine_test"
test -x "$bin" || { echo "no $bin: build first (make build)" >&2; exit 2; }
failed=0
for shape in $("$bin" --gtest_list_tests --gtest_filter='Shapes/KillShapesTest.*' | sed -n 's/^  [^/]*\/\([A-Za-z0-9]*\).*/\1/p' | sort -u); do
  out=$(STRATA_KILLS_PER_SHAPE=$kills "$bin" --gtest_filter="Shapes/KillShapesTest.*/$shape" 2>&1)
  if grep -q '^\[  PASSED  \]' <<<"$out"; then
    grep '^\[ kill \]' <<<"$out"
  else
    failed=1
    echo "$shape FAILED:"
    grep -E 'Failure|round [0-9]+|FAILED' <<<"$out" | head -20
  fi
done
exit $failed
