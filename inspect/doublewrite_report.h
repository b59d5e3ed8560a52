// `strata inspect doublewrite`: the page copies a doublewrite area holds (ondisk/doublewrite.h),
// each set against the page in its tablespace when the data directory has it: newer, equal
// (and whether byte for byte) or older by LSN; whether each is whole by its own checksum; and
// which pages recovery would mend from a copy: a page that fails its checksum, with a whole copy
// that recovery accepts (MariaDB: only copies between the checkpoint and the end of the log;
// MySQL: any). The files are never written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/finding.h"

namespace strata::inspect {

struct EncryptionKeys;

struct DoublewriteCopy {
  std::uint32_t slot = 0;
  std::uint64_t file_offset = 0;
  std::uint32_t page = 0;
  std::uint64_t lsn = 0;
  std::string type;           // the copy's page type
  std::size_t length = 0;     // bytes before the slot's zero tail
  bool whole = false;         // its own checksum holds (for the tablespace's format, when known)
  bool unverifiable = false;  // encrypted: its checksum cannot be checked without the key
  // Which tablespace it is a copy of, and how that was known ("header": the space id field;
  // "decompressed": that field inside a page-compressed copy; "identical page": the only
  // tablespace with these bytes at that page number). Unknown: nullopt, and why.
  std::uint32_t header_space = 0;  // the copy's space id field (not in clear in some MariaDB copies)
  std::optional<std::uint32_t> space;
  std::string space_from;
  std::string tablespace;  // its file; empty when not at hand
  // The page in the tablespace.
  std::optional<std::uint64_t> page_lsn;
  std::optional<bool> page_valid;  // its checksum holds (nullopt: cannot be verified)
  std::string relation;            // "newer", "equal", "older"; empty when not compared
  bool identical = false;          // equal, and the same bytes
  std::optional<bool> eligible;    // recovery would consider this copy (MariaDB's LSN window)
  bool restores = false;           // the page fails its checksum and recovery would mend it from here
};

struct DoublewriteSource {
  std::string file;
  std::string kind;  // "system tablespace area", "MySQL 8.0.20+ doublewrite file", ...
  std::uint32_t page_size = 0;
  std::uint32_t slots = 0;
  std::uint32_t unused = 0;           // zero, or MySQL's placeholder pages
  std::vector<std::uint32_t> blocks;  // the system area's two blocks (first pages)
  std::vector<DoublewriteCopy> copies;
};

struct DoublewriteReport {
  std::string path;
  std::vector<DoublewriteSource> sources;
  std::optional<std::uint64_t> checkpoint_lsn, log_end_lsn;  // from the data directory's redo log
  std::vector<Finding> findings;
};

// `path`: a data directory (its system area, #ib_*.dblwr files and ib_doublewrite), ibdata1,
// or a doublewrite file; the tablespaces are looked for beside it.
DoublewriteReport AnalyzeDoublewrite(const std::filesystem::path& path, const EncryptionKeys* keys = nullptr);

nlohmann::json ToJson(const DoublewriteReport& r);
std::string ToText(const DoublewriteReport& r, bool every_slot);

}  // namespace strata::inspect
