// Two tablespaces side by side: the same rows written by two engines (Strata and MariaDB), with
// two keys, or in two row formats. Indexes are matched by name, so PRIMARY is set against
// PRIMARY; an index only one file has is listed as such, never matched by position. The SDI (the
// dictionary MySQL 8.0 and Strata keep in the file) is not an index of the table: left out.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inspect/index_report.h"
#include "inspect/summary.h"

namespace strata::inspect {

// One figure of both files: the file's size or page count, or one of an index's.
struct ComparedFigure {
  std::string index;  // empty for the file's own figures
  std::string what;   // "leaf pages", "records", ...
  double a = 0, b = 0;
  enum class Unit { kCount, kShare, kMiB } unit = Unit::kCount;  // a share is in [0, 1], printed as a percentage
};

// An index both files have: its leaf pages per tenth of fill, for histograms side by side.
struct ComparedIndex {
  std::string name;
  std::array<std::uint64_t, 10> leaf_fill_a{}, leaf_fill_b{};
};

struct SpaceComparison {
  std::string file_a, file_b;
  std::string flavor_a, flavor_b;
  std::vector<ComparedFigure> figures;
  std::vector<ComparedIndex> indexes;             // in both, in file A's order
  std::vector<std::string> only_in_a, only_in_b;  // index names (or "index N" when unnamed)
  // Whether every index both have holds as many records in one as in the other: the files can
  // hold the same rows. (Not proof that they do: the rows themselves are not compared.)
  bool same_record_counts = false;
  bool unnamed = false;           // an index of either file has no name, so was not matched
  std::vector<Finding> findings;  // damage either file's reading found (errors only)
};

// The file sizes are given by the caller (a summary counts pages, not bytes).
SpaceComparison CompareSpaces(const SpaceSummary& a, const IndexesReport& ia, std::uint64_t a_bytes,
                              const SpaceSummary& b, const IndexesReport& ib, std::uint64_t b_bytes);

// How a figure is written: its row's name ("PRIMARY leaf pages"), a value, B against A (a ratio
// for counts, the difference in points for shares), and what the record counts say.
std::string Label(const ComparedFigure& f);
std::string Shown(const ComparedFigure& f, double v);
std::string Versus(const ComparedFigure& f);
std::string RecordCountsVerdict(const SpaceComparison& c);

nlohmann::json ToJson(const SpaceComparison& c);
std::string ToText(const SpaceComparison& c);

}  // namespace strata::inspect
