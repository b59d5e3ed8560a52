// `strata inspect regions`: runs of consecutive pages of one type (and, for B-tree pages,
// one index and level), the coarse map of a file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/schema.h"
#include "inspect/space_file.h"

namespace strata::inspect {

struct Region {
  std::uint32_t first = 0;
  std::uint32_t last = 0;  // inclusive
  std::string type;        // PageTypeName: the type, or FREE / DOUBLEWRITE / NEVER_WRITTEN
  std::optional<std::uint64_t> index_id;
  std::optional<std::uint16_t> level;
  std::string index_name;  // as the dictionary names it, else "index ID"
  std::uint32_t pages() const { return last - first + 1; }
};

// `names`, when given, names the indexes.
std::vector<Region> FindRegions(const SpaceFile& f, const Dictionary* names = nullptr);
nlohmann::json RegionsToJson(const SpaceFile& f, const std::vector<Region>& regions);
std::string RegionsToText(const SpaceFile& f, const std::vector<Region>& regions);

}  // namespace strata::inspect
