#include "viz/map_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "inspect/lsn_report.h"
#include "inspect/page_info.h"
#include "ondisk/index_page.h"
#include "ondisk/page_type.h"

namespace strata::viz {

using namespace strata::inspect;
using ondisk::PageType;

ondisk::Result<MapKind> ParseMapKind(const std::string& name) {
  if (name == "extents") return MapKind::kExtents;
  if (name == "lsn") return MapKind::kLsn;
  if (name == "types") return MapKind::kTypes;
  if (name == "index") return MapKind::kIndex;
  return ondisk::Status::InvalidArgument("unknown map '" + name + "' (extents, lsn, types, index)");
}

std::string ToString(MapKind k) {
  switch (k) {
    case MapKind::kExtents:
      return "extents";
    case MapKind::kLsn:
      return "lsn";
    case MapKind::kTypes:
      return "types";
    case MapKind::kIndex:
      return "index";
  }
  return "?";
}

namespace {

// Categories of the types map, each with a colour and a name.
struct TypeClass {
  const char* name;
  Rgb color;
};
const TypeClass kTypeClasses[] = {
    {"INDEX (B-tree)", {66, 135, 245}},
    {"SDI", {150, 110, 240}},
    {"space management", {120, 130, 150}},
    {"undo", {245, 130, 48}},
    {"BLOB / LOB", {60, 180, 75}},
    {"system", {150, 90, 60}},
    {"other", {90, 90, 110}},
    {"allocated, never written", inspect::kUnwrittenColor},
    {"free", inspect::kFreeColor},
};

std::size_t TypeClassOf(const PageCell& c) {
  if (c.free()) return 8;
  if (c.never_written()) return 7;
  switch (static_cast<PageType>(c.type)) {
    case PageType::kIndex:
    case PageType::kRtree:
      return 0;
    case PageType::kSdi:
      return 1;
    case PageType::kFspHdr:
    case PageType::kXdes:
    case PageType::kInode:
    case PageType::kIbufBitmap:
    case PageType::kIbufFreeList:
      return 2;
    case PageType::kUndoLog:
    case PageType::kRsegArray:
      return 3;
    case PageType::kBlob:
    case PageType::kZBlob:
    case PageType::kZBlob2:
    case PageType::kLobFirst:
    case PageType::kLobData:
    case PageType::kLobIndex:
    case PageType::kSdiBlobOrInstant:
    case PageType::kSdiZBlob:
      return c.btree() ? 0 : 4;
    case PageType::kSys:
    case PageType::kTrxSys:
      return 5;
    default:
      return c.btree() ? 0 : 6;
  }
}

std::string IndexLabel(std::uint64_t id, const Dictionary* names) {
  return (names ? *names : Dictionary{}).IndexName(id);
}

// The category of a page in the index/extents maps: an index slot, or one of the fixed ones.
enum Fixed : std::size_t { kFree = 0, kUnwritten = 1, kOther = 2, kFirstIndex = 3 };

// One colour per index name across the panels of a picture, and different colours for the
// indexes of one file: the primary key's and the SDI's always the same (so two engines' PRIMARY
// match, and every picture's), the others coloured greedily in the order their names first
// appear, each taking the first colour no index it shares a file with has taken.
std::map<std::string, Rgb> IndexColors(const std::vector<std::vector<std::string>>& names_per_file) {
  constexpr std::size_t kPrimarySlot = 1;  // orange
  constexpr std::size_t kSdiSlot = 2;      // green
  constexpr std::size_t kSlots = 8;        // CategoryColor's palette
  std::map<std::string, std::size_t> slot;
  std::map<std::string, std::set<std::string>> neighbours;
  std::vector<std::string> order;
  for (const auto& names : names_per_file) {
    for (const auto& n : names) {
      if (neighbours.emplace(n, std::set<std::string>{}).second) order.push_back(n);
      for (const auto& o : names) {
        if (o != n) neighbours[n].insert(o);
      }
    }
  }
  for (const auto& n : order) {
    if (n == "PRIMARY" || n == "GEN_CLUST_INDEX") slot[n] = kPrimarySlot;
    if (n == "SDI") slot[n] = kSdiSlot;
  }
  for (const auto& n : order) {
    if (slot.count(n)) continue;
    std::set<std::size_t> taken{kPrimarySlot, kSdiSlot};
    for (const auto& o : neighbours[n]) {
      if (auto it = slot.find(o); it != slot.end()) taken.insert(it->second);
    }
    std::size_t s = 0;
    while (taken.count(s) && s < kSlots) ++s;
    slot[n] = s;  // (past the palette's end when a file has more indexes than colours: they repeat)
  }
  std::map<std::string, Rgb> out;
  for (const auto& [n, s] : slot) out[n] = CategoryColor(s);
  return out;
}

// Files of one name (the same table written by two engines) are titled by as much of their
// paths as tells them apart: "strata-uuid/test/t.ibd" and "mariadb-uuid/data/test/t.ibd".
void TellApartSameNames(const std::vector<MapInput>& inputs, std::vector<Panel>& panels) {
  std::map<std::string, std::vector<std::size_t>> by_title;
  for (std::size_t i = 0; i < panels.size(); ++i) by_title[panels[i].title].push_back(i);
  for (const auto& [title, same] : by_title) {
    if (same.size() < 2) continue;
    std::vector<std::vector<std::string>> parts;  // each path's components, file name last
    for (std::size_t i : same) {
      std::error_code ec;
      const auto full = std::filesystem::weakly_canonical(inputs[i].file->path(), ec);
      parts.emplace_back();
      for (const auto& c : ec ? inputs[i].file->path() : full) parts.back().push_back(c.string());
    }
    std::size_t common = 0;  // leading components all share (the file name is always kept)
    auto shared = [&](const std::vector<std::string>& p) {
      return common + 1 < p.size() && p[common] == parts[0][common];
    };
    while (std::all_of(parts.begin(), parts.end(), shared)) ++common;
    for (std::size_t k = 0; k < same.size(); ++k) {
      std::filesystem::path shown;
      for (std::size_t c = common; c < parts[k].size(); ++c) shown /= parts[k][c];
      panels[same[k]].title = shown.string();
    }
  }
}

// A file's subtitle: its size, its pages, and its clustered index (the lowest index id with
// leaf pages, SDI aside): records and leaf fill.
std::string PanelSubtitle(const SpaceFile& file, const SpaceMap& sm, const inspect::Dictionary* names) {
  std::map<std::uint64_t, std::pair<std::uint64_t, double>> leaf;  // id -> records, fill sum
  std::map<std::uint64_t, std::uint64_t> leaf_pages;
  std::uint64_t btree_pages = 0;
  for (const auto& c : sm.pages) {
    if (!c.btree() || c.free() || c.never_written() || c.bad_checksum()) continue;
    ++btree_pages;
    if (c.level != 0 || c.index_id == ondisk::kSdiIndexId) continue;
    leaf[c.index_id].first += c.n_recs;
    leaf[c.index_id].second += sm.Fill(c);
    ++leaf_pages[c.index_id];
  }
  std::string records = "no index";
  if (!leaf.empty()) {
    const auto& [id, rf] = *leaf.begin();
    records = fmt::format("{} records, {} leaf fill {:.0f}%", Thousands(rf.first), IndexLabel(id, names),
                          100 * rf.second / leaf_pages[id]);
  }
  return fmt::format("{:.1f} MiB, {} pages ({} in B-trees), {}", file.file_bytes() / 1048576.0,
                     Thousands(file.n_pages()), Thousands(btree_pages), records);
}

// What each page of a file is drawn as: its category, the categories' colours and labels, and
// (LSN map) each written page's place on the colour scale.
struct PageCategories {
  std::vector<std::size_t> category;
  std::vector<Rgb> colors;
  std::vector<std::string> labels;
  std::vector<double> rank;
};

PageCategories TypeCategories(const SpaceMap& sm) {
  PageCategories pc;
  pc.category.resize(sm.pages.size());
  for (const auto& t : kTypeClasses) pc.colors.push_back(t.color), pc.labels.push_back(t.name);
  for (std::size_t n = 0; n < sm.pages.size(); ++n) pc.category[n] = TypeClassOf(sm.pages[n]);
  return pc;
}

// States, ranks and the histogram as `inspect lsn` reports them; on a shared scale, the LSN
// range of all files (`gmin`..`gmax`) and the histogram counted again over it.
PageCategories LsnCategories(const SpaceFile& file, const SpaceMap& sm, const MapModel& m, const ModelOptions& opt,
                             std::uint64_t gmin, std::uint64_t gmax, Panel& p) {
  PageCategories pc;
  pc.category.resize(sm.pages.size());
  pc.colors = {inspect::kFreeColor, inspect::kUnwrittenColor, Viridis(0.5)};
  pc.labels = {
      "free", "allocated, never written",
      m.rank_within_file ? "written (colour: rank by LSN, see the bar)" : "written (colour: LSN, see the bar)"};
  const inspect::LsnReport lr = inspect::AnalyzeLsn(file, sm, 40);
  std::vector<std::uint32_t> written;
  for (std::uint32_t n = 0; n < sm.pages.size(); ++n) {
    const inspect::LsnState st = lr.pages[n].state;
    pc.category[n] = st == inspect::LsnState::kFree           ? 0
                     : st == inspect::LsnState::kNeverWritten ? 1
                                                              : 2;  // damaged: below
    if (pc.category[n] == 2) written.push_back(n);
  }
  std::uint64_t lo = lr.min_lsn, hi = lr.max_lsn;
  if (opt.shared_scale) lo = gmin, hi = gmax;
  pc.rank.assign(sm.pages.size(), 0);
  for (auto n : written) {
    pc.rank[n] = m.rank_within_file ? lr.pages[n].age_rank
                 : hi > lo          ? double(sm.pages[n].lsn - lo) / double(hi - lo)
                                    : 1.0;
  }
  p.lsn_min = written.empty() ? 0 : lo;
  p.lsn_max = written.empty() ? 0 : hi;
  p.histogram = lr.histogram;  // over the file's own range; on the shared one, counted again
  if (opt.shared_scale) {
    std::fill(p.histogram.begin(), p.histogram.end(), 0);
    for (auto n : written) {
      const double t = hi > lo ? double(sm.pages[n].lsn - lo) / double(hi - lo) : 1.0;
      p.histogram[std::min<std::size_t>(39, static_cast<std::size_t>(t * 40))]++;
    }
  }
  return pc;
}

// Index and extent maps: a colour per index, chosen over the whole picture.
PageCategories IndexCategories(const SpaceMap& sm, const inspect::Dictionary* names,
                               const std::map<std::string, Rgb>& index_colors) {
  PageCategories pc;
  pc.category.resize(sm.pages.size());
  pc.colors = {inspect::kFreeColor, inspect::kUnwrittenColor, inspect::kOtherTypeColor};
  pc.labels = {"free", "allocated, never written", "other page types"};
  std::map<std::uint64_t, std::size_t> index_slot;
  for (std::size_t n = 0; n < sm.pages.size(); ++n) {
    const auto& c = sm.pages[n];
    if (c.free()) {
      pc.category[n] = kFree;
    } else if (c.never_written()) {
      pc.category[n] = kUnwritten;
    } else if (!c.btree() || c.bad_checksum()) {
      pc.category[n] = kOther;  // damaged: below
    } else {
      auto [it, added] = index_slot.emplace(c.index_id, pc.colors.size());
      if (added) {
        pc.labels.push_back(IndexLabel(c.index_id, names));
        pc.colors.push_back(index_colors.at(pc.labels.back()));
      }
      pc.category[n] = it->second;
    }
  }
  return pc;
}

// The legend (exact page counts per category, in category order, empty ones left out) and the
// cells: each the most common category of its pages, fill and age averaged.
void LegendAndCells(const SpaceMap& sm, const PageCategories& pc, std::size_t damaged, const MapModel& m, Panel& p) {
  std::vector<std::uint64_t> counts(pc.colors.size(), 0);
  for (std::size_t n = 0; n < sm.pages.size(); ++n) counts[pc.category[n]]++;
  for (std::size_t k = 0; k < pc.colors.size(); ++k) {
    if (counts[k] == 0) continue;
    p.legend.push_back({pc.colors[k], pc.labels[k], counts[k], p.pages ? 100.0 * counts[k] / p.pages : 0.0,
                        m.kind == MapKind::kLsn && k == 2});
  }
  const std::uint32_t k = m.pages_per_cell;
  const std::size_t n_cells = (sm.pages.size() + k - 1) / k;
  p.cells.resize(n_cells);
  if (m.kind == MapKind::kExtents) p.bar_height.resize(n_cells), p.bar_background.resize(n_cells);
  std::vector<std::uint32_t> votes(pc.colors.size());
  for (std::size_t cell = 0; cell < n_cells; ++cell) {
    std::fill(votes.begin(), votes.end(), 0);
    double fill = 0, age = 0;
    std::uint32_t btree = 0, written = 0;
    for (std::size_t n = cell * k; n < std::min<std::size_t>(sm.pages.size(), (cell + 1) * k); ++n) {
      votes[pc.category[n]]++;
      if (sm.pages[n].btree()) fill += sm.Fill(sm.pages[n]), ++btree;
      if (m.kind == MapKind::kLsn && pc.category[n] == 2) age += pc.rank[n], ++written;
    }
    const std::size_t best = static_cast<std::size_t>(std::max_element(votes.begin(), votes.end()) - votes.begin());
    Rgb color = pc.colors[best];
    if (m.kind == MapKind::kLsn && best == 2) color = Viridis(age / written);
    p.cells[cell] = color;
    if (m.kind == MapKind::kExtents) {
      const bool index = best >= kFirstIndex && best != damaged;
      p.bar_height[cell] = index && btree ? static_cast<float>(std::clamp(fill / btree, 0.0, 1.0)) : 1.0f;
      p.bar_background[cell] = index ? Lighten(color, 0.8) : color;
    }
  }
}

}  // namespace

MapModel BuildModel(const std::vector<MapInput>& inputs, const ModelOptions& opt) {
  MapModel m;
  m.kind = opt.kind;
  m.title = opt.title;
  m.shared_scale = opt.shared_scale;
  m.rank_within_file = opt.rank_within_file && !opt.shared_scale;
  std::vector<SpaceMap> maps;
  std::uint32_t max_pages = 0;
  for (const auto& in : inputs) {
    maps.push_back(BuildSpaceMap(*in.file));
    max_pages = std::max(max_pages, in.file->n_pages());
  }
  // One layout for all: pages per row = an extent of the first file; merge pages into cells
  // when the tallest file would need more than max_rows rows.
  m.pages_per_row = inputs.empty() ? 64 : inputs[0].file->shape().geometry().pages_per_extent();
  const std::uint64_t rows_needed = (max_pages + m.pages_per_row - 1) / m.pages_per_row;
  m.pages_per_cell =
      static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (rows_needed + opt.max_rows - 1) / opt.max_rows));
  // A row covers cells_per_row * pages_per_cell pages: an extent, or, when every file is
  // smaller than one, the largest file (its cells then as big as the column allows).
  m.cells_per_row = std::max<std::uint32_t>(1, std::min(m.pages_per_row, max_pages));

  std::uint64_t gmin = ~0ull, gmax = 0;
  for (const auto& sm : maps) {
    for (const auto& c : sm.pages) {
      if (c.never_written() || c.free() || c.bad_checksum()) continue;
      gmin = std::min(gmin, c.lsn);
      gmax = std::max(gmax, c.lsn);
    }
  }
  // The index names of each file first: their colours are chosen over the whole picture.
  std::vector<std::vector<std::string>> index_names(inputs.size());
  for (std::size_t f = 0; f < inputs.size(); ++f) {
    std::set<std::uint64_t> ids;
    for (const auto& c : maps[f].pages) {
      if (c.btree() && !c.free() && !c.never_written() && !c.bad_checksum()) ids.insert(c.index_id);
    }
    for (std::uint64_t id : ids) index_names[f].push_back(IndexLabel(id, inputs[f].names));
  }
  const std::map<std::string, Rgb> index_colors = IndexColors(index_names);
  for (std::size_t f = 0; f < inputs.size(); ++f) {
    const SpaceFile& file = *inputs[f].file;
    const SpaceMap& sm = maps[f];
    Panel p;
    p.title = file.path().filename().string();
    p.pages = file.n_pages();
    p.subtitle = PanelSubtitle(file, sm, inputs[f].names);
    PageCategories pc = m.kind == MapKind::kTypes ? TypeCategories(sm)
                        : m.kind == MapKind::kLsn ? LsnCategories(file, sm, m, opt, gmin, gmax, p)
                                                  : IndexCategories(sm, inputs[f].names, index_colors);
    // A page that fails its checksum is drawn as damaged in every map: its type, index and LSN
    // are not to be believed.
    const std::size_t damaged = pc.colors.size();
    pc.colors.push_back(inspect::kBadColor);
    pc.labels.push_back("damaged (fails its checksum)");
    for (std::size_t n = 0; n < sm.pages.size(); ++n) {
      const auto& c = sm.pages[n];
      if (c.bad_checksum() && !c.free() && !c.never_written()) pc.category[n] = damaged, ++p.damaged_pages;
    }
    LegendAndCells(sm, pc, damaged, m, p);
    m.rows = std::max(m.rows, m.RowsOf(p));
    m.panels.push_back(std::move(p));
  }
  TellApartSameNames(inputs, m.panels);
  return m;
}

}  // namespace strata::viz
