#include "inspect/compare.h"

#include <fmt/format.h>

#include <algorithm>

#include "inspect/thousands.h"

namespace strata::inspect {

namespace {

std::string NameOf(const IndexSummary& ix) {
  return ix.name.empty() ? "index " + std::to_string(ix.index_id) : ix.name;
}

const IndexReport* ReportOf(const IndexesReport& r, std::uint64_t index_id) {
  for (const auto& ix : r.indexes) {
    if (ix.index_id == index_id) return &ix;
  }
  return nullptr;
}

// An unnamed index is known only by its id, which differs between files: it is never matched.
const IndexSummary* Named(const SpaceSummary& s, const std::string& name) {
  for (const auto& ix : s.indexes) {
    if (!ix.name.empty() && ix.name == name) return &ix;
  }
  return nullptr;
}

}  // namespace

SpaceComparison CompareSpaces(const SpaceSummary& a, const IndexesReport& ia, std::uint64_t a_bytes,
                              const SpaceSummary& b, const IndexesReport& ib, std::uint64_t b_bytes) {
  SpaceComparison c;
  c.file_a = a.file, c.file_b = b.file;
  c.flavor_a = a.flavor, c.flavor_b = b.flavor;
  for (const auto* findings : {&a.findings, &ia.findings, &b.findings, &ib.findings}) {
    for (const auto& f : *findings) {
      if (f.severity == Severity::kError) c.findings.push_back(f);
    }
  }
  using Unit = ComparedFigure::Unit;
  c.figures.push_back({"", "MiB", a_bytes / 1048576.0, b_bytes / 1048576.0, Unit::kMiB});
  c.figures.push_back({"", "pages", double(a.pages), double(b.pages), Unit::kCount});
  c.figures.push_back({"", "pages all zeros", double(a.never_written), double(b.never_written), Unit::kCount});
  c.same_record_counts = true;
  // The SDI is the dictionary, not an index of the table (MySQL 8.0 and Strata keep one,
  // MariaDB does not): left out.
  auto user = [](const IndexSummary& ix) { return ix.name != "SDI"; };
  for (const auto& x : a.indexes) {
    if (!user(x)) continue;
    const IndexSummary* y = Named(b, x.name);
    if (!y) {
      c.only_in_a.push_back(NameOf(x));
      c.unnamed |= x.name.empty();
      continue;
    }
    c.same_record_counts &= x.records == y->records;
    const IndexReport* rx = ReportOf(ia, x.index_id);
    const IndexReport* ry = ReportOf(ib, y->index_id);
    c.figures.push_back({x.name, "levels", double(x.levels), double(y->levels), Unit::kCount});
    c.figures.push_back({x.name, "leaf pages", double(x.leaf_pages), double(y->leaf_pages), Unit::kCount});
    c.figures.push_back({x.name, "non-leaf pages", double(x.nonleaf_pages), double(y->nonleaf_pages), Unit::kCount});
    c.figures.push_back({x.name, "records", double(x.records), double(y->records), Unit::kCount});
    c.figures.push_back({x.name, "leaf fill", x.avg_leaf_fill, y->avg_leaf_fill, Unit::kShare});
    ComparedIndex ci{x.name, {}, {}};
    if (rx && ry) {
      c.figures.push_back(
          {x.name, "leaf-chain jumps", double(rx->discontiguous_steps), double(ry->discontiguous_steps), Unit::kCount});
      if (!rx->levels.empty()) ci.leaf_fill_a = rx->levels.back().fill_histogram;
      if (!ry->levels.empty()) ci.leaf_fill_b = ry->levels.back().fill_histogram;
    }
    c.indexes.push_back(ci);
  }
  for (const auto& y : b.indexes) {
    if (!user(y) || (!y.name.empty() && Named(a, y.name))) continue;
    c.only_in_b.push_back(NameOf(y));
    c.unnamed |= y.name.empty();
  }
  c.same_record_counts &= !c.indexes.empty();
  return c;
}

std::string Label(const ComparedFigure& f) { return f.index.empty() ? "file " + f.what : f.index + " " + f.what; }

std::string Shown(const ComparedFigure& f, double v) {
  if (f.unit == ComparedFigure::Unit::kShare) return fmt::format("{:.1f}%", 100 * v);
  if (f.unit == ComparedFigure::Unit::kMiB) return v < 10 ? fmt::format("{:.2f}", v) : fmt::format("{:.1f}", v);
  return Thousands(static_cast<std::uint64_t>(v));
}

std::string Versus(const ComparedFigure& f) {
  if (f.a == f.b) return "equal";
  if (f.unit == ComparedFigure::Unit::kShare) return fmt::format("{:+.1f} points", 100 * (f.b - f.a));
  if (f.a == 0) return "";
  const double r = f.b / f.a;  // three significant digits far from 1: 0.00334x, not 0.00x
  return r < 0.1 || r >= 100 ? fmt::format("{:.3g}x", r) : fmt::format("{:.2f}x", r);
}

std::string RecordCountsVerdict(const SpaceComparison& c) {
  std::string s = c.indexes.empty() ? "No index is in both files."
                  : c.same_record_counts
                      ? "Every index both files have holds as many records in A as in B."
                      : "The files do not hold the same number of records in every index they share.";
  // One sentence a line.
  if (!c.only_in_a.empty() || !c.only_in_b.empty())
    s += "\nThey do not have the same indexes: they may not be the same table.";
  if (c.unnamed) {
    s += "\nAn index whose name could not be read (no dictionary beside the file, or a damaged one) is known only by "
         "its "
         "id and is not matched.";
  }
  if (!c.findings.empty()) s += "\nDamage was found (below): the figures of a damaged file are not the whole truth.";
  return s;
}

nlohmann::json ToJson(const SpaceComparison& c) {
  nlohmann::json figures = nlohmann::json::array();
  auto number = [](const ComparedFigure& f, double v) {  // counts as JSON integers
    return f.unit != ComparedFigure::Unit::kCount ? nlohmann::json(v) : nlohmann::json(static_cast<std::uint64_t>(v));
  };
  for (const auto& f : c.figures) {
    figures.push_back({{"index", f.index.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.index)},
                       {"figure", f.what},
                       {"a", number(f, f.a)},
                       {"b", number(f, f.b)},
                       {"b_over_a", f.a != 0 && f.unit != ComparedFigure::Unit::kShare ? nlohmann::json(f.b / f.a)
                                                                                       : nlohmann::json(nullptr)}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : c.findings) findings.push_back(ToJson(f));
  nlohmann::json indexes = nlohmann::json::array();
  for (const auto& ix : c.indexes) {
    indexes.push_back(
        {{"name", ix.name}, {"leaf_fill_histogram_a", ix.leaf_fill_a}, {"leaf_fill_histogram_b", ix.leaf_fill_b}});
  }
  return {{"a", {{"file", c.file_a}, {"flavor", c.flavor_a}}},
          {"b", {{"file", c.file_b}, {"flavor", c.flavor_b}}},
          {"figures", figures},
          {"indexes", indexes},
          {"only_in_a", c.only_in_a},
          {"only_in_b", c.only_in_b},
          {"same_record_counts", c.same_record_counts},
          {"findings", findings}};
}

std::string ToText(const SpaceComparison& c) {
  std::vector<std::array<std::string, 4>> rows{{"", "A", "B", "B vs A"}};
  for (const auto& f : c.figures) {
    rows.push_back({Label(f), Shown(f, f.a), Shown(f, f.b), Versus(f)});
  }
  std::array<std::size_t, 4> width{};
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < 4; ++i) width[i] = std::max(width[i], r[i].size());
  }
  std::string out = fmt::format("A: {} ({})\nB: {} ({})\n\n", c.file_a, c.flavor_a, c.file_b, c.flavor_b);
  for (const auto& r : rows) {
    out += fmt::format("{:<{}}  {:>{}}  {:>{}}  {}\n", r[0], width[0], r[1], width[1], r[2], width[2], r[3]);
  }
  auto names = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& n : v) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  if (!c.only_in_a.empty()) out += "\nonly in A: " + names(c.only_in_a) + "\n";
  if (!c.only_in_b.empty())
    out += (c.only_in_a.empty() ? "\n" : "") + std::string("only in B: ") + names(c.only_in_b) + "\n";
  out += "\n" + RecordCountsVerdict(c) + "\n";
  for (const auto& f : c.findings) out += "damage: " + f.ToString() + "\n";
  return out;
}

}  // namespace strata::inspect
