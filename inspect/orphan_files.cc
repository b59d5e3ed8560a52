#include "inspect/orphan_files.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "inspect/redo_apply.h"
#include "ondisk/strata_catalog.h"
#include "ondisk/sys_tables.h"

namespace strata::inspect {

namespace {

constexpr std::size_t kStrataPageSize = 16384;  // the only page size Strata writes

}  // namespace

std::optional<OrphanFiles::Known> OrphanFiles::Read(const std::filesystem::path& datadir) {
  std::ifstream in(datadir / "ibdata1", std::ios::binary);
  std::vector<std::byte> page(kStrataPageSize);
  in.seekg(static_cast<std::streamoff>(ondisk::DictHeader::kPage * kStrataPageSize));
  if (!in.read(reinterpret_cast<char*>(page.data()), static_cast<std::streamsize>(page.size()))) return std::nullopt;
  if (!ondisk::HasStrataCatalog(page)) return std::nullopt;
  auto catalog = ondisk::DecodeCatalogPage(page, "ibdata1");
  if (!catalog.ok()) return std::nullopt;  // a damaged catalog is check's finding, not a reason to call files orphans
  try {
    const auto j = nlohmann::json::parse(catalog->json);
    Known k;
    for (const auto& t : j.at("tables")) {
      k.tables[t.at("database").get<std::string>() + "/" + t.at("name").get<std::string>() + ".ibd"] =
          t.at("space_id").get<std::uint32_t>();
    }
    for (const auto& e : j.value("ddl_log", nlohmann::json::array())) {
      if (e.contains("move_back")) continue;  // a rename the next open undoes: its file is the table's
      k.removed.insert(e.contains("remove_dir") ? e["remove_dir"].get<std::string>()
                                                : e.at("remove").get<std::string>());
    }
    return k;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

const OrphanFiles::Known* OrphanFiles::For(const std::filesystem::path& datadir) {
  auto [it, added] = by_dir_.try_emplace(datadir);
  if (added) it->second = Read(datadir);
  return it->second ? &*it->second : nullptr;
}

namespace {
// "db/t.ibd": the file's name as the catalog writes it.
std::string CatalogName(const std::filesystem::path& file) {
  return file.parent_path().filename().string() + "/" + file.filename().string();
}
}  // namespace

std::optional<std::string> OrphanFiles::Why(const std::filesystem::path& file) {
  if (file.extension() != ".ibd") return std::nullopt;
  const auto datadir = DataDirOf(file);
  const Known* k = datadir ? For(*datadir) : nullptr;
  if (!k) return std::nullopt;
  const std::string relative = CatalogName(file);
  if (k->removed.count(relative) || k->removed.count(file.parent_path().filename().string())) {
    return "the data directory's catalog lists it in its DDL log: a CREATE TABLE a crash interrupted, or a DROP "
           "already committed; the next open removes it";
  }
  if (!k->tables.count(relative)) {
    return "no table of the data directory's catalog has this file: the server never reads it (left by a crash "
           "during CREATE or DROP, or put here by hand)";
  }
  return std::nullopt;
}

std::optional<std::string> OrphanFiles::WrongSpace(const std::filesystem::path& file, std::uint32_t space_id) {
  const auto datadir = DataDirOf(file);
  const Known* k = datadir ? For(*datadir) : nullptr;
  if (!k) return std::nullopt;
  const auto it = k->tables.find(CatalogName(file));
  if (it == k->tables.end() || it->second == space_id) return std::nullopt;
  return "the catalog gives this table space id " + std::to_string(it->second) + ", the file's pages say " +
         std::to_string(space_id) + " (another table's file copied over it?): the server refuses the table";
}

std::vector<std::string> OrphanFiles::Missing(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  const Known* k = For(dir);
  if (!k) return out;
  for (const auto& [name, space] : k->tables) {
    std::error_code ec;
    if (!std::filesystem::exists(dir / name, ec) && !k->removed.count(name)) out.push_back(name);
  }
  return out;
}

}  // namespace strata::inspect
