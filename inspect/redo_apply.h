// A data directory's pages against its redo log. A server that crashed, or a copy of a running
// one, leaves pages older than the log: every change after the checkpoint is in the log only.
// StaleLogFinding says so; ApplyRedo replays those changes onto the pages in memory (MariaDB
// 10.8+ and Strata logs, whose records are physical), after putting torn pages back from the
// doublewrite copies recovery would take, so that what is read next is what the server would
// have after its crash recovery. The files are never written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "inspect/finding.h"
#include "inspect/redo_report.h"
#include "inspect/space_file.h"

namespace strata::inspect {

// Whether `dir` holds a redo log (ib_logfile0 or #innodb_redo/): a data directory.
bool HasLog(const std::filesystem::path& dir);
// The data directory a tablespace file belongs to: its own directory or the one above
// (db/t.ibd), whichever holds a redo log; nullopt when neither does.
std::optional<std::filesystem::path> DataDirOf(const std::filesystem::path& file);

// A warning when the directory's redo log holds changes past its checkpoint (how many, which
// LSN range, how many pages); nullopt when it holds none or there is no log. `analysed`: the
// log's report when the caller has it already (the log is then not read again).
std::optional<Finding> StaleLogFinding(const std::filesystem::path& dir, const RedoReport* analysed = nullptr);

struct RedoApplyResult {
  std::uint64_t checkpoint_lsn = 0, end_lsn = 0;
  std::uint64_t mtrs = 0, records = 0;
  std::uint64_t pages_changed = 0;           // brought forward, fully or up to a record it could not replay
  std::uint64_t pages_from_doublewrite = 0;  // torn pages put back from their doublewrite copies first
  // Pages left behind (at the last LSN this reader could bring them to) and why: a record kind
  // it does not replay, a tablespace it could not change.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> pages_left;
  std::uint64_t pages_not_here = 0;  // of tablespaces not among the files
  std::vector<Finding> findings;     // what was done, in text a user reads
};

// Replays the log of `dir` onto `files` (its tablespaces, opened). Logs of other formats are
// named in a finding and nothing is changed.
RedoApplyResult ApplyRedo(const std::filesystem::path& dir, std::vector<SpaceFile>& files);

}  // namespace strata::inspect
