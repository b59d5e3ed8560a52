// `strata bench insert`: generated sbtest rows (experiments/sbtest.h) keyed by a strategy,
// inserted through the engine's API one row per call or a batch per call; how fast, and the
// table it made. The CLI parses the options and prints the result.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "datasets/keys.h"
#include "ondisk/status.h"

namespace strata::experiments {

struct InsertBenchOptions {
  std::filesystem::path datadir;  // created when missing
  datasets::KeyStrategy keys = datasets::KeyStrategy::kAutoinc;
  std::uint64_t rows = 100000;
  std::uint64_t batch = 1;  // rows per Table::InsertBatch call; 1: Table::Insert
  std::size_t buffer_pool_bytes = 128u << 20;
  std::string database = "bench";
  std::string table = "sbtest1";  // must not exist yet
  std::uint64_t seed = 1;         // of the keys; the rows' is seed + 1
  int flush_log_at_trx_commit = 1;
  bool disable_redo = false;  // redo logging off for the load, on again at the end
  // Also the rows as TSV (id, k, c, pad; binary ids in hex), e.g. for a MariaDB to load.
  std::optional<std::filesystem::path> rows_out;
};

struct InsertBenchResult {
  double insert_seconds = 0;
  double seconds_with_flush = 0;  // with the flush (or the redo switched on again) at the end
  double rows_per_second = 0;     // over insert_seconds
  std::uint64_t page_splits = 0;
  std::filesystem::path file;  // the table's .ibd
  std::uint64_t file_bytes = 0;
};

// Called with the rows inserted so far, after each call into the engine.
using RowsDoneFn = std::function<void(std::uint64_t rows_done)>;

// AlreadyExists when the table does; any engine error with the row it stopped at.
ondisk::Result<InsertBenchResult> RunInsertBench(const InsertBenchOptions& options, const RowsDoneFn& progress = {});

}  // namespace strata::experiments
