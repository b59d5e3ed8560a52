// sysbench's sbtest table as one TableSpec, for every experiment and benchmark that uses it:
// `strata bench insert` (the key as a strategy stores it), `strata bench hotrow`, and the
// engine and transaction benchmarks of tests/bench (sysbench's own BIGINT id).
//
//   sbtest1 (id <by key strategy>, k INT UNSIGNED NOT NULL DEFAULT 0, c CHAR(120) NOT NULL,
//            pad CHAR(60) NOT NULL, PRIMARY KEY (id), KEY k_1 (k))
//
// datasets::CreateTableStatement writes the same table as SQL for dumps and for MariaDB;
// tests/experiments/sbtest_test.cc checks that the two agree.
#pragma once

#include <string>

#include "datasets/keys.h"
#include "engine/schema.h"

namespace strata::experiments {

struct SbtestShape {
  datasets::KeyStrategy keys = datasets::KeyStrategy::kSeq;
  bool bigint_id = false;  // id BIGINT instead of the strategy's INT (seq, autoinc only)
  bool k_index = true;     // KEY k_1 (k)
};

engine::TableSpec SbtestSpec(std::string database, std::string table, const SbtestShape& shape = {});

}  // namespace strata::experiments
