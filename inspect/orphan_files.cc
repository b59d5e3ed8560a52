#include "inspect/orphan_files.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "inspect/redo_apply.h"
#include "ondisk/strata_catalog.h"

namespace strata::inspect {

namespace {

constexpr std::size_t kStrataPageSize = 16384;  // the only page size Strata writes
constexpr std::size_t kCatalogPage = 7;         // ibdata1's data dictionary header

}  // namespace

std::optional<OrphanFiles::Known> OrphanFiles::Read(const std::filesystem::path& datadir) {
  std::ifstream in(datadir / "ibdata1", std::ios::binary);
  std::vector<std::byte> page(kStrataPageSize);
  in.seekg(static_cast<std::streamoff>(kCatalogPage * kStrataPageSize));
  if (!in.read(reinterpret_cast<char*>(page.data()), static_cast<std::streamsize>(page.size()))) return std::nullopt;
  if (!ondisk::HasStrataCatalog(page)) return std::nullopt;
  auto catalog = ondisk::DecodeCatalogPage(page, "ibdata1");
  if (!catalog.ok()) return std::nullopt;  // a damaged catalog is check's finding, not a reason to call files orphans
  try {
    const auto j = nlohmann::json::parse(catalog->json);
    Known k;
    for (const auto& t : j.at("tables"))
      k.tables.insert(t.at("database").get<std::string>() + "/" + t.at("name").get<std::string>() + ".ibd");
    for (const auto& e : j.value("ddl_log", nlohmann::json::array()))
      k.removed.insert(e.contains("remove_dir") ? e["remove_dir"].get<std::string>()
                                                : e.at("remove").get<std::string>());
    return k;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::string> OrphanFiles::Why(const std::filesystem::path& file) {
  if (file.extension() != ".ibd") return std::nullopt;
  const auto datadir = DataDirOf(file);
  if (!datadir) return std::nullopt;
  auto [it, added] = by_dir_.try_emplace(*datadir);
  if (added) it->second = Read(*datadir);
  if (!it->second) return std::nullopt;
  const Known& k = *it->second;
  const std::string database = file.parent_path().filename().string();
  const std::string relative = database + "/" + file.filename().string();
  if (k.removed.count(relative) || k.removed.count(database)) {
    return "the data directory's catalog lists it in its DDL log: a CREATE TABLE a crash interrupted, or a DROP "
           "already committed; the next open removes it";
  }
  if (!k.tables.count(relative)) {
    return "no table of the data directory's catalog has this file: the server never reads it (left by a crash "
           "during CREATE or DROP, or put here by hand)";
  }
  return std::nullopt;
}

}  // namespace strata::inspect
