// `strata inspect summary`: what a tablespace is and what it holds, from one pass over its
// pages.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/finding.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"

namespace strata::inspect {

struct IndexSummary {
  std::uint64_t index_id = 0;
  std::string name;  // from the file's dictionary (MySQL 8.0 SDI) when it has one
  std::string table;
  std::uint32_t root_page = ondisk::kFilNull;
  std::uint16_t levels = 0;  // highest level + 1
  std::uint64_t leaf_pages = 0;
  std::uint64_t nonleaf_pages = 0;
  std::uint64_t records = 0;  // user records on leaf pages
  std::uint64_t leaf_data_bytes = 0;
  double avg_leaf_fill = 0;  // mean of data_size / record space of an empty page
};

struct SpaceSummary {
  std::string file;
  std::string flavor;
  bool full_crc32 = false;
  std::size_t page_size = 0;
  std::optional<std::uint32_t> space_id;  // none when page 0 is unreadable and the pages disagree
  std::optional<ondisk::FspFlags> flags;
  std::uint32_t fsp_size = 0;  // pages, per the FSP header
  std::uint32_t pages = 0;     // whole pages in the file
  std::string kind;
  std::map<std::string, std::uint64_t> type_counts;  // by type name
  std::map<std::string, std::uint64_t> checksum_algorithms;
  std::uint64_t never_written = 0;
  std::uint64_t checksum_failures = 0;
  std::uint64_t encrypted_pages = 0;                     // contents encrypted (MySQL or MariaDB)
  std::uint64_t unverifiable_pages = 0;                  // MySQL-encrypted: neither verified nor failed
  std::map<std::string, std::uint32_t> page_compressed;  // MariaDB PAGE_COMPRESSED pages, by algorithm
  std::uint32_t decrypted_pages = 0;                     // read in clear with a key (--key-file)
  std::string decrypted_with;                            // which key and cipher
  std::uint64_t torn_pages = 0;
  std::uint64_t misplaced_pages = 0;
  std::vector<IndexSummary> indexes;  // by index id
  std::vector<Finding> findings;
};

// `server`: names from the server's SYS_* tables (MySQL 5.7, MariaDB), when known.
SpaceSummary Summarize(const SpaceFile& file, const Dictionary* server = nullptr);

nlohmann::json ToJson(const SpaceSummary& s);
std::string ToText(const SpaceSummary& s);

}  // namespace strata::inspect
