// `strata inspect extents`: every 1 MiB extent with its state (free, free_frag, full_frag,
// owned by a segment), its owner (index and leaf/non-leaf segment), and per page: free or
// used per the extent descriptor, page type and B-tree fill.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/space_map.h"

namespace strata::inspect {

struct ExtentPage {
  std::uint32_t page = 0;
  bool free = false;  // per the descriptor bitmap
  bool never_written = false;
  std::uint16_t type = 0;
  std::optional<std::uint64_t> index_id;  // B-tree pages
  double fill = 0;                        // B-tree pages
};

struct ExtentInfo {
  std::uint32_t number = 0;
  std::uint32_t first_page = 0;
  std::string state;  // XDES state name, or NOT_INITED for extents past the free limit
  std::uint64_t segment_id = 0;
  std::optional<SegmentOwner> owner;
  std::uint32_t used_pages = 0;
  std::vector<ExtentPage> pages;
};

struct ExtentsReport {
  std::string file;
  std::uint32_t pages_per_extent = 0;
  std::vector<ExtentInfo> extents;
};

ExtentsReport AnalyzeExtents(const SpaceFile& file, const SpaceMap& map);

// One character per page, for text output: '.' free, ':' allocated but never written,
// '0'..'9' the fill decile of a B-tree page, '#' any other page type.
char ExtentGlyph(const ExtentPage& p);

// `names`, when given, names the indexes that own extents.
nlohmann::json ToJson(const ExtentsReport& r, const Dictionary* names = nullptr);
std::string ToText(const ExtentsReport& r, const Dictionary* names = nullptr);

}  // namespace strata::inspect
