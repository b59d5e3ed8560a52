// `strata inspect lsn`: the LSN of every page, how they spread, and how old each page is
// relative to the others. Never-written and free pages are reported as such, not as "oldest";
// a page that fails its checksum has an LSN nobody can trust: it is "damaged", outside the range.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/space_file.h"
#include "inspect/space_map.h"

namespace strata::inspect {

enum class LsnState : std::uint8_t { kWritten, kNeverWritten, kFree, kDamaged };
const char* ToString(LsnState s);  // "written", "never_written", "free", "damaged"

struct LsnPage {
  std::uint32_t page = 0;
  std::uint64_t lsn = 0;
  LsnState state = LsnState::kWritten;
  double age_rank = 0;  // written pages: 0 = oldest LSN, 1 = newest
};

struct LsnReport {
  std::string file;
  std::uint64_t min_lsn = 0, max_lsn = 0;
  std::uint64_t written = 0, never_written = 0, free = 0, damaged = 0;
  std::vector<std::uint64_t> histogram;  // written pages per equal-width LSN bucket, min..max
  std::vector<LsnPage> pages;
};

LsnReport AnalyzeLsn(const SpaceFile& file, const SpaceMap& map, std::size_t buckets = 20);

nlohmann::json ToJson(const LsnReport& r);
std::string ToText(const LsnReport& r);

}  // namespace strata::inspect
