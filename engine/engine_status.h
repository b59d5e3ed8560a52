// What the engine reports about itself, as the public API (engine/db.h) returns it: SHOW ENGINE
// INNODB STATUS's figures, a table's row and page counters, and the counters of the buffer
// pool, the redo log, the doublewrite area, the lock system and the last recovery. The parts
// that keep them include this header; it includes none of theirs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/isolation.h"

namespace strata::engine {

struct TrxSummary {
  std::uint64_t id = 0;
  std::uint64_t seq = 0;
  Isolation isolation = Isolation::kRepeatableRead;
  double seconds = 0;
  std::uint64_t undo_records = 0, rows_modified = 0, locks = 0;
  bool has_view = false;
  bool waiting = false;
  std::uint64_t view_low_limit_id = 0, view_up_limit_id = 0;
};

struct LockStats {
  std::uint64_t locks = 0;  // queue entries (granted and waiting)
  std::uint64_t waits = 0, timeouts = 0, deadlocks = 0;
  std::uint64_t memory_bytes = 0;  // of the lock table (estimate from its containers)
};

// SHOW ENGINE INNODB STATUS's TRANSACTIONS section, and the figures behind it.
struct EngineStatus {
  std::uint64_t max_trx_id = 0;            // "Trx id counter"
  std::uint64_t purged_below_no = 0;       // "Purge done for trx's n:o < N"
  std::uint64_t purged_below_undo_no = 0;  // "undo n:o < M"
  std::uint64_t history_list_length = 0;   // committed update-undo logs purge has not removed
  std::uint64_t purged_logs = 0, purged_records = 0;
  std::vector<TrxSummary> transactions;
  LockStats locks;
  std::string Render() const;  // the TRANSACTIONS section as InnoDB prints it
};

// SHOW TABLE STATUS's sizes as InnoDB counts them: the pages each index's two segments
// reserve (fragment pages and whole extents, LOB pages with the clustered index's), and the
// free extents of the file.
struct TableSize {
  std::uint64_t data_bytes = 0;   // Data_length: the clustered index
  std::uint64_t index_bytes = 0;  // Index_length: the secondary indexes
  std::uint64_t free_bytes = 0;   // Data_free: free extents beyond the reserve InnoDB keeps
};

struct TableStats {
  std::uint64_t rows_inserted = 0, rows_updated = 0, rows_deleted = 0;
  std::uint64_t page_splits = 0, page_merges = 0;
  // Searches from the root of the clustered index, and row lock requests (a point UPDATE
  // makes one of each: the read that locates and locks the row hands it to the write).
  std::uint64_t clustered_searches = 0, lock_requests = 0;
};

struct BufferPoolStats {
  std::uint64_t reads = 0, writes = 0, hits = 0, evictions = 0, young_moves = 0;
  std::size_t frames = 0, used = 0, dirty = 0;
};

struct RedoStats {
  std::uint64_t commits = 0;  // write operations ended (counted by the database)
  std::uint64_t appends = 0;  // mini-transactions
  std::uint64_t writes = 0;   // file writes
  std::uint64_t fsyncs = 0;   // of the log file (data writes, checkpoints, header)
  std::uint64_t bytes = 0;    // record bytes appended
  std::uint64_t checkpoints = 0;
  // The syncs of written log blocks (fsyncs less checkpoints and header writes) and the time
  // they took in all: a session that waits for each commit to be durable manages one per sync.
  std::uint64_t commit_syncs = 0;
  std::uint64_t commit_sync_micros = 0;
};

struct DoublewriteStats {
  std::uint64_t batches = 0, pages = 0, restored = 0;
};

struct RecoveryStats {
  std::uint64_t groups = 0, records = 0, applied = 0, skipped = 0, pages = 0;
  std::size_t threads = 0;            // that replayed the pages
  std::uint64_t rolled_back_trx = 0;  // transactions left active by the crash, rolled back
  std::uint64_t history_at_open = 0;  // the history list length found, before purge started
  // Tables of the catalog left unopened (file missing or damaged), each with why; the rest
  // opened, and nothing is written to these.
  std::vector<std::string> unavailable_tables;
};

}  // namespace strata::engine
