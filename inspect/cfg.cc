#include "inspect/cfg.h"

#include <fstream>
#include <iterator>
#include <string>

#include "inspect/rows.h"
#include "inspect/sys_columns.h"
#include "ondisk/cfg.h"

namespace strata::inspect {

using namespace strata::ondisk;

Result<TableDef> TableFromCfg(ConstBytes bytes, Flavor flavor) {
  auto cfg = DecodeCfg(bytes);
  if (!cfg.ok()) return cfg.status();
  TableDef table;
  SetSysTableName(table, cfg->table);
  std::vector<SysColumn> columns;
  for (const CfgColumn& c : cfg->columns) {
    // InnoDB's own (DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR) are laid out anew.
    if (c.mtype != static_cast<std::uint32_t>(MainType::kSys))
      columns.push_back({c.name, c.ind, c.mtype, c.prtype, c.len});
  }
  IndexFields fields;
  for (const CfgIndex& i : cfg->indexes) {
    IndexDef ix;
    ix.id = i.id;
    ix.root_page = i.root_page;
    ix.name = i.name;
    SetSysIndexKind(ix, table, i.type);
    auto& parts = fields[ix.id];
    for (std::size_t f = 0; f < i.fields.size() && f < i.n_user_defined_cols; ++f)  // the key parts as declared
      parts.push_back({i.fields[f].name, i.fields[f].prefix_len});
    table.indexes.push_back(std::move(ix));
  }
  if (!table.Clustered()) return Status::Corruption(".cfg of " + cfg->table + ": no clustered index");
  return TableFromSys(table, std::move(columns), fields, flavor);
}

std::optional<std::filesystem::path> CfgBeside(const std::filesystem::path& ibd) {
  std::error_code ec;
  auto cfg = ibd;
  cfg.replace_extension(".cfg");
  if (std::filesystem::is_regular_file(cfg, ec)) return cfg;
  return std::nullopt;
}

Result<TableDef> TableFromCfgBeside(const SpaceFile& file) {
  const auto path = CfgBeside(file.path());
  if (!path) return Status::NotFound("no .cfg beside " + file.path().string());
  std::ifstream in(*path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto def = TableFromCfg({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, file.flavor());
  if (!def.ok()) return def.status().WithContext(path->string());
  if (!RootedIn(*def, file)) {
    return Status::InvalidArgument(path->string() + " describes another table: its clustered index is not rooted in " +
                                   file.path().string());
  }
  return def;
}

}  // namespace strata::inspect
