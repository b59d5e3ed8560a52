// Foreign keys enforced as InnoDB enforces them, row by row inside the statement that changes
// the rows: a child row's parent must exist (1452), a parent row's children are kept (1451),
// deleted, updated or set to NULL as the key says, to 15 levels of cascade. With
// foreign_key_checks=0 (what dumps set while loading) nothing is checked.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "engine/collation.h"
#include "ondisk/identifier.h"
#include "sql/access_path.h"
#include "sql/alter_plan.h"
#include "sql/foreign_keys.h"
#include "sql/session.h"
#include "sql/session_context.h"

namespace strata::sql {

namespace {

std::atomic<std::uint64_t> schema_changes{0};

// InnoDB refuses a cascade that would reach this many levels below the statement's own row.
constexpr int kMaxCascadeDepth = 15;

// The values of `names` in `row` of `spec`.
std::vector<Value> ValuesOf(const TableSpec& spec, const Row& row, const std::vector<std::string>& names) {
  std::vector<Value> out;
  for (std::size_t p : Positions(spec, names)) out.push_back(row[p]);
  return out;
}

bool AnyNull(const std::vector<Value>& values) {
  return std::any_of(values.begin(), values.end(), [](const Value& v) { return v.is_null(); });
}

// `a` and `b` are the same key under the columns' collations ('a' finds 'A' in a _ci column).
bool SameKey(const TableSpec& spec, const std::vector<std::string>& names, const std::vector<Value>& a,
             const std::vector<Value>& b) {
  const auto positions = Positions(spec, names);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const engine::Column& c = spec.columns[positions[i]];
    if (a[i].is_null() || b[i].is_null()) return false;
    const auto integer = [](const Value& v) -> std::optional<__int128> {
      if (v.is_int()) return v.as_int();
      if (v.is_uint()) return v.as_uint();
      return std::nullopt;
    };
    if (c.is_string() && a[i].is_string() && b[i].is_string()) {
      if (engine::CompareText(engine::TextRuleOf(c), a[i].as_string(), b[i].as_string()) != 0) return false;
    } else if (integer(a[i]) && integer(b[i])) {  // an UNSIGNED column's value read back, against one given
      if (*integer(a[i]) != *integer(b[i])) return false;
    } else if (!(a[i] == b[i])) {
      return false;
    }
  }
  return true;
}

SqlError CascadeTooDeep(const std::string& database, const std::string& child, const engine::ForeignKeySpec& fk) {
  return {1296, "HY000",
          fmt::format("Got error 193 '{}.{}, {}' from InnoDB", ondisk::QuoteIdentifier(database),
                      ondisk::QuoteIdentifier(child), ForeignKeyText(fk, database))};
}

}  // namespace

StatementOutcome ForeignKeyFailure(SqlError e) {
  StatementOutcome o;
  if (e.code == 1296) {  // the server says why first
    o.warnings.push_back({SqlWarning::Level::kWarning, 152,
                          "InnoDB: Cannot delete/update rows with cascading foreign key constraints that exceed max "
                          "depth of 15. Please drop extra constraints and try again"});
    o.warnings.push_back({SqlWarning::Level::kError, e.code, e.message});
    o.error_listed = true;
  }
  o.error = std::move(e);
  return o;
}

void SchemaChanged() { schema_changes.fetch_add(1, std::memory_order_relaxed); }

bool Session::ForeignKeyChecks() const {
  auto v = SystemVariable("foreign_key_checks");
  return !v || *v != "0";
}

std::optional<SqlError> Session::PlaceForeignKeys(TableSpec& spec, const std::vector<ForeignKeyDecl>& keys,
                                                  std::vector<SqlWarning>& warnings) {
  std::vector<std::string> added;
  for (const ForeignKeyDecl& d : keys) {
    AddForeignKey(spec, d, spec.database);
    added.push_back(spec.foreign_keys.back().name);
    if (!ForeignKeyChecks()) continue;
    const engine::ForeignKeySpec& fk = spec.foreign_keys.back();
    if (auto why = ForeignKeyProblem(spec, fk, ParentSpec(spec, fk))) {
      std::string label = ondisk::QuoteIdentifier(fk.name);
      if (d.spec.name.empty()) {  // InnoDB names an unnamed key by its columns
        label.clear();
        for (const std::string& c : fk.columns) label += (label.empty() ? "" : ", ") + c;
        label = "(" + label + ")";
      }
      return CannotCreateForeignKey(spec.database, spec.name, label, *why, warnings);
    }
  }
  return CheckConstraintNames(spec, added, true, warnings);
}

const TableSpec* Session::ParentSpec(const TableSpec& child, const engine::ForeignKeySpec& fk) {
  if (fk.ref_database == child.database && fk.ref_table == child.name) return &child;
  auto t = db_.GetTable(fk.ref_database, fk.ref_table);
  return t.ok() ? &(*t)->spec() : nullptr;
}

void Session::RefreshForeignKeyMap() {
  if (const std::uint64_t now = schema_changes.load(std::memory_order_relaxed); now != referrers_seen_) {
    referrers_.clear();
    constraint_names_.clear();
    for (const std::string& d : db_.ListDatabases()) {
      for (const std::string& name : db_.ListTables(d)) {
        if (name.rfind(engine::kWorkTablePrefix, 0) == 0) continue;
        auto t = db_.GetTable(d, name);
        if (!t.ok()) continue;  // a table that cannot be opened references nothing it could check
        const auto& keys = (*t)->spec().foreign_keys;
        for (std::size_t k = 0; k < keys.size(); ++k) {
          referrers_[keys[k].ref_database + "\n" + keys[k].ref_table].push_back({d, name, k});
          constraint_names_[d + "\n" + Lower(keys[k].name)] = name;
        }
      }
    }
    referrers_seen_ = now;
  }
}

SqlResult<std::vector<Session::Referrer>> Session::ReferrersOf(const std::string& database, const std::string& table) {
  RefreshForeignKeyMap();
  auto found = referrers_.find(database + "\n" + table);
  if (found == referrers_.end()) return std::vector<Referrer>{};
  return found->second;
}

std::optional<SqlError> Session::CheckConstraintNames(const TableSpec& spec, const std::vector<std::string>& added,
                                                      bool creating, std::vector<SqlWarning>& warnings) {
  RefreshForeignKeyMap();
  // The keys added come last: the one named again is the one refused.
  for (auto fk = spec.foreign_keys.rbegin(); fk != spec.foreign_keys.rend(); ++fk) {
    if (std::find(added.begin(), added.end(), fk->name) == added.end()) continue;
    const auto owner = constraint_names_.find(spec.database + "\n" + Lower(fk->name));
    const auto same =
        std::count_if(spec.foreign_keys.begin(), spec.foreign_keys.end(),
                      [&](const engine::ForeignKeySpec& o) { return EqualsIgnoreCase(o.name, fk->name); });
    if (same > 1 && creating) {  // twice in one CREATE TABLE: InnoDB finds the key malformed
      std::vector<SqlWarning> said;
      SqlError e = CannotCreateForeignKey(spec.database, spec.name, "", "", said);
      warnings.insert(warnings.end(), said.begin() + 1, said.end());  // without its warning 150
      return e;
    }
    if ((owner != constraint_names_.end() && owner->second != spec.name) || same > 1)
      return DuplicateConstraint(spec.database, spec.name, creating ? spec.name : WorkTableName("alter"), *fk,
                                 warnings);
  }
  return std::nullopt;
}

bool Session::ChecksForeignKeys(const TableSpec& spec) const {
  return !spec.foreign_keys.empty() && ForeignKeyChecks();
}

Session::KeyDuties Session::ForeignKeyDuties(const TableSpec& spec) {
  if (!ForeignKeyChecks()) return {};
  auto refs = ReferrersOf(spec.database, spec.name);
  return {!spec.foreign_keys.empty(), !refs.ok() || !refs->empty()};  // (an error is said by ChildrenFollow)
}

std::optional<SqlError> Session::CheckParents(const TableSpec& child, const Row& row, const Row* old,
                                              Transaction* trx) {
  for (const engine::ForeignKeySpec& fk : child.foreign_keys) {
    const std::vector<Value> key = ValuesOf(child, row, fk.columns);
    if (AnyNull(key)) continue;  // MATCH SIMPLE: a NULL part references nothing
    if (old && ValuesOf(child, *old, fk.columns) == key) continue;
    auto parent = db_.GetTable(fk.ref_database, fk.ref_table);
    if (!parent.ok()) return NoParentRow(child.database, child.name, fk);
    const TableSpec& spec = (*parent)->spec();
    const auto index = LeadingIndex(spec, fk.ref_columns);
    if (!index) return NoParentRow(child.database, child.name, fk);
    engine::ScanOptions at;
    at.index = *index;
    at.from = key;
    at.lock = RowLock::kShared;  // the parent row stays until this transaction ends
    bool found = false;
    Status st = (*parent)->Scan(
        at,
        [&](const Row& r) {
          found = SameKey(spec, fk.ref_columns, ValuesOf(spec, r, fk.ref_columns), key);
          return false;
        },
        trx);
    if (!st.ok()) return FromStatus(st);
    if (!found) return NoParentRow(child.database, child.name, fk);
  }
  return std::nullopt;
}

namespace {

// The rows of `child` whose key `fk` holds `key`, locked: found through the index the key has.
SqlResult<std::vector<Row>> ChildRows(Table& child, const engine::ForeignKeySpec& fk, const std::vector<Value>& key,
                                      Transaction* trx) {
  const TableSpec& spec = child.spec();
  std::vector<Row> rows;
  const auto index = LeadingIndex(spec, fk.columns);
  if (!index) return rows;
  engine::ScanOptions at;
  at.index = *index;
  at.from = key;
  at.lock = RowLock::kExclusive;
  Status st = child.Scan(
      at,
      [&](const Row& r) {
        if (!SameKey(spec, fk.columns, ValuesOf(spec, r, fk.columns), key)) return false;
        rows.push_back(r);
        return true;
      },
      trx);
  if (!st.ok()) return FromStatus(st);
  return rows;
}

}  // namespace

std::optional<SqlError> Session::ActOnChildren(const TableSpec& parent, const Row& old, const Row* updated,
                                               Transaction* trx, std::vector<std::string>& updated_tables, int depth) {
  auto refs = ReferrersOf(parent.database, parent.name);
  if (!refs.ok()) return refs.error();
  for (const Referrer& ref : *refs) {
    auto child = db_.GetTable(ref.database, ref.table);
    if (!child.ok()) continue;  // dropped while checks were off: nothing left to keep
    const TableSpec& spec = (*child)->spec();
    if (ref.key >= spec.foreign_keys.size()) continue;
    const engine::ForeignKeySpec fk = spec.foreign_keys[ref.key];
    // A key made while checks were off may name columns the parent does not have: it keeps nothing.
    if (!LeadingIndex(parent, fk.ref_columns)) continue;
    const std::vector<Value> key = ValuesOf(parent, old, fk.ref_columns);
    if (AnyNull(key)) continue;
    std::vector<Value> new_key;
    if (updated) {
      new_key = ValuesOf(parent, *updated, fk.ref_columns);
      if (new_key == key) continue;  // the referenced columns keep their values
    }
    auto children = ChildRows(**child, fk, key, trx);
    if (!children.ok()) return children.error();
    if (children->empty()) continue;
    const engine::ForeignKeyAction action = updated ? fk.on_update : fk.on_delete;
    const bool acts = action == engine::ForeignKeyAction::kCascade || action == engine::ForeignKeyAction::kSetNull;
    // InnoDB will not update by cascade a table the cascade has updated already (a key of a
    // table on itself, ON UPDATE CASCADE): the parent row stays referenced.
    const bool updates = updated || action == engine::ForeignKeyAction::kSetNull;
    if (!acts || (updates && std::count(updated_tables.begin(), updated_tables.end(), ref.database + "." + ref.table)))
      return ParentRowReferenced(ref.database, ref.table, fk);
    if (depth + 1 >= kMaxCascadeDepth) return CascadeTooDeep(ref.database, ref.table, fk);
    if (spec.primary_key.empty()) return NotSupported("a cascading foreign key into a table without a primary key");
    const std::optional<std::vector<Value>> to =
        updates ? std::optional(action == engine::ForeignKeyAction::kSetNull ? std::vector<Value>(key.size()) : new_key)
                : std::nullopt;
    if (auto e = Cascade(**child, fk, *children, to, trx, updated_tables, depth)) return e;
  }
  return std::nullopt;
}

std::optional<SqlError> Session::Cascade(Table& child, const engine::ForeignKeySpec& fk, const std::vector<Row>& rows,
                                         const std::optional<std::vector<Value>>& to, Transaction* trx,
                                         std::vector<std::string>& updated_tables, int depth) {
  const TableSpec& spec = child.spec();
  const auto columns = Positions(spec, fk.columns);
  for (const Row& row : rows) {
    if (interrupted()) return Interrupted();
    const std::vector<Value> row_key = ValuesOf(spec, row, spec.primary_key);
    if (!to) {
      Status ds = child.Delete(row_key, trx);
      if (ds.IsNotFound()) continue;  // a cascade before this one took it
      if (!ds.ok()) return FromStatus(ds);
      if (auto e = ActOnChildren(spec, row, nullptr, trx, updated_tables, depth + 1)) return e;
      continue;
    }
    Row changed = row;
    for (std::size_t i = 0; i < columns.size(); ++i) changed[columns[i]] = (*to)[i];
    if (Status us = ReplaceRow(child, row, changed, trx); !us.ok()) return FromStatus(us);
    updated_tables.push_back(spec.database + "." + spec.name);
    auto e = ActOnChildren(spec, row, &changed, trx, updated_tables, depth + 1);
    updated_tables.pop_back();
    if (e) return e;
  }
  return std::nullopt;
}

std::optional<SqlError> Session::ChildrenFollow(const TableSpec& spec, const Row& old, const Row* updated,
                                                Transaction* trx) {
  std::vector<std::string> updated_tables;
  if (updated) updated_tables.push_back(spec.database + "." + spec.name);
  return ActOnChildren(spec, old, updated, trx, updated_tables, 0);
}

}  // namespace strata::sql

namespace strata::sql {

std::optional<SqlError> Session::RefuseIfReferenced(const std::string& database, const std::string& table,
                                                    const char* what) {
  auto refs = ReferrersOf(database, table);
  if (!refs.ok()) return refs.error();
  auto t = db_.GetTable(database, table);
  if (refs->empty() && (!t.ok() || (*t)->spec().foreign_keys.empty())) return std::nullopt;
  return NotSupported(std::string(what) + " of a table with foreign keys or that foreign keys reference");
}

std::optional<SqlError> Session::DropAllowed(const std::vector<std::pair<std::string, std::string>>& dropped) {
  if (!ForeignKeyChecks()) return std::nullopt;
  for (const auto& [database, table] : dropped) {
    auto refs = ReferrersOf(database, table);
    if (!refs.ok()) return refs.error();
    for (const Referrer& r : *refs) {
      if (std::find(dropped.begin(), dropped.end(), std::make_pair(r.database, r.table)) == dropped.end())
        return SqlError{1451, "23000", "Cannot delete or update a parent row: a foreign key constraint fails"};
    }
  }
  return std::nullopt;
}

std::optional<SqlError> Session::TruncateAllowed(const TableSpec& spec) {
  if (!ForeignKeyChecks()) return std::nullopt;
  auto refs = ReferrersOf(spec.database, spec.name);
  if (!refs.ok()) return refs.error();
  for (const Referrer& r : *refs) {
    if (r.database == spec.database && r.table == spec.name) continue;
    auto child = db_.GetTable(r.database, r.table);
    if (!child.ok() || r.key >= (*child)->spec().foreign_keys.size()) continue;
    return SqlError{1701, "42000",
                    fmt::format("Cannot truncate a table referenced in a foreign key constraint ({}.{}, {})",
                                ondisk::QuoteIdentifier(r.database), ondisk::QuoteIdentifier(r.table),
                                ForeignKeyText((*child)->spec().foreign_keys[r.key], r.database, true, false))};
  }
  return std::nullopt;
}

std::optional<SqlError> Session::AlterKeepsReferences(const TableSpec& before, const AlterPlan& plan,
                                                      std::vector<SqlWarning>& warnings) {
  const TableSpec& after = plan.spec;
  auto refs = ReferrersOf(before.database, before.name);
  if (!refs.ok()) return refs.error();
  for (const Referrer& r : *refs) {
    auto child = db_.GetTable(r.database, r.table);
    if (!child.ok() || r.key >= (*child)->spec().foreign_keys.size()) continue;
    const engine::ForeignKeySpec& fk = (*child)->spec().foreign_keys[r.key];
    if (auto gone = NeededIndexGone(before, after, fk.ref_columns)) return gone;
    for (const std::string& name : fk.ref_columns) {
      const auto was = FindColumn(before, name), is = FindColumn(after, name);
      if (was && is && before.columns[*was].SqlType() != after.columns[*is].SqlType())
        return SqlError{1833, "HY000",
                        fmt::format("Cannot change column '{}': used in a foreign key constraint '{}/{}' of table "
                                    "'{}/{}'",
                                    name, r.database, fk.name, r.database, r.table)};
    }
  }
  if (auto taken = CheckConstraintNames(after, plan.added_foreign_keys, false, warnings)) return taken;
  if (!ForeignKeyChecks()) return std::nullopt;
  for (const engine::ForeignKeySpec& fk : after.foreign_keys) {
    if (std::find(plan.added_foreign_keys.begin(), plan.added_foreign_keys.end(), fk.name) ==
        plan.added_foreign_keys.end())
      continue;
    if (auto why = ForeignKeyProblem(after, fk, ParentSpec(after, fk)))
      return CannotCreateForeignKey(before.database, before.name, ondisk::QuoteIdentifier(fk.name), *why, warnings);
  }
  return std::nullopt;
}

std::optional<SqlError> Session::CheckAddedForeignKeys(Table& work, const AlterPlan& plan) {
  if (plan.added_foreign_keys.empty() || !ForeignKeyChecks()) return std::nullopt;
  TableSpec child = plan.spec;
  child.name = work.spec().name;  // as the server names it: the work table the rows were in
  std::erase_if(child.foreign_keys, [&](const engine::ForeignKeySpec& fk) {
    return std::find(plan.added_foreign_keys.begin(), plan.added_foreign_keys.end(), fk.name) ==
           plan.added_foreign_keys.end();
  });
  std::vector<Row> rows;  // read first: a scan may not read another table while it holds this one
  Status st = work.Scan({}, [&](const Row& r) {
    rows.push_back(r);
    return true;
  });
  if (!st.ok()) return FromStatus(st);
  for (const Row& r : rows) {
    if (interrupted()) return Interrupted();
    if (auto e = CheckParents(child, r, nullptr, nullptr)) return e;
  }
  return std::nullopt;
}

}  // namespace strata::sql
