// `strata inspect redo`: a redo log read offline. Every log: the file header (format,
// creator, start LSN, flags) and both checkpoints. Block-framed logs (Strata's, MySQL up to
// 8.0.29, MariaDB up to 10.7): the blocks from the newest checkpoint on (checksum, block
// number, data length, first record group) and the LSN range present. Strata's own log: its
// records decoded, grouped into mini-transactions, summarised by type and by page.
// MySQL 8.0.30+: the same from the file holding the newest checkpoint on through the #ib_redo
// files after it, and the records decoded (ondisk/mysql_redo.h), from the checkpoint or (--all)
// from the oldest file's start.
// MariaDB 10.8+ ("Phys", no block framing): header, checkpoints, and the mini-transactions
// after the checkpoint walked (by their termination bytes and CRC-32C) to where the log ends,
// their records decoded (ondisk/mariadb_redo.h) and summarised the same way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/finding.h"
#include "ondisk/mariadb_redo.h"

namespace strata::inspect {

struct RedoCheckpointInfo {
  std::size_t file_offset = 0;
  bool valid = false;
  std::uint64_t number = 0;
  std::uint64_t lsn = 0;
  std::uint64_t end_lsn = 0;  // MariaDB 10.8+
  std::uint64_t offset = 0;   // where in the log group its LSN's block is (block-framed logs)
};

struct RedoRecordInfo {
  std::uint64_t lsn = 0;  // of the record's first byte
  std::uint64_t mtr = 0;  // which mini-transaction (counted from the checkpoint)
  std::string type;
  std::uint32_t space = 0, page = 0;  // EXTEND: page = the new size
  std::uint32_t offset = 0;           // WRITE, MEMSET, MEMMOVE: where on the page
  std::uint32_t length = 0;           // and how many bytes they change
  std::vector<std::byte> bytes;       // WRITE: the bytes written
};

// A page the records after the checkpoint change (decoded logs).
struct RedoPageInfo {
  std::uint64_t records = 0;
  std::uint64_t last_lsn = 0;  // the end LSN of the last mini-transaction that changed it: its
                               // FIL_PAGE_LSN once recovered (MariaDB)
  bool freed = false;          // its last change freed it (MariaDB FREE_PAGE)
};

struct RedoOptions {
  bool records = false;                                         // list every record
  std::optional<std::pair<std::uint32_t, std::uint32_t>> page;  // only this page's records
  bool all = false;  // MySQL 8.0.30+: every record the files hold, not only those after the checkpoint
};

struct RedoReport {
  std::string file;
  std::vector<std::string> log_files;  // MySQL 8.0.30+: the #ib_redo files read, in LSN order
  std::uint64_t file_size = 0;
  std::uint32_t format = 0;
  std::string format_name;
  std::string creator;
  std::uint64_t start_lsn = 0;
  std::uint32_t flags = 0;
  bool header_checksum_ok = false;
  std::vector<RedoCheckpointInfo> checkpoints;
  std::optional<std::size_t> newest;  // index into checkpoints
  bool block_framed = false;
  bool records_decoded = false;  // Strata's own format
  // From the newest checkpoint: blocks read and how they ended.
  std::uint64_t blocks_read = 0, blocks_valid = 0;
  std::string scan_end;                      // why the scan stopped
  std::uint64_t lsn_begin = 0, lsn_end = 0;  // the log present after the checkpoint
  std::uint64_t mtr_groups = 0;
  std::uint64_t checkpoint_marks = 0;       // of which MariaDB's FILE_CHECKPOINT markers, changing nothing
  std::uint64_t incomplete_tail_bytes = 0;  // a last group cut short (never committed)
  std::map<std::string, std::uint64_t> record_types;
  std::map<std::pair<std::uint32_t, std::uint32_t>, RedoPageInfo> pages;  // (space, page)
  std::vector<std::pair<std::string, std::uint64_t>> top_pages;           // "space:page", records
  std::vector<RedoRecordInfo> records;                                    // with RedoOptions::records or ::page
  std::optional<std::pair<std::uint32_t, std::uint32_t>> page_asked;      // RedoOptions::page
  std::vector<Finding> findings;
};

// Handed each whole mini-transaction after the checkpoint of a MariaDB 10.8+ or Strata log, in
// LSN order: its records and the LSN its pages take (--apply-redo replays them). Strata's
// records arrive as STRATA_WRITE (offset, bytes, anywhere on the page) and STRATA_INIT (the
// page zeroed).
using MariaMtrVisitor = std::function<void(const std::vector<ondisk::MariaRedoRecord>&, std::uint64_t end_lsn)>;

// `path`: a log file, or a data directory holding ib_logfile0 or #innodb_redo.
RedoReport AnalyzeRedo(const std::filesystem::path& path, const RedoOptions& options,
                       const MariaMtrVisitor& visit = {});

nlohmann::json ToJson(const RedoReport& r, bool with_bytes = false);
std::string ToText(const RedoReport& r);

}  // namespace strata::inspect
