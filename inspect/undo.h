// `strata inspect undo`: rollback segments and the history list, read from the system
// tablespace (TRX_SYS slots) and the undo tablespaces (MySQL 8.0 RSEG_ARRAY pages; MySQL
// 5.7 and MariaDB undo tablespaces are reached through the TRX_SYS slots).
//
// History list length = the sum over rollback segments of TRX_RSEG_HISTORY's length: the
// committed update-undo logs purge has not processed yet, the figure SHOW ENGINE INNODB
// STATUS prints. History size (pages) is reported beside it, separately.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/finding.h"
#include "inspect/space_file.h"

namespace strata::inspect {

struct UndoLogInfo {
  std::uint32_t page = 0;
  std::uint16_t offset = 0;  // of the undo log header
  std::uint64_t trx_id = 0;
  std::uint64_t trx_no = 0;
  std::string type;                 // INSERT / UPDATE (from the undo page header; MariaDB 10.3+ writes none)
  std::uint32_t records = 0;        // undo records of this log on its first page
  std::uint32_t segment_pages = 0;  // pages of the undo segment holding the log (its page list)
  bool del_marks = false;
};

struct RsegInfo {
  std::string source;  // "TRX_SYS slot 3" or "RSEG_ARRAY entry 0"
  std::uint32_t space_id = 0;
  std::uint32_t page = 0;
  std::string file;
  std::uint32_t history_length = 0;   // transactions (undo logs) in the history list
  std::uint32_t history_size = 0;     // pages
  std::uint32_t undo_slots_used = 0;  // active or cached undo segments
  std::vector<UndoLogInfo> logs;      // with --logs
};

struct UndoReport {
  std::vector<RsegInfo> rsegs;
  std::uint64_t history_list_length = 0;  // over the rollback segments read
  std::uint64_t history_pages = 0;
  // Why the figures above are not the server's whole history (no system tablespace, so
  // TRX_SYS and its rollback segments were not read); empty when they are.
  std::string incomplete;
  bool logs = false;
  std::vector<Finding> findings;
};

// `files` are every tablespace the user named; the system tablespace (space 0) must be among
// them for TRX_SYS, MySQL 8.0 undo tablespaces are read on their own.
UndoReport AnalyzeUndo(const std::vector<const SpaceFile*>& files, bool with_logs);

nlohmann::json ToJson(const UndoReport& r);
std::string ToText(const UndoReport& r);

}  // namespace strata::inspect
