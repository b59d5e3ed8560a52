#include "inspect/index_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "inspect/schema.h"
#include "inspect/space_map.h"
#include "ondisk/index_page.h"
#include "ondisk/zip_page.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

SegmentStats Segment(const SpaceFile& f, const FsegHeader& h) {
  SegmentStats s;
  PageSize ps = f.shape().geometry();
  if (!h.Check(ps, 0).ok() || h.page.value() >= f.n_pages()) return s;
  InodeEntry e(f.page(h.page.value()), h.slot(ps), ps);
  if (!e.in_use() || !e.Check().ok()) return s;
  s.present = true;
  s.segment_id = e.segment_id();
  s.usage = e.Usage();
  return s;
}

// The leaf chain of index `ix`, in key order from its leftmost leaf: how many pages it reaches
// and how it steps (backward, not contiguous); where it breaks or loops, a finding. `seen` is
// all false before and after.
void WalkLeafChain(const SpaceMap& m, const std::vector<std::uint32_t>& starts, std::uint64_t leaves,
                   const std::string& name, std::vector<bool>& seen, IndexReport& ix, std::vector<Finding>& findings) {
  const std::uint64_t id = ix.index_id;
  if (starts.size() != 1) {
    findings.push_back(
        {Severity::kError, name, starts.empty() ? std::nullopt : std::optional(starts[1]), std::nullopt, "leaf chain",
         fmt::format("index {} has {} leaf pages without a previous page; expected one", id, starts.size())});
  }
  if (starts.empty()) return;
  std::vector<std::uint32_t> visited;
  std::uint32_t cur = starts[0];
  visited.push_back(cur);
  seen[cur] = true;
  ix.leaf_chain_pages = 1;
  while (true) {
    const std::uint32_t next = m.pages[cur].next;
    if (next == kFilNull) break;
    if (next >= m.pages.size() || !m.pages[next].btree() || m.pages[next].index_id != id || m.pages[next].level != 0 ||
        seen[next]) {
      findings.push_back({Severity::kError, name, cur, FilHeader::kNext, "leaf chain",
                          fmt::format("index {}: next page {} {}", id, next,
                                      next < m.pages.size() && seen[next] ? "was already visited (a loop)"
                                                                          : "is not a leaf of this index")});
      break;
    }
    ++ix.leaf_steps;
    if (next != cur + 1) ++ix.discontiguous_steps;
    if (next < cur) ++ix.backward_steps;
    seen[next] = true;
    visited.push_back(next);
    ++ix.leaf_chain_pages;
    cur = next;
  }
  ix.chain_complete = ix.leaf_chain_pages == leaves;
  for (std::uint32_t v : visited) seen[v] = false;
}

}  // namespace

IndexesReport AnalyzeIndexes(const SpaceFile& file, const Dictionary* server) {
  IndexesReport r;
  r.file = file.path().string();
  const std::string name = file.path().filename().string();
  SpaceMap m = BuildSpaceMap(file);
  Dictionary dict = DictionaryFor(file, server);

  std::map<std::uint64_t, std::map<std::uint16_t, LevelStats>> levels;
  std::map<std::uint64_t, std::vector<std::uint32_t>> leftmost;  // leaves with no prev
  std::map<std::uint64_t, std::uint64_t> leaf_count;
  std::vector<std::byte> logical(file.shape().compressed() ? file.shape().logical_page_size() : 0);  // an unpacked page
  for (std::uint32_t n = 0; n < m.pages.size(); ++n) {
    const PageCell& c = m.pages[n];
    if (!c.btree()) continue;
    LevelStats& l = levels[c.index_id][c.level];
    const double fill = m.Fill(c);
    l.level = c.level;
    l.fill_min = l.pages ? std::min(l.fill_min, fill) : fill;
    l.fill_max = l.pages ? std::max(l.fill_max, fill) : fill;
    l.fill_avg += fill;
    l.fill_histogram[std::min<std::size_t>(9, static_cast<std::size_t>(fill * 10))]++;
    ++l.pages;
    l.records += c.n_recs;
    if (file.shape().compressed()) {
      if (auto z = DecompressIndexPage(file.page(n), logical); z.ok()) {
        const double stored = static_cast<double>(z->log_end + 1 + file.page_size() - z->trailer_start) /
                              static_cast<double>(file.page_size());
        l.stored_fill_min = l.stored_pages ? std::min(l.stored_fill_min, stored) : stored;
        l.stored_fill_max = l.stored_pages ? std::max(l.stored_fill_max, stored) : stored;
        l.stored_fill_avg += stored;
        ++l.stored_pages;
      }
    }
    if (c.level == 0) {
      ++leaf_count[c.index_id];
      if (c.prev == kFilNull) leftmost[c.index_id].push_back(n);
    }
  }

  std::vector<bool> seen(m.pages.size(), false);  // reset after each index's walk
  for (auto& [id, by_level] : levels) {
    IndexReport ix;
    ix.index_id = id;
    if (id == kSdiIndexId) ix.name = "SDI";
    if (const IndexDef* def = dict.FindIndex(id)) ix.name = def->name, ix.table = def->table;
    if (auto it = m.roots.find(id); it != m.roots.end()) ix.root_page = it->second;
    for (auto it = by_level.rbegin(); it != by_level.rend(); ++it) {
      LevelStats l = it->second;
      if (l.pages) l.fill_avg /= static_cast<double>(l.pages);
      if (l.stored_pages) l.stored_fill_avg /= static_cast<double>(l.stored_pages);
      ix.levels.push_back(l);
    }
    WalkLeafChain(m, leftmost[id], leaf_count[id], name, seen, ix, r.findings);
    if (ix.root_page != kFilNull) {
      auto ip = file.OpenIndexPage(file.page(ix.root_page));
      if (ip.ok()) {
        ix.leaf_segment = Segment(file, ip->seg_leaf());
        ix.nonleaf_segment = Segment(file, ip->seg_top());
      }
    }
    r.indexes.push_back(ix);
  }
  return r;
}

nlohmann::json ToJson(const IndexesReport& r) {
  nlohmann::json ixs = nlohmann::json::array();
  auto seg = [](const SegmentStats& s) -> nlohmann::json {
    if (!s.present) return nullptr;
    return {{"segment_id", s.segment_id},
            {"fragment_pages", s.usage.fragment_pages},
            {"used_pages", s.usage.used_pages},
            {"reserved_pages", s.usage.reserved_pages}};
  };
  for (const auto& ix : r.indexes) {
    nlohmann::json levels = nlohmann::json::array();
    for (const auto& l : ix.levels) {
      auto stored = [&](double v) { return l.stored_pages ? nlohmann::json(v) : nlohmann::json(nullptr); };
      levels.push_back({{"level", l.level},
                        {"pages", l.pages},
                        {"records", l.records},
                        {"fill_min", l.fill_min},
                        {"fill_avg", l.fill_avg},
                        {"fill_max", l.fill_max},
                        {"fill_histogram", l.fill_histogram},
                        {"stored_fill_min", stored(l.stored_fill_min)},
                        {"stored_fill_avg", stored(l.stored_fill_avg)},
                        {"stored_fill_max", stored(l.stored_fill_max)}});
    }
    ixs.push_back({{"index_id", ix.index_id},
                   {"name", ix.name.empty() ? nlohmann::json(nullptr) : nlohmann::json(ix.name)},
                   {"table", ix.table.empty() ? nlohmann::json(nullptr) : nlohmann::json(ix.table)},
                   {"root_page", ix.root_page == kFilNull ? nlohmann::json(nullptr) : nlohmann::json(ix.root_page)},
                   {"levels", levels},
                   {"leaf_chain",
                    {{"pages", ix.leaf_chain_pages},
                     {"steps", ix.leaf_steps},
                     {"discontiguous_steps", ix.discontiguous_steps},
                     {"backward_steps", ix.backward_steps},
                     {"complete", ix.chain_complete}}},
                   {"leaf_segment", seg(ix.leaf_segment)},
                   {"nonleaf_segment", seg(ix.nonleaf_segment)}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings) findings.push_back(ToJson(f));
  return {{"file", r.file}, {"indexes", ixs}, {"findings", findings}};
}

std::string ToText(const IndexesReport& r) {
  std::string out = r.file + "\n";
  for (const auto& ix : r.indexes) {
    out +=
        fmt::format("\n  index {}{}{} root page {}\n", ix.index_id == kSdiIndexId ? "sdi" : std::to_string(ix.index_id),
                    ix.name.empty() ? "" : " " + ix.name, ix.table.empty() ? "" : " of " + ix.table,
                    ix.root_page == kFilNull ? std::string("?") : std::to_string(ix.root_page));
    out += "    level     pages    records   fill min   avg    max   fill histogram (0-10% ... 90-100%)\n";
    for (const auto& l : ix.levels) {
      std::string hist;
      for (auto h : l.fill_histogram) hist += fmt::format("{:>5}", h);
      out += fmt::format("    {:>5} {:>9} {:>10}   {:>5.1f}% {:>5.1f}% {:>5.1f}%  {}\n", l.level, l.pages, l.records,
                         100 * l.fill_min, 100 * l.fill_avg, 100 * l.fill_max, hist);
    }
    for (const auto& l : ix.levels) {
      if (!l.stored_pages) continue;
      out += fmt::format("    level {} as stored (compressed pages): fill min {:.1f}% avg {:.1f}% max {:.1f}%\n",
                         l.level, 100 * l.stored_fill_min, 100 * l.stored_fill_avg, 100 * l.stored_fill_max);
    }
    const double pct = ix.leaf_steps ? 100.0 * ix.discontiguous_steps / ix.leaf_steps : 0.0;
    out += fmt::format(
        "    leaf chain: {} pages in key order, {} of {} steps not to the next page ({:.1f}%), {} backward{}\n",
        ix.leaf_chain_pages, ix.discontiguous_steps, ix.leaf_steps, pct, ix.backward_steps,
        ix.chain_complete ? "" : " (INCOMPLETE)");
    for (auto [label, s] : {std::pair{"leaf", &ix.leaf_segment}, std::pair{"non-leaf", &ix.nonleaf_segment}}) {
      if (!s->present) continue;
      out += fmt::format("    {} segment {}: {} pages used of {} allocated ({} fragment pages)\n", label, s->segment_id,
                         s->usage.used_pages, s->usage.reserved_pages, s->usage.fragment_pages);
    }
  }
  for (const auto& f : r.findings) out += "  - " + f.ToString() + "\n";
  return out;
}

}  // namespace strata::inspect
