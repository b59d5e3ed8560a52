#include "inspect/sys_dictionary.h"

#include <algorithm>

#include <fmt/format.h>

#include <map>
#include <vector>

#include "inspect/create_table.h"
#include "inspect/sys_columns.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/record.h"

namespace strata::inspect {

using namespace strata::ondisk;

namespace {

constexpr std::uint32_t kDictHdrPage = 7;
constexpr std::size_t kDictHdrTables = 70;   // root of SYS_TABLES
constexpr std::size_t kDictHdrColumns = 78;  // root of SYS_COLUMNS
constexpr std::size_t kDictHdrIndexes = 82;  // root of SYS_INDEXES
constexpr std::size_t kDictHdrFields = 86;   // root of SYS_FIELDS

using Fields = std::vector<ConstBytes>;

// Visits the fields of every live leaf record of the REDUNDANT B-tree rooted at `root`,
// descending along the leftmost node pointers and then along the leaf chain. Stops, with a
// finding, at the first page that does not fit.
void WalkSysTree(const SpaceFile& f, std::uint32_t root, const std::string& tree, Dictionary& d,
                 const std::function<void(const Fields&)>& visit) {
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
      Fields out;
      for (const auto& s : *fields) out.push_back(s.is_null ? ConstBytes() : f.page(page).subspan(s.offset, s.length));
      visit(out);
    }
    if (!w.status().ok()) return fail(page, w.status().message());
  }
}

std::string Text(ConstBytes b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

}  // namespace

Dictionary ReadSysDictionary(const SpaceFile& f) {
  Dictionary d;
  if (f.space_id().value() != kSystemSpaceId || f.n_pages() <= kDictHdrPage) return d;
  ConstBytes hdr = f.page(kDictHdrPage);
  if (FilHeader(hdr).type() != PageType::kSys) return d;
  d.source = "SYS_TABLES/SYS_COLUMNS/SYS_INDEXES/SYS_FIELDS";

  // SYS_TABLES: NAME, DB_TRX_ID, DB_ROLL_PTR, ID, N_COLS, TYPE, MIX_ID, MIX_LEN, CLUSTER_NAME, SPACE
  std::map<std::uint64_t, std::size_t> table_by_id;
  WalkSysTree(f, Load32(hdr, kDictHdrTables), "SYS_TABLES", d, [&](const Fields& r) {
    if (r.size() < 4 || r[3].size() != 8) return;
    TableDef t;
    SetSysTableName(t, Text(r[0]));
    if (r.size() >= 10 && r[9].size() == 4) t.space_id = Load32(r[9], 0);
    table_by_id[Load64(r[3], 0)] = d.tables.size();
    d.tables.push_back(std::move(t));
  });
  // SYS_COLUMNS: TABLE_ID, POS, DB_TRX_ID, DB_ROLL_PTR, NAME, MTYPE, PRTYPE, LEN, PREC
  std::map<std::size_t, std::vector<SysColumn>> columns;  // by table
  WalkSysTree(f, Load32(hdr, kDictHdrColumns), "SYS_COLUMNS", d, [&](const Fields& r) {
    if (r.size() < 8 || r[0].size() != 8 || r[1].size() != 4 || r[5].size() != 4 || r[6].size() != 4 ||
        r[7].size() != 4)
      return;
    auto t = table_by_id.find(Load64(r[0], 0));
    if (t == table_by_id.end()) return;
    columns[t->second].push_back({Text(r[4]), Load32(r[1], 0), Load32(r[5], 0), Load32(r[6], 0), Load32(r[7], 0)});
  });
  // SYS_FIELDS: INDEX_ID, POS, DB_TRX_ID, DB_ROLL_PTR, COL_NAME. POS is the field's number, or,
  // when a field of the index is a prefix, number << 16 | prefix bytes (the first field's
  // number, 0, then leaves just the prefix).
  IndexFields fields;
  WalkSysTree(f, Load32(hdr, kDictHdrFields), "SYS_FIELDS", d, [&](const Fields& r) {
    if (r.size() < 5 || r[0].size() != 8 || r[1].size() != 4) return;
    const std::uint32_t pos = Load32(r[1], 0);
    auto& parts = fields[Load64(r[0], 0)];
    const bool split = parts.empty() || pos > 0xFFFF;
    parts.push_back({Text(r[4]), split ? pos & 0x7FFF : 0});  // MariaDB 10.8+: 0x8000 marks DESC
  });
  // SYS_INDEXES: TABLE_ID, ID, DB_TRX_ID, DB_ROLL_PTR, NAME, N_FIELDS, TYPE, SPACE, PAGE_NO
  WalkSysTree(f, Load32(hdr, kDictHdrIndexes), "SYS_INDEXES", d, [&](const Fields& r) {
    if (r.size() < 9 || r[0].size() != 8 || r[1].size() != 8 || r[6].size() != 4 || r[8].size() != 4) return;
    auto t = table_by_id.find(Load64(r[0], 0));
    if (t == table_by_id.end()) return;
    TableDef& table = d.tables[t->second];
    IndexDef ix;
    ix.id = Load64(r[1], 0);
    ix.name = Text(r[4]);
    if (!ix.name.empty() && static_cast<unsigned char>(ix.name[0]) == 0xFF)
      ix.name = ix.name.substr(1) + " (being built)";
    ix.root_page = Load32(r[8], 0);
    SetSysIndexKind(ix, table, Load32(r[6], 0));
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
  if (f.flavor() == Flavor::kMySql && f.server_version()) return nullptr;  // 8.0 files carry SDI
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
