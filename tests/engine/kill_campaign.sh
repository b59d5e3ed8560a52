#!/usr/bin/env bash
# The long kill -9 campaign (CI runs a bounded sample: 3 kills per shape in the
# unit suite, 30 under the slow label): KILLS rounds of each shape of
# tests/engine/kill_shapes_test.cc, one shape after another, each round a child killed at a
# random point and the recovered directory checked against the model.
# Then the DDL campaign (tests/engine/kill_ddl_test.cc): DDL_KILLS rounds per flush mode of
# CREATE/DROP DATABASE, CREATE/DROP TABLE, CREATE INDEX and INSERT beside a steady writer.
# Usage: tests/engine/kill_campaign.sh [KILLS_PER_SHAPE] [BUILD_DIR] [DDL_KILLS]   (default 1500, build, 1500)
# Prints a line per shape as it ends (kills, acknowledged transactions, commits verified);
# exits 1 if any shape failed, after printing its failure.
set -uo pipefail
kills=${1:-1500}
build=${2:-build}
ddl_kills=${3:-1500}
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
for mode in 1 2 0; do
  out=$(STRATA_DDL_KILLS=$ddl_kills "$bin" --gtest_filter="Flush/KillDdlTest.*/FlushLogAtTrxCommit$mode" 2>&1)
  if grep -q '^\[  PASSED  \]' <<<"$out"; then
    grep '^\[ kill \]' <<<"$out"
  else
    failed=1
    echo "DDL flush $mode FAILED:"
    grep -E 'Failure|round [0-9]+|FAILED|left behind|differs' <<<"$out" | head -20
  fi
done
exit $failed
