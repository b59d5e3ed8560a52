// The undo-history experiment: why does "History list length" keep growing? A REPEATABLE
// READ view stays open while other transactions update one row; every committed update
// leaves an update-undo log in the history, and purge may not remove any of them while the
// view could still need the versions they hold. The engine then stops with a fast shutdown
// (innodb_fast_shutdown=1) with the view still open, so the history stays on disk for
// `strata inspect undo`; optionally the directory is reopened and purge empties the history.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "engine/db.h"

namespace strata::experiments {

struct HistorySample {
  std::string phase;          // "view_open", "after_restart", "purging"
  std::uint64_t updates = 0;  // updates committed so far
  std::uint64_t history_list_length = 0;
  double seconds = 0;  // since the phase began
};

struct HistoryExperimentOptions {
  std::uint64_t updates = 10000;
  std::uint64_t samples = 20;  // while the view is open
  bool purge_after = false;    // reopen after the shutdown and watch purge empty the history
  double purge_timeout_s = 120;
  std::size_t buffer_pool_bytes = 64u << 20;
};

struct HistoryExperimentResult {
  std::vector<HistorySample> samples;
  std::uint64_t history_at_start = 0;
  std::uint64_t history_at_shutdown = 0;
  std::uint64_t history_after_restart = 0;  // with purge_after
  std::uint64_t history_at_end = 0;         // with purge_after
  std::uint64_t view_reads_k = 0;           // what the open view still reads (the first version)
  std::string status_at_shutdown;           // the TRANSACTIONS section just before the shutdown
  double update_seconds = 0, purge_seconds = 0;
};

// Runs the scenario in `datadir` (created when missing; table bank.acct created or reused).
// `on_sample` sees each sample as it is taken (for a live display).
ondisk::Result<HistoryExperimentResult> RunHistoryExperiment(
    const std::filesystem::path& datadir, const HistoryExperimentOptions& options,
    const std::function<void(const HistorySample&)>& on_sample = {});

}  // namespace strata::experiments
