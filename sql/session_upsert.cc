// INSERT ... ON DUPLICATE KEY UPDATE, and the search for the rows a new one collides with
// (which REPLACE deletes).
#include <fmt/format.h>

#include <algorithm>

#include "sql/access_path.h"
#include "sql/column_fit.h"
#include "sql/row_builder.h"
#include "sql/session.h"
#include "sql/session_context.h"

namespace strata::sql {

SqlResult<std::vector<std::vector<Value>>> CollidingKeys(Table& t, const Row& row, Transaction* trx) {
  const TableSpec& spec = t.spec();
  const auto pk = Positions(spec, spec.primary_key);
  std::vector<std::vector<Value>> keys;
  std::vector<Value> own_key;
  for (std::size_t c : pk) own_key.push_back(row[c]);
  // A NULL key is an AUTO_INCREMENT value the insert was to generate: no row has it yet.
  const bool generated = std::any_of(pk.begin(), pk.end(), [&](std::size_t c) { return row[c].is_null(); });
  if (!generated) {
    auto existing = t.Get(own_key, trx, RowLock::kExclusive);
    if (!existing.ok()) return FromStatus(existing.status());
    if (*existing) keys.push_back(own_key);
  }
  for (const IndexSpec& ix : spec.indexes) {
    if (!ix.unique) continue;
    const auto cols = Positions(spec, ix.columns);
    ScanOptions so;
    so.index = ix.name;
    so.lock = RowLock::kExclusive;
    for (std::size_t c : cols) so.from.push_back(row[c]);
    Status ss = t.Scan(
        so,
        [&](const Row& other) {
          for (std::size_t c : cols) {
            if (Compare(FromColumn(other[c], spec.columns[c]), FromColumn(row[c], spec.columns[c])) != 0) return false;
          }
          std::vector<Value> key;
          for (std::size_t c : pk) key.push_back(other[c]);
          if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
          return false;
        },
        trx);
    if (!ss.ok()) return FromStatus(ss);
  }
  return keys;
}

namespace {

// The colliding row's columns as they are, and the wanted row's through VALUES(c) or the
// INSERT's alias (alias.c, or its column list's names).
class UpsertContext : public RowContext {
 public:
  UpsertContext(const Session& s, const Insert& ins, const TableSpec& spec, const Row* current, const Row& wanted)
      : RowContext(s, spec, current), ins_(ins), spec_(spec), wanted_(wanted) {}

  SqlResult<SqlValue> Column(const Expr& column) const override {
    // new.c, or (AS new (a, b)) a and b alone, as MySQL 8.0 reads them.
    const bool of_alias =
        !ins_.alias.empty() &&
        (EqualsIgnoreCase(column.table, ins_.alias) ||
         (column.table.empty() && std::any_of(ins_.alias_columns.begin(), ins_.alias_columns.end(),
                                              [&](const std::string& a) { return EqualsIgnoreCase(a, column.name); })));
    if (column.table != kInsertedRow && !of_alias) return RowContext::Column(column);
    std::string name = column.name;
    if (of_alias && !ins_.alias_columns.empty()) {  // AS new (a, b): new.a is the INSERT's first column
      name.clear();
      for (std::size_t k = 0; k < ins_.alias_columns.size(); ++k) {
        if (EqualsIgnoreCase(ins_.alias_columns[k], column.name) && k < spec_.columns.size())
          name = ins_.columns.empty() ? spec_.columns[k].name : k < ins_.columns.size() ? ins_.columns[k] : "";
      }
    }
    const auto at = FindColumn(spec_, name);
    if (!at)
      return UnknownColumn(column.table == kInsertedRow ? column.name : column.table + "." + column.name, "field list");
    return FromColumn(wanted_[*at], spec_.columns[*at]);
  }

 private:
  const Insert& ins_;
  const TableSpec& spec_;
  const Row& wanted_;
};

}  // namespace

std::optional<SqlError> CheckRowAlias(const Insert& ins, const TableSpec& spec) {
  if (ins.alias.empty()) return std::nullopt;
  if (EqualsIgnoreCase(ins.alias, spec.name))
    return SqlError{1066, "42000", fmt::format("Not unique table/alias: '{}'", ins.alias)};
  if (ins.alias_columns.empty()) return std::nullopt;
  const std::size_t given = ins.columns.empty() ? spec.columns.size() : ins.columns.size();
  if (ins.alias_columns.size() != given)
    return SqlError{1136, "21S01", "Column count doesn't match value count at row 1"};
  for (std::size_t k = 0; k < ins.alias_columns.size(); ++k) {
    for (std::size_t j = 0; j < k; ++j) {
      if (EqualsIgnoreCase(ins.alias_columns[j], ins.alias_columns[k]))
        return SqlError{1060, "42S21", fmt::format("Duplicate column name '{}'", ins.alias_columns[k])};
    }
  }
  return std::nullopt;
}

// The first row `wanted` collides with takes the assignments, each seeing those before it
// (as the server's do). Affected rows: 2 for a row changed, 0 for one left as it was.
std::optional<SqlError> Session::UpdateDuplicate(const Insert& ins, Table& t, const Row& wanted, std::size_t row_number,
                                                 Transaction* trx, StatementOutcome& o) {
  const TableSpec& spec = t.spec();
  if (spec.primary_key.empty()) return NotSupported("ON DUPLICATE KEY UPDATE on a table without a primary key");
  auto keys = CollidingKeys(t, wanted, trx);
  if (!keys.ok()) return keys.error();
  if (keys->empty()) return SqlError{1105, "HY000", "ON DUPLICATE KEY UPDATE found no row the new one collides with"};
  auto existing = t.Get(keys->front(), trx, RowLock::kExclusive);
  if (!existing.ok()) return FromStatus(existing.status());
  if (!*existing) return SqlError{1105, "HY000", "the row ON DUPLICATE KEY UPDATE collided with went away"};
  const Row before = **existing;
  Row updated = before;
  UpsertContext ctx(*this, ins, spec, &updated, wanted);
  const bool stored = std::exchange(storing_values_, !ins.ignore);
  for (const Assignment& a : ins.on_duplicate) {
    auto at = FindColumn(spec, a.column);
    if (!at) {
      storing_values_ = stored;
      return UnknownColumn(a.column, "field list");
    }
    std::optional<Value> v;
    if (a.value->kind == Expr::Kind::kDefault) {
      v = RowBuilder::DefaultOf(spec.columns[*at]);
    } else if (auto e = Eval(*a.value, ctx); e.ok()) {
      v = ToColumn(std::move(*e), spec.columns[*at]);
    } else {
      storing_values_ = stored;
      return e.error();
    }
    updated[*at] = v.value_or(ImplicitDefault(spec.columns[*at]));
  }
  storing_values_ = stored;
  if (updated == before) return std::nullopt;
  if (ins.ignore || !strict()) FitRow(spec, updated, row_number, o.warnings);
  if (auto e = ViewCheckFailure(ins.view_checks, spec, updated)) {  // written through a view WITH CHECK OPTION
    if (!ins.ignore || e->code != 1369) return e;
    o.warnings.push_back({SqlWarning::Level::kWarning, e->code, e->message});
    return std::nullopt;
  }
  const KeyDuties duties = ForeignKeyDuties(spec);
  if (auto e = duties.children ? ChildrenFollow(spec, before, &updated, trx) : std::nullopt)
    return e;  // as UPDATE: the old values' rows first
  Status st = ReplaceRow(t, before, updated, trx, insert_options());
  if (st.IsAlreadyExists() && ins.ignore) {
    o.warnings.push_back({SqlWarning::Level::kWarning, 1062, FromStatus(st).message});
    return std::nullopt;
  }
  if (!st.ok())
    return IsValueError(st) ? ValueError(spec, {updated}, st, row_number) : AtRow(FromStatus(st), row_number);
  if (auto e = duties.parents ? CheckParents(spec, updated, &before, trx) : std::nullopt) return e;
  o.rows += 2;
  return std::nullopt;
}

}  // namespace strata::sql
