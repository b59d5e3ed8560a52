// The commit-path experiments of `strata bench`, in-process through SQL sessions:
// - hot row (OceanBase's experiment): every session runs UPDATE sbtest1 SET k=k+1 WHERE id=1 as
//   autocommit statements on the one row, each acknowledged only once durable; with early lock
//   release and/or the GROUP_COMMIT hint, or neither;
// - async commit (the stored-procedure case): one session loops INSERT + COMMIT with
//   async_commit off, then on.
// The CLI parses the options and prints the results.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>

#include "engine/db_options.h"
#include "ondisk/status.h"

namespace strata::experiments {

struct HotRowOptions {
  std::filesystem::path datadir;  // created when missing; sbtest.sbtest1 is made anew
  unsigned threads = 50;          // sessions updating the row at once
  unsigned updates = 2000;        // per session
  bool early_lock_release = false;
  bool group_commit_hint = false;  // UPDATE /*+ GROUP_COMMIT(TRUE) */
  unsigned fsync_latency_us = 0;   // added to every sync of the redo log, as a slower disk would
  // With early lock release: how many commits may wait for durability with their locks released.
  std::size_t max_elr_dependent_trx_count = engine::DatabaseOptions{}.max_elr_dependent_trx_count;
};

struct HotRowResult {
  std::uint64_t total_updates = 0;
  double seconds = 0;  // until the last session's last update was acknowledged
  double tps = 0;
  std::uint64_t log_fsyncs = 0, commits = 0;
  double commits_per_fsync = 0;
  double p50_ms = 0, p99_ms = 0;  // commit latency, each update from send to acknowledgement
  // The mean log sync, and the most TPS the sessions could reach at it: each waits for its own
  // update's sync before it sends the next, whatever the mode (0 when no sync was timed).
  double log_sync_ms = 0, ceiling_tps = 0;
  std::uint64_t k_grew = 0;  // must be total_updates: no update lost
};

// Called about every 100 ms with the updates acknowledged so far.
using UpdatesDoneFn = std::function<void(std::uint64_t done)>;

// An error from the engine or from any session's statement.
ondisk::Result<HotRowResult> RunHotRow(const HotRowOptions& options, const UpdatesDoneFn& progress = {});

struct AsyncCommitOptions {
  std::filesystem::path datadir;  // created when missing; bench.commits is made anew
  unsigned loops = 1000;          // INSERT + COMMIT per run
  unsigned fsync_latency_us = 0;
};

struct AsyncCommitRun {
  double seconds = 0;  // the CALL, which returns once every commit it made is durable
  double commits_per_second = 0;
  std::uint64_t log_fsyncs = 0;
  double log_sync_ms = 0;  // the mean sync of written log blocks: this machine's (and --fsync-latency-us's)
};

struct AsyncCommitResult {
  AsyncCommitRun off, on;  // ob_enable_pl_async_commit OFF, then ON
  bool rows_ok = false;    // every inserted row is there
};

ondisk::Result<AsyncCommitResult> RunAsyncCommit(const AsyncCommitOptions& options);

}  // namespace strata::experiments
