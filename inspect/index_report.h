// `strata inspect index`: each B+tree by level, its leaf chain in key order, and its segments.
//
// "Discontiguous" leaf steps are steps of the leaf chain (which follows key order) to any page
// other than the next one on disk: the fragmentation that the key order of inserts causes.
// Sequential keys give almost none; random keys (UUIDv4) make nearly every step a jump.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/finding.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "ondisk/inode.h"

namespace strata::inspect {

struct LevelStats {
  std::uint16_t level = 0;
  std::uint64_t pages = 0;
  std::uint64_t records = 0;
  double fill_min = 0, fill_avg = 0, fill_max = 0;
  std::array<std::uint64_t, 10> fill_histogram{};  // pages with fill in [0,10%), [10,20%), ... [90,100%]
  // ROW_FORMAT=COMPRESSED: the share of each stored page its stream, modification log and
  // trailer take (the fill above is of the logical pages they unpack to); over the pages
  // that unpack.
  std::uint64_t stored_pages = 0;
  double stored_fill_min = 0, stored_fill_avg = 0, stored_fill_max = 0;
};

struct SegmentStats {
  bool present = false;
  std::uint64_t segment_id = 0;
  ondisk::SegmentUsage usage;  // pages allocated (reserved) vs used, from the inode
};

struct IndexReport {
  std::uint64_t index_id = 0;
  std::string name;
  std::string table;
  std::uint32_t root_page = ondisk::kFilNull;
  std::vector<LevelStats> levels;  // from the root (highest level) down to the leaves
  // Leaf chain, walked from the leftmost leaf along next pointers.
  std::uint64_t leaf_chain_pages = 0;
  std::uint64_t leaf_steps = 0;
  std::uint64_t discontiguous_steps = 0;
  std::uint64_t backward_steps = 0;  // to a lower page number
  bool chain_complete = false;       // visited every leaf page exactly once
  SegmentStats leaf_segment, nonleaf_segment;
};

struct IndexesReport {
  std::string file;
  std::vector<IndexReport> indexes;
  std::vector<Finding> findings;
};

IndexesReport AnalyzeIndexes(const SpaceFile& file, const Dictionary* server = nullptr);

nlohmann::json ToJson(const IndexesReport& r);
std::string ToText(const IndexesReport& r);

}  // namespace strata::inspect
