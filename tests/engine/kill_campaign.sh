#!/usr/bin/env bash
# The long kill -9 campaign of issue 19 (CI runs a bounded sample: kill_shapes_30, and 3 kills
# per shape in the unit suite): KILLS rounds of each shape in tests/engine/kill_shapes_test.cc,
# each round a child killed at a random point, then recovery checked against the model.
# Usage: tests/engine/kill_campaign.sh [KILLS_PER_SHAPE] [BUILD_DIR]   (default 1500, build)
# Prints one line per shape: kills, acknowledged transactions, commits verified; exits 1 on
# the first failure, with the shape and round.
set -euo pipefail
kills=${1:-1500}
build=${2:-build}
test -x "$build/tests/engine_test" || { echo "no $build/tests/engine_test: build first (make build)" >&2; exit 2; }
STRATA_KILLS_PER_SHAPE=$kills "$build/tests/engine_test" --gtest_filter='Shapes/KillShapesTest.*' \
  | grep -E '^\[ kill \]|FAILED|Failure|round [0-9]+' 
