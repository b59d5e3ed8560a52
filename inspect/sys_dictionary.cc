#include "inspect/sys_dictionary.h"

#include <algorithm>

#include <fmt/format.h>

#include <map>
#include <vector>

#include "inspect/table_layout.h"
#include "inspect/sys_columns.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/record.h"
#include "ondisk/sys_tables.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

// Visits the fields of every live leaf record of the REDUNDANT B-tree rooted at `root`,
// descending along the leftmost node pointers and then along the leaf chain. Stops, with a
// finding, at the first page that does not fit.
void WalkSysTree(const SpaceFile& f, std::uint32_t root, const std::string& tree, Dictionary& d,
                 const std::function<void(const SysFields&)>& visit) {
  const std::string name = f.path().filename().string();
  auto fail = [&](std::uint32_t page, const std::string& why) {
    d.findings.push_back({Severity::kError, name, page, std::nullopt, tree, why});
  };
  std::uint32_t page = root;
  for (int depth = 0;; ++depth) {  // down the left edge
    if (page >= f.n_pages() || depth > 32) return fail(page, "the tree leads outside the file");
    auto ip = IndexPage::Open(f.page(page));
    if (!ip.ok()) return fail(page, ip.status().message());
    if (ip->is_compact()) return fail(page, "expected REDUNDANT records");
    if (ip->is_leaf()) break;
    RecordWalker w(*ip);
    if (!w.Next()) return fail(page, "a node page without records");
    auto fields = DecodeRedundantFields(f.page(page), w.origin());
    if (!fields.ok() || fields->empty() || fields->back().length != 4) return fail(page, "unreadable node pointer");
    page = Load32(f.page(page), fields->back().offset);
  }
  std::vector<bool> seen(f.n_pages(), false);
  for (; page != kFilNull; page = FilHeader(f.page(page)).next().value()) {
    if (page >= f.n_pages() || seen[page]) return fail(page, "the leaf chain leaves the file or loops");
    seen[page] = true;
    auto ip = IndexPage::Open(f.page(page));
    if (!ip.ok()) return fail(page, ip.status().message());
    RecordWalker w(*ip);
    while (w.Next()) {
      if (w.header().deleted()) continue;
      auto fields = DecodeRedundantFields(f.page(page), w.origin());
      if (!fields.ok()) {
        fail(page, fields.status().message());
        continue;
      }
      SysFields out;
      for (const auto& s : *fields) out.push_back(s.is_null ? ConstBytes() : f.page(page).subspan(s.offset, s.length));
      visit(out);
    }
    if (!w.status().ok()) return fail(page, w.status().message());
  }
}

}  // namespace

Dictionary ReadSysDictionary(const SpaceFile& f) {
  Dictionary d;
  if (f.space_id().value() != kSystemSpaceId || f.n_pages() <= DictHeader::kPage) return d;
  ConstBytes hdr = f.page(DictHeader::kPage);
  if (FilHeader(hdr).type() != PageType::kSys) return d;
  d.source = "SYS_TABLES/SYS_COLUMNS/SYS_INDEXES/SYS_FIELDS";

  std::map<std::uint64_t, std::size_t> table_by_id;
  WalkSysTree(f, Load32(hdr, DictHeader::kTablesRoot), "SYS_TABLES", d, [&](const SysFields& r) {
    auto row = DecodeSysTables(r);
    if (!row) return;
    TableDef t;
    SetSysTableName(t, row->name);
    if (row->space) t.space_id = *row->space;
    table_by_id[row->id] = d.tables.size();
    d.tables.push_back(std::move(t));
  });
  std::map<std::size_t, std::vector<SysColumn>> columns;  // by table
  WalkSysTree(f, Load32(hdr, DictHeader::kColumnsRoot), "SYS_COLUMNS", d, [&](const SysFields& r) {
    auto row = DecodeSysColumns(r);
    if (!row) return;
    auto t = table_by_id.find(row->table_id);
    if (t != table_by_id.end()) columns[t->second].push_back(std::move(row->column));
  });
  IndexFields fields;
  WalkSysTree(f, Load32(hdr, DictHeader::kFieldsRoot), "SYS_FIELDS", d, [&](const SysFields& r) {
    auto row = DecodeSysFields(r);
    if (!row) return;
    auto& parts = fields[row->index_id];
    parts.push_back({row->column, row->PrefixBytes(parts.empty())});
  });
  WalkSysTree(f, Load32(hdr, DictHeader::kIndexesRoot), "SYS_INDEXES", d, [&](const SysFields& r) {
    auto row = DecodeSysIndexes(r);
    if (!row) return;
    auto t = table_by_id.find(row->table_id);
    if (t == table_by_id.end()) return;
    TableDef& table = d.tables[t->second];
    IndexDef ix;
    ix.id = row->id;
    ix.name = row->name;
    if (!ix.name.empty() && ix.name[0] == kTempIndexPrefix) ix.name = ix.name.substr(1) + " (being built)";
    ix.root_page = row->root_page;
    SetSysIndexKind(ix, table, row->type);
    table.indexes.push_back(std::move(ix));
  });
  // Column layouts, where SYS_COLUMNS describes every column of a table with a clustered index.
  for (std::size_t i = 0; i < d.tables.size(); ++i) {
    auto c = columns.find(i);
    const IndexDef* clustered = d.tables[i].Clustered();
    if (c == columns.end() || !clustered) continue;
    auto laid = TableFromSys(d.tables[i], c->second, fields, f.flavor());
    if (laid.ok()) {
      d.tables[i] = std::move(*laid);
    } else {
      d.findings.push_back({Severity::kWarning, f.path().filename().string(), std::nullopt, std::nullopt,
                            "SYS_COLUMNS of " + clustered->table, laid.status().message()});
    }
  }
  return d;
}

const Dictionary* ServerDictionaries::For(const SpaceFile& f) {
  if (f.flavor() == Flavor::kMySql && f.shape().server_version) return nullptr;  // 8.0 files carry SDI
  auto system = f.kind() == SpaceKind::kSystem ? std::optional(f.path()) : FindSystemTablespace(f.path());
  if (!system) return nullptr;
  auto it = by_system_.find(*system);
  if (it == by_system_.end()) {
    Dictionary d;
    if (auto sys = SpaceFile::Open(*system); sys.ok()) d = ReadSysDictionary(*sys);
    it = by_system_.emplace(*system, std::move(d)).first;
  }
  return it->second.empty() ? nullptr : &it->second;
}

std::optional<std::filesystem::path> FindSystemTablespace(const std::filesystem::path& file) {
  std::error_code ec;
  const auto dir = std::filesystem::absolute(file, ec).parent_path();
  for (const auto& candidate : {dir / "ibdata1", dir.parent_path() / "ibdata1"}) {
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

}  // namespace strata::inspect
