#include "inspect/extents.h"

#include <fmt/format.h>

#include "ondisk/fil_header.h"
#include "ondisk/xdes.h"

namespace strata::inspect {

using namespace strata::ondisk;

ExtentsReport AnalyzeExtents(const SpaceFile& f, const SpaceMap& m) {
  ExtentsReport r;
  r.file = f.path().string();
  PageSize ps = f.shape().geometry();
  r.pages_per_extent = ps.pages_per_extent();
  const std::uint32_t n_extents = (f.n_pages() + ps.pages_per_extent() - 1) / ps.pages_per_extent();
  for (std::uint32_t x = 0; x < n_extents; ++x) {
    ExtentInfo e;
    e.number = x;
    e.first_page = x * ps.pages_per_extent();
    XdesLocation loc = LocateXdes(PageNo(e.first_page), ps);
    const bool readable =
        f.shape().flags && loc.descriptor_page.value() < f.n_pages() &&
        (loc.descriptor_page.value() == 0 || FilHeader(f.page(loc.descriptor_page.value())).type() == PageType::kXdes);
    std::optional<XdesEntry> desc;
    if (readable) desc.emplace(f.page(loc.descriptor_page.value()), loc.entry, ps);
    e.state = desc ? ToString(desc->state()) : "UNKNOWN";
    if (desc && (desc->state() == XdesState::kFseg || desc->state() == XdesState::kFsegFrag)) {
      e.segment_id = desc->segment_id();
      if (auto it = m.segments.find(e.segment_id); it != m.segments.end()) e.owner = it->second;
    }
    for (std::uint32_t j = 0; j < ps.pages_per_extent() && e.first_page + j < f.n_pages(); ++j) {
      const std::uint32_t n = e.first_page + j;
      const PageCell& c = m.pages[n];
      ExtentPage p;
      p.page = n;
      p.free = desc ? (desc->state() == XdesState::kNotInited || desc->state() == XdesState::kFree || desc->is_free(j))
                    : c.free();
      p.never_written = c.never_written();
      p.type = c.type;
      if (c.btree()) p.index_id = c.index_id, p.fill = m.Fill(c);
      e.used_pages += !p.free;
      e.pages.push_back(p);
    }
    r.extents.push_back(std::move(e));
  }
  return r;
}

char ExtentGlyph(const ExtentPage& p) {
  if (p.free) return '.';
  if (p.never_written) return ':';
  if (p.index_id) return static_cast<char>('0' + std::min(9, static_cast<int>(p.fill * 10)));
  return '#';
}

nlohmann::json ToJson(const ExtentsReport& r, const Dictionary* names) {
  nlohmann::json xs = nlohmann::json::array();
  for (const auto& e : r.extents) {
    nlohmann::json pages = nlohmann::json::array();
    for (const auto& p : e.pages) {
      pages.push_back({{"page", p.page},
                       {"free", p.free},
                       {"never_written", p.never_written},
                       {"type_code", p.type},
                       {"index_id", p.index_id ? nlohmann::json(*p.index_id) : nlohmann::json(nullptr)},
                       {"fill", p.index_id ? nlohmann::json(p.fill) : nlohmann::json(nullptr)}});
    }
    nlohmann::json owner = nullptr;
    if (e.owner) {
      owner = {{"index_id", e.owner->index_id},
               {"index_name", (names ? *names : Dictionary{}).IndexName(e.owner->index_id)},
               {"segment", e.owner->leaf ? "leaf" : "non-leaf"}};
    }
    xs.push_back({{"extent", e.number},
                  {"first_page", e.first_page},
                  {"state", e.state},
                  {"segment_id", e.segment_id ? nlohmann::json(e.segment_id) : nlohmann::json(nullptr)},
                  {"owner", owner},
                  {"used_pages", e.used_pages},
                  {"pages", pages}});
  }
  return {{"file", r.file}, {"pages_per_extent", r.pages_per_extent}, {"extents", xs}};
}

std::string ToText(const ExtentsReport& r, const Dictionary* names) {
  const Dictionary none;
  std::string out = r.file + "\n";
  out += "  map: . free   : allocated, never written   0-9 B-tree page fill (tens of %)   # other page types\n\n";
  out += fmt::format("  {:>6} {:>9}  {:<10} {:<24} {:>5}  pages\n", "extent", "first", "state", "owner", "used");
  for (const auto& e : r.extents) {
    std::string owner = "-";
    if (e.owner)
      owner = fmt::format("{} {}", (names ? *names : none).IndexName(e.owner->index_id),
                          e.owner->leaf ? "leaf" : "non-leaf");
    else if (e.segment_id)
      owner = fmt::format("segment {}", e.segment_id);
    std::string map;
    for (const auto& p : e.pages) map += ExtentGlyph(p);
    out += fmt::format("  {:>6} {:>9}  {:<10} {:<24} {:>5}  {}\n", e.number, e.first_page, e.state, owner, e.used_pages,
                       map);
  }
  return out;
}

}  // namespace strata::inspect
