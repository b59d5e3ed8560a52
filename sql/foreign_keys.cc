#include "sql/foreign_keys.h"

#include <fmt/format.h>

#include <algorithm>

#include "ondisk/identifier.h"
#include "sql/session_context.h"
#include "sqltext/lexer.h"

namespace strata::sql {

using engine::ForeignKeyAction;
using engine::ForeignKeySpec;

ForeignKeyAction ForeignKeyActionNamed(const std::string& words) {
  if (words == "CASCADE") return ForeignKeyAction::kCascade;
  if (words == "SET NULL") return ForeignKeyAction::kSetNull;
  if (words == "NO ACTION") return ForeignKeyAction::kNoAction;
  return ForeignKeyAction::kRestrict;
}

const char* ForeignKeyActionName(ForeignKeyAction action) {
  switch (action) {
    case ForeignKeyAction::kCascade:
      return "CASCADE";
    case ForeignKeyAction::kSetNull:
      return "SET NULL";
    case ForeignKeyAction::kSetDefault:
      return "SET DEFAULT";
    case ForeignKeyAction::kNoAction:
      return "NO ACTION";
    case ForeignKeyAction::kRestrict:
      break;
  }
  return "RESTRICT";
}

namespace {

// `columns` lead `index` (which may be longer).
bool Leads(const std::vector<std::string>& columns, const std::vector<std::string>& index) {
  return !columns.empty() && columns.size() <= index.size() &&
         std::equal(columns.begin(), columns.end(), index.begin(),
                    [](const std::string& a, const std::string& b) { return EqualsIgnoreCase(a, b); });
}

bool IndexNameTaken(const TableSpec& spec, const std::string& name) {
  if (EqualsIgnoreCase(name, "PRIMARY")) return true;
  return std::any_of(spec.indexes.begin(), spec.indexes.end(),
                     [&](const engine::IndexSpec& ix) { return EqualsIgnoreCase(ix.name, name); });
}

// The next `<table>_ibfk_<n>`: past the largest n the table's keys have.
std::string NextGeneratedName(const TableSpec& spec) {
  const std::string prefix = spec.name + "_ibfk_";
  unsigned largest = 0;
  for (const ForeignKeySpec& fk : spec.foreign_keys) {
    if (fk.name.size() <= prefix.size() || !EqualsIgnoreCase(fk.name.substr(0, prefix.size()), prefix)) continue;
    const std::string digits = fk.name.substr(prefix.size());
    if (digits.size() < 10 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      largest = std::max(largest, static_cast<unsigned>(std::stoul(digits)));
  }
  return prefix + std::to_string(largest + 1);
}

std::string QuotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + ondisk::QuoteIdentifier(n);
  return out;
}

const engine::Column* ColumnNamed(const TableSpec& spec, const std::string& name) {
  const auto at = FindColumn(spec, name);
  return at ? &spec.columns[*at] : nullptr;
}

// InnoDB's test that a referencing column can hold the parent's values as they are: the same
// type and signedness; strings of the same character set (lengths may differ).
bool Compatible(const engine::Column& a, const engine::Column& b) {
  using engine::ColumnType;
  auto family = [](ColumnType t) {
    if (t == ColumnType::kChar || t == ColumnType::kVarchar) return ColumnType::kVarchar;
    if (t == ColumnType::kBinary || t == ColumnType::kVarbinary) return ColumnType::kVarbinary;
    return t;
  };
  if (family(a.type) != family(b.type) || a.is_unsigned != b.is_unsigned) return false;
  if (a.is_string()) return a.charset == b.charset;
  if (a.type == ColumnType::kDecimal) return a.length == b.length && a.scale == b.scale;
  return true;
}

}  // namespace

std::optional<std::string> LeadingIndex(const TableSpec& spec, const std::vector<std::string>& columns) {
  if (Leads(columns, spec.primary_key)) return std::string("PRIMARY");
  for (const engine::IndexSpec& ix : spec.indexes) {
    if (Leads(columns, ix.columns)) return ix.name;
  }
  return std::nullopt;
}

void AddForeignKey(TableSpec& spec, const ForeignKeyDecl& d, const std::string& database) {
  ForeignKeySpec fk = d.spec;
  if (fk.ref_database.empty()) fk.ref_database = database;
  if (fk.name.empty()) fk.name = NextGeneratedName(spec);
  if (!LeadingIndex(spec, fk.columns)) {
    std::string name = d.index_name.empty() ? fk.columns.front() : d.index_name;
    const std::string base = name;
    for (int n = 2; IndexNameTaken(spec, name); ++n) name = base + "_" + std::to_string(n);
    spec.indexes.push_back({name, fk.columns, false});
  }
  spec.foreign_keys.push_back(std::move(fk));
}

std::optional<std::string> ForeignKeyProblem(const TableSpec& child, const ForeignKeySpec& fk,
                                             const TableSpec* parent) {
  if (!parent)
    return fmt::format("Referenced table `{}`.`{}` not found in the data dictionary.", fk.ref_database, fk.ref_table);
  for (const std::string& name : fk.ref_columns) {
    if (!ColumnNamed(*parent, name)) return "Column " + name + " was not found.";
  }
  if (!LeadingIndex(*parent, fk.ref_columns))
    return "There is no index in the referenced table where the referenced columns appear as the first columns.";
  for (std::size_t i = 0; i < fk.columns.size(); ++i) {
    const engine::Column* c = ColumnNamed(child, fk.columns[i]);
    const engine::Column* p = ColumnNamed(*parent, fk.ref_columns[i]);
    if (!c || !p) return fmt::format("Foreign key column '{}' not found.", fk.columns[i]);
    if (c->is_lob() || p->is_lob())
      return "There is no index in the referenced table where the referenced columns appear as the first columns.";
    if (!Compatible(*c, *p))
      return fmt::format("Field type or character set for column '{}' does not match referenced column '{}'.", c->name,
                         p->name);
    const bool sets_null = fk.on_delete == ForeignKeyAction::kSetNull || fk.on_update == ForeignKeyAction::kSetNull;
    if (sets_null && !c->nullable)
      return fmt::format("You have defined a SET NULL condition but column '{}' is defined as NOT NULL.", c->name);
  }
  return std::nullopt;
}

std::string ForeignKeyText(const ForeignKeySpec& fk, const std::string& database, bool qualify, bool actions) {
  std::string parent = ondisk::QuoteIdentifier(fk.ref_table);
  if (qualify || fk.ref_database != database) parent = ondisk::QuoteIdentifier(fk.ref_database) + "." + parent;
  std::string out = fmt::format("CONSTRAINT {} FOREIGN KEY ({}) REFERENCES {} ({})", ondisk::QuoteIdentifier(fk.name),
                                QuotedList(fk.columns), parent, QuotedList(fk.ref_columns));
  if (!actions) return out;
  // RESTRICT is what a key does when nothing is said, and the server says nothing of it.
  if (fk.on_delete != ForeignKeyAction::kRestrict)
    out += std::string(" ON DELETE ") + ForeignKeyActionName(fk.on_delete);
  if (fk.on_update != ForeignKeyAction::kRestrict)
    out += std::string(" ON UPDATE ") + ForeignKeyActionName(fk.on_update);
  return out;
}

SqlError NoParentRow(const std::string& database, const std::string& child, const ForeignKeySpec& fk) {
  return {1452, "23000",
          fmt::format("Cannot add or update a child row: a foreign key constraint fails ({}.{}, {})",
                      ondisk::QuoteIdentifier(database), ondisk::QuoteIdentifier(child), ForeignKeyText(fk, database))};
}

SqlError ParentRowReferenced(const std::string& database, const std::string& child, const ForeignKeySpec& fk) {
  return {1451, "23000",
          fmt::format("Cannot delete or update a parent row: a foreign key constraint fails ({}.{}, {})",
                      ondisk::QuoteIdentifier(database), ondisk::QuoteIdentifier(child), ForeignKeyText(fk, database))};
}

SqlError CannotCreateForeignKey(const std::string& database, const std::string& table, const std::string& key,
                                const std::string& reason, std::vector<SqlWarning>& warnings) {
  SqlError e{1005, "HY000",
             fmt::format("Can't create table {}.{} (errno: 150 \"Foreign key constraint is incorrectly formed\")",
                         ondisk::QuoteIdentifier(database), ondisk::QuoteIdentifier(table))};
  // (The server's words, its double space and all; a missing column's lose the "with".)
  warnings.push_back(
      {SqlWarning::Level::kWarning, 150,
       fmt::format("Create  table {}.{} {}foreign key {} constraint failed. {}", ondisk::QuoteIdentifier(database),
                   ondisk::QuoteIdentifier(table), reason.starts_with("Column ") ? "" : "with ", key, reason)});
  warnings.push_back({SqlWarning::Level::kError, e.code, e.message});
  warnings.push_back({SqlWarning::Level::kWarning, 1215,
                      fmt::format("Cannot add foreign key constraint for {}", ondisk::QuoteIdentifier(table))});
  return e;
}

SqlError DuplicateConstraint(const std::string& database, const std::string& table, const std::string& work,
                             const ForeignKeySpec& fk, std::vector<SqlWarning>& warnings) {
  const std::string qualified = ondisk::QuoteIdentifier(database) + "." + ondisk::QuoteIdentifier(table);
  SqlError e{1005, "HY000",
             fmt::format("Can't create table {} (errno: 121 \"Duplicate key on write or update\")", qualified)};
  warnings.push_back(
      {SqlWarning::Level::kWarning, 121,
       fmt::format("CREATE or ALTER TABLE {}.{} failed: duplicate name, {}", ondisk::QuoteIdentifier(database),
                   ondisk::QuoteIdentifier(work), ForeignKeyText(fk, database))});
  warnings.push_back({SqlWarning::Level::kError, e.code, e.message});
  warnings.push_back(
      {SqlWarning::Level::kWarning, 1022, fmt::format("Can't write; duplicate key in table '{}'", table)});
  return e;
}

}  // namespace strata::sql
