#include "inspect/definition_resolver.h"

#include <fstream>
#include <iterator>

#include "inspect/cfg.h"
#include "inspect/create_table.h"
#include "inspect/frm.h"
#include "inspect/fts_aux.h"
#include "inspect/rows.h"

namespace strata::inspect {

using ondisk::Result;
using ondisk::Status;

namespace {

// The table `table` of the SQL file; without one, the table named like `file`, else the first.
Result<TableDef> DefinitionFromSql(const SpaceFile& file, const std::filesystem::path& sql_path,
                                   const std::string& table) {
  std::ifstream in(sql_path, std::ios::binary);
  if (!in) return Status::IoError(sql_path.string() + ": cannot be read");
  const std::string sql((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto def = TableFromCreateTable(sql, table.empty() ? file.path().stem().string() : table, file.flavor());
  if (!def.ok() && table.empty() && def.status().code() == Status::Code::kNotFound)  // not one that fails to read
    def = TableFromCreateTable(sql, "", file.flavor());
  if (!def.ok()) return def.status().WithContext(sql_path.string());
  return def;
}

// The definition of a FULLTEXT auxiliary table: fixed by InnoDB, but for an INDEX table's
// words, whose type is that of the FULLTEXT index's first column in `parent`.
Result<TableDef> FtsDefinition(const FtsAuxFile& aux, const TableDef* parent, const SpaceFile& file) {
  const ColumnDef* word = parent ? FtsWordColumn(*parent) : nullptr;
  if (parent && !word && aux.kind == FtsAuxFile::kIndex) {
    return Status::InvalidArgument("table " + parent->name +
                                   " has no FULLTEXT index (or several whose first columns differ in type): give the "
                                   "CREATE TABLE of the table this index is of");
  }
  auto def = FtsAuxTable(aux, word);
  if (!def.ok()) return def.status().WithContext(file.path().string());
  STRATA_RETURN_IF_ERROR(PlaceInFile(*def, file));
  return def;
}

// Builds the dictionary source by source, remembering where each table came from.
class Gatherer {
 public:
  explicit Gatherer(ResolvedDefinition& r) : r_(r) {}

  void Add(TableDef t, DefinitionSource from, const std::string& name) {
    r_.dict.tables.push_back(std::move(t));
    from_.push_back(from);
    r_.dict.source = r_.dict.source.empty() ? name : r_.dict.source + " + " + name;
  }
  void Add(const Dictionary& d, DefinitionSource from) {
    r_.dict.Append(d);
    from_.resize(r_.dict.tables.size(), from);
  }
  // The table .cfg beside `file` describes; one that cannot be read is said and passed over.
  void AddCfgBeside(const SpaceFile& file) {
    auto cfg = TableFromCfgBeside(file);
    if (cfg.ok())
      Add(std::move(*cfg), DefinitionSource::kCfg, ".cfg");
    else if (!cfg.status().IsNotFound())
      r_.notes.push_back(cfg.status().message() + " (not used)");
  }
  DefinitionSource From(std::size_t table) const { return from_[table]; }

 private:
  ResolvedDefinition& r_;
  std::vector<DefinitionSource> from_;
};

// Whether `other`, another source's definition, describes the clustered index `table`'s does, in
// `file`.
bool SameClusteredIndex(const TableDef& other, const TableDef& table, const SpaceFile& file) {
  const IndexDef* mine = table.Clustered();
  return &other != &table && mine && RootedIn(other, file) && other.Clustered()->id == mine->id;
}

// A definition that does not know its secondary indexes' roots (.frm, CREATE TABLE) takes them
// from another source's indexes of the same clustered index (SYS_INDEXES, .cfg), by name.
void BorrowSecondaryRoots(Dictionary& dict, TableDef& table, const SpaceFile& file) {
  for (const auto& other : dict.tables) {
    if (!SameClusteredIndex(other, table, file)) continue;
    for (auto& ix : table.indexes) {
      for (const auto& sys : other.indexes) {
        if (!ix.clustered && ix.root_page == ondisk::kFilNull && sys.name == ix.name)
          ix.root_page = sys.root_page, ix.id = sys.id;
      }
    }
  }
}

// Where another source's definition of the same clustered index stores its rows differently
// from the one chosen: said, as the rows then decode by the chosen one and may come out wrong.
void NoteDisagreements(const ResolvedDefinition& r, DefinitionSource chosen_from, const Gatherer& g,
                       const SpaceFile& file, std::vector<std::string>& notes) {
  const TableDef& table = *r.Table();
  const IndexDef* mine = table.Clustered();
  if (!mine || mine->leaf.fields.empty()) return;
  for (std::size_t i = 0; i < r.dict.tables.size(); ++i) {
    const TableDef& other = r.dict.tables[i];
    if (!SameClusteredIndex(other, table, file) || other.Clustered()->leaf.fields.empty()) continue;
    const IndexDef* theirs = other.Clustered();
    const auto& a = mine->leaf.fields;
    const auto& b = theirs->leaf.fields;
    std::string differs;
    if (a.size() != b.size()) {
      differs = std::to_string(a.size()) + " fields against " + std::to_string(b.size());
    } else {
      for (std::size_t f = 0; f < a.size() && differs.empty(); ++f) {
        auto storage = [](const ondisk::FieldDef& d) {
          return (d.is_variable() ? "variable-length" : std::to_string(d.fixed_length) + " bytes") +
                 std::string(d.nullable ? ", NULL" : ", NOT NULL");
        };
        if (storage(a[f]) != storage(b[f]))
          differs = "field " + std::to_string(f + 1) + " (" + a[f].name + ") is " + storage(a[f]) + " against " +
                    storage(b[f]);
      }
    }
    if (!differs.empty()) {
      notes.push_back(std::string("warning: the ") + ToString(chosen_from) + " and " + ToString(g.From(i)) +
                      " disagree on how the rows of " + table.name + " are stored: " + differs + "; the " +
                      ToString(chosen_from) + " is used, and values may read wrong where it is not the table's");
    }
  }
}

// What the rows will leave out by design: virtual columns (computed by the server, not stored)
// and, when the definition is SYS_COLUMNS', whether an UNSIGNED integer is ZEROFILL.
void NoteWhatIsLeftOut(const TableDef& table, bool from_sys_columns, std::vector<std::string>& notes) {
  std::string virtuals, unsigned_ints;
  for (const auto& c : table.columns) {
    if (c.is_virtual && !c.dropped) virtuals += (virtuals.empty() ? "" : ", ") + c.name;
    if (from_sys_columns && !c.hidden && c.format.type == ondisk::ColumnType::kInt && c.format.is_unsigned)
      unsigned_ints += (unsigned_ints.empty() ? "" : ", ") + c.name;
  }
  if (!virtuals.empty())
    notes.push_back("note: left out, as the file does not store them: virtual column(s) " + virtuals);
  if (!unsigned_ints.empty()) {
    notes.push_back("note: SYS_COLUMNS does not say whether " + unsigned_ints +
                    " (UNSIGNED) are ZEROFILL (the server would pad them with zeros): the .frm or --create-table says");
  }
}

}  // namespace

const char* ToString(DefinitionSource s) {
  switch (s) {
    case DefinitionSource::kSdi:
      return "SDI";
    case DefinitionSource::kCreateTable:
      return "CREATE TABLE";
    case DefinitionSource::kFrm:
      return ".frm";
    case DefinitionSource::kCfg:
      return ".cfg";
    case DefinitionSource::kSysTables:
      return "SYS_COLUMNS";
    case DefinitionSource::kFts:
      return "FULLTEXT auxiliary table";
  }
  return "?";
}

Result<ResolvedDefinition> ResolveDefinition(const SpaceFile& file, const DefinitionSources& sources) {
  ResolvedDefinition r;
  Gatherer g(r);
  const std::optional<FtsAuxFile> aux = FtsAuxOf(file.path());
  bool given = false;  // dict.tables[0] is the file's table, named for it (CREATE TABLE, .frm)
  if (sources.create_table) {
    auto def = DefinitionFromSql(file, *sources.create_table, sources.table);
    if (def.ok()) {
      if (aux)
        def = FtsDefinition(*aux, &*def, file);  // the SQL is the indexed table's
      else if (Status placed = PlaceInFile(*def, file); !placed.ok())
        def = placed;
    }
    if (!def.ok()) return def.status();
    g.Add(std::move(*def), aux ? DefinitionSource::kFts : DefinitionSource::kCreateTable, "CREATE TABLE");
    given = true;
    g.AddCfgBeside(file);  // for secondary roots
  } else {
    g.Add(ReadDictionary(file), DefinitionSource::kSdi);
    if (r.dict.tables.empty() && !aux) {
      if (auto frm = TableFromFrmBeside(file); frm.ok()) {
        g.Add(std::move(*frm), DefinitionSource::kFrm, ".frm");
        given = true;
      } else if (!frm.status().IsNotFound()) {
        r.notes.push_back(frm.status().message() + " (read with SYS_COLUMNS instead, if ibdata1 is at hand)");
      }
    }
    if (!aux) g.AddCfgBeside(file);
  }
  if (sources.server) g.Add(*sources.server, DefinitionSource::kSysTables);

  // The table whose clustered index is rooted in this file (a server's dictionary lists all);
  // one given for the file is its table even when its root page is damaged.
  if (given) r.table = 0;
  for (std::size_t i = 0; i < r.dict.tables.size() && !r.table; ++i) {
    if (!r.dict.tables[i].columns.empty() && RootedIn(r.dict.tables[i], file)) r.table = i;
  }
  if (r.table) BorrowSecondaryRoots(r.dict, *r.Table(), file);
  if (!r.table && aux) {
    auto def = FtsDefinition(*aux, nullptr, file);
    if (!def.ok()) return def.status();
    g.Add(std::move(*def), DefinitionSource::kFts, "FULLTEXT auxiliary table");
    r.table = r.dict.tables.size() - 1;
  }
  if (r.table) {
    r.provenance = g.From(*r.table);
    NoteDisagreements(r, r.provenance, g, file, r.notes);
    NoteWhatIsLeftOut(*r.Table(), r.provenance == DefinitionSource::kSysTables, r.notes);
  }
  return r;
}

std::string NoDefinitionMessage(const SpaceFile& file) {
  return file.path().string() +
         ": no table definition with columns: MySQL 8.0 files carry one (SDI), MySQL 5.x and MariaDB keep theirs in "
         "the ibdata1 of the data directory (SYS_COLUMNS); without one, give the table's CREATE TABLE with "
         "--create-table FILE.sql";
}

}  // namespace strata::inspect
