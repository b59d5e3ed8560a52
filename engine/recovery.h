// Crash recovery (INV-5): replays the complete mini-transactions found after the checkpoint
// onto the pages they changed, page by page (in parallel when the log is long). A group applies to a page only when the page's LSN is older
// than the group's end; a page that cannot be read (torn) is rebuilt when the group starts it
// from INIT, and is Corruption naming the page otherwise.
#pragma once

#include <vector>

#include "engine/buffer_pool.h"
#include "engine/redo_log.h"

namespace strata::engine {

struct RecoveryStats {
  std::uint64_t groups = 0, records = 0, applied = 0, skipped = 0, pages = 0;
  std::size_t threads = 0;            // that replayed the pages
  std::uint64_t rolled_back_trx = 0;  // transactions left active by the crash, rolled back
  std::uint64_t history_at_open = 0;  // the history list length found, before purge started
};

// Every tablespace the log may name must be registered with the pool; records for others
// (dropped tables) are skipped.
Result<RecoveryStats> ApplyRedo(BufferPool& pool, const std::vector<RedoGroup>& groups);

}  // namespace strata::engine
