// Crash recovery (INV-5): replays the complete mini-transactions found after the checkpoint
// onto the pages they changed, page by page (in parallel when the log is long). A group applies to a page only when the page's LSN is older
// than the group's end; a page that cannot be read (torn) is rebuilt when the group starts it
// from INIT, and is Corruption naming the page otherwise.
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "engine/engine_status.h"
#include "engine/buffer_pool.h"
#include "engine/redo_log.h"

namespace strata::engine {

// Replays the records of the spaces `covers` accepts (all when empty). Every tablespace the log
// may name must be registered with the pool; records for others (dropped tables) are skipped.
// The system tablespace is replayed on its own first: the catalog it holds says which table
// files there are.
//
// A page that cannot be replayed (unreadable, or all zeros where the log changes an existing
// page: its earlier writes are lost) fails the replay; with `damaged` given, it fails only its
// own space instead, named there with the reason, and the other spaces are replayed.
using DamagedSpaces = std::map<std::uint32_t, Status>;
Result<RecoveryStats> ApplyRedo(BufferPool& pool, const std::vector<RedoGroup>& groups,
                                const std::function<bool(ondisk::SpaceId)>& covers = {},
                                DamagedSpaces* damaged = nullptr);

}  // namespace strata::engine
