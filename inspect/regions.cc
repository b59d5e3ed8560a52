#include "inspect/regions.h"

#include <fmt/format.h>

#include "inspect/page_info.h"

namespace strata::inspect {

std::vector<Region> FindRegions(const SpaceFile& f, const Dictionary* names) {
  const Dictionary none;
  std::vector<Region> out;
  ScanPages(f, [&](std::span<const PageInfo> batch) {
    for (const PageInfo& p : batch) {
      Region r{p.page_no,    p.page_no,    p.all_zero && !p.free ? "NEVER_WRITTEN" : PageTypeName(p, f.flavor()),
               std::nullopt, std::nullopt, ""};
      if (p.is_btree)
        r.index_id = p.index_id, r.level = p.level, r.index_name = (names ? *names : none).IndexName(p.index_id);
      if (!out.empty()) {
        Region& last = out.back();
        if (last.last + 1 == p.page_no && last.type == r.type && last.index_id == r.index_id && last.level == r.level) {
          last.last = p.page_no;
          continue;
        }
      }
      out.push_back(r);
    }
  });
  return out;
}

namespace {
std::string Describe(const Region& r) {
  if (!r.index_id) return r.type;
  // An SDI page's type says whose it is; a named index is given by name and id.
  if (r.index_name == "SDI") return fmt::format("{} level {}", r.type, *r.level);
  if (r.index_name == fmt::format("index {}", *r.index_id))
    return fmt::format("{} {} level {}", r.type, r.index_name, *r.level);
  return fmt::format("{} {} (index {}) level {}", r.type, r.index_name, *r.index_id, *r.level);
}
}  // namespace

nlohmann::json RegionsToJson(const SpaceFile& f, const std::vector<Region>& regions) {
  nlohmann::json rs = nlohmann::json::array();
  for (const auto& r : regions) {
    rs.push_back({{"first_page", r.first},
                  {"last_page", r.last},
                  {"pages", r.pages()},
                  {"type", r.type},
                  {"index_id", r.index_id ? nlohmann::json(*r.index_id) : nlohmann::json(nullptr)},
                  {"index_name", r.index_id ? nlohmann::json(r.index_name) : nlohmann::json(nullptr)},
                  {"level", r.level ? nlohmann::json(*r.level) : nlohmann::json(nullptr)}});
  }
  return {{"file", f.path().string()}, {"regions", rs}};
}

std::string RegionsToText(const SpaceFile& f, const std::vector<Region>& regions) {
  std::string out = fmt::format("{}\n{:>9} {:>9} {:>7}  {}\n", f.path().string(), "first", "last", "pages", "contents");
  for (const auto& r : regions) out += fmt::format("{:>9} {:>9} {:>7}  {}\n", r.first, r.last, r.pages(), Describe(r));
  return out;
}

}  // namespace strata::inspect
