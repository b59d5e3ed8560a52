// What the engine reports about itself: SHOW ENGINE INNODB STATUS's figures and a table's
// row and page counters, as the public API (engine/db.h) returns them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/lock_sys.h"
#include "engine/trx_sys.h"

namespace strata::engine {

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

struct TableStats {
  std::uint64_t rows_inserted = 0, rows_updated = 0, rows_deleted = 0;
  std::uint64_t page_splits = 0, page_merges = 0;
};

}  // namespace strata::engine
