// How a data directory is opened and how a transaction begins: the options of the engine's
// public API (engine/db.h), each named after the InnoDB variable it stands for.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "engine/isolation.h"

namespace strata::engine {

class Env;

struct DatabaseOptions {
  std::size_t buffer_pool_bytes = 128u << 20;  // innodb_buffer_pool_size
  std::uint64_t redo_log_bytes = 96u << 20;    // the circular log's capacity (a new log only)
  // innodb_flush_log_at_trx_commit: 1 durable at each commit; 2 written at commit, synced
  // every second; 0 written and synced every second.
  int flush_log_at_trx_commit = 1;
  // Commits from many threads share log writes and fsyncs. Off (for measuring what it buys):
  // each commit's change and its fsync run alone, one commit after another.
  bool group_commit = true;
  // innodb_force_recovery, for copying out what is readable from a directory that will not
  // open otherwise (every level from 3 up refuses every change, so nothing is built on it):
  //   0      normal;
  //   1, 2   no background purge (InnoDB's 2; Strata has no level-1 behaviour of its own);
  //   3      the log is replayed, but transactions a crash left active are not rolled back
  //          (their undo logs stay ACTIVE: the next normal open rolls them back);
  //   4, 5   as 3 (Strata has no change buffer, and always reads the undo logs);
  //   6      no doublewrite restore and no redo replay: the files are read as they are, and
  //          nothing is written; the only level that opens a directory that crashed while
  //          redo logging was disabled.
  int force_recovery = 0;
  // innodb_read_only: every file is opened for reading only and nothing is written, created or
  // removed (a snapshot, a backup on a read-only mount); every change is refused. A log that
  // holds changes past its checkpoint is refused, since recovery would write them into the
  // files (force_recovery 6 reads the files as they are instead, and implies read_only).
  bool read_only = false;
  // innodb_open_files: at most this many files open at once, the least recently used closed
  // and reopened on their next use; 0 keeps the process's limit (half of `ulimit -n`).
  std::size_t open_files = 0;
  bool create_if_missing = true;
  bool page_cleaner = true;
  Env* env = nullptr;                                   // Env::Default() when null
  std::chrono::milliseconds lock_wait_timeout{50'000};  // innodb_lock_wait_timeout
  bool deadlock_detect = true;                          // innodb_deadlock_detect
  bool purge = true;  // the background purge thread (off: purge runs only through Purge())
  // Early lock release (OceanBase's enable_early_lock_release): a committing transaction
  // releases its row locks once its commit record is in the log buffer, not after the fsync,
  // so the next transaction on a hot row need not wait for it. Nothing undurable is ever
  // acknowledged (INV-3): a writer's own commit record follows the one it depends on, and a
  // read-only transaction waits for the early-released commits it could have seen.
  bool enable_early_lock_release = false;
  // At most this many transactions wait for durability with their locks already released;
  // beyond it commits keep their locks until durable (max_elr_dependent_trx_count).
  std::size_t max_elr_dependent_trx_count = 1000;
  // innodb_fast_shutdown: 1 closes without finishing purge (the history stays in the undo
  // logs, as InnoDB's default leaves it); 0 (a slow shutdown) purges all it may first.
  int fast_shutdown = 1;
};

struct TransactionOptions {
  Isolation isolation = Isolation::kRepeatableRead;
  // START TRANSACTION WITH CONSISTENT SNAPSHOT: the read view opens now, not at the first read.
  bool consistent_snapshot = false;
};

}  // namespace strata::engine
