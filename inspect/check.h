// `strata inspect check`: every page and every structure that ties pages together.
//
//   per page     checksum (which algorithm), torn page (header vs trailer LSN), misplaced page
//                (page number or space id), B-tree page structure (directory slots, record
//                chain order and loops, heap bounds, owned counts, record count)
//   per file     B-tree sibling links (prev/next agree, same index and level), the extent
//                lists of the FSP header and of every segment (nodes are XDES entries in the
//                right state and owner, lengths match, no loops), the INODE page lists
//
// Exit status of the command: 0 when nothing is found, 1 when something is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/finding.h"
#include "inspect/space_file.h"

namespace strata::inspect {

struct CheckReport {
  std::string file;
  std::uint32_t pages_checked = 0;
  std::uint32_t btree_pages = 0;
  std::uint32_t lists_checked = 0;
  std::vector<Finding> findings;
  // Warnings (a file longer than its FSP size, say) are reported but are not damage.
  bool clean() const {
    for (const auto& f : findings) {
      if (f.severity == Severity::kError) return false;
    }
    return true;
  }
};

CheckReport CheckSpace(const SpaceFile& file);

nlohmann::json ToJson(const CheckReport& r);
std::string ToText(const CheckReport& r);

}  // namespace strata::inspect
