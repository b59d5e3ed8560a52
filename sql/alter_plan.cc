#include "sql/alter_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/elements.h"
#include "sql/ddl_check.h"
#include "sql/foreign_keys.h"
#include "sql/session_context.h"

namespace strata::sql {

namespace {

using Change = AlterTable::Change;

SqlError UnknownColumnIn(const std::string& column, const std::string& table) {
  return {1054, "42S22", fmt::format("Unknown column '{}' in '{}'", column, table)};
}
SqlError DuplicateColumn(const std::string& column) {
  return {1060, "42S21", fmt::format("Duplicate column name '{}'", column)};
}
SqlError CantDrop(const char* what, const std::string& name) {
  return {1091, "42000", fmt::format("Can't DROP {} `{}`; check that it exists", what, name)};
}

std::optional<std::size_t> IndexNamed(const TableSpec& spec, const std::string& name) {
  for (std::size_t i = 0; i < spec.indexes.size(); ++i) {
    if (EqualsIgnoreCase(spec.indexes[i].name, name)) return i;
  }
  return std::nullopt;
}

void RenameInKeys(TableSpec& spec, const std::string& from, const std::string& to) {
  for (std::string& c : spec.primary_key) {
    if (EqualsIgnoreCase(c, from)) c = to;
  }
  for (engine::ForeignKeySpec& fk : spec.foreign_keys) {
    for (std::string& c : fk.columns) {
      if (EqualsIgnoreCase(c, from)) c = to;
    }
  }
  for (IndexSpec& ix : spec.indexes) {
    for (std::string& c : ix.columns) {
      if (EqualsIgnoreCase(c, from)) c = to;
    }
  }
}

// A dropped column leaves every key; a key left with no column goes, as the server has it.
void DropFromKeys(TableSpec& spec, const std::string& column) {
  auto drop = [&](std::vector<std::string>& columns) {
    std::erase_if(columns, [&](const std::string& c) { return EqualsIgnoreCase(c, column); });
  };
  drop(spec.primary_key);
  for (IndexSpec& ix : spec.indexes) drop(ix.columns);
  std::erase_if(spec.indexes, [](const IndexSpec& ix) { return ix.columns.empty(); });
}

// The table being changed, column by column with where each comes from.
class Draft {
 public:
  Draft(const TableSpec& table, const AlterTable& alter) : alter_(alter) {
    plan_.spec = table;
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      plan_.sources.push_back(i);
      const auto& d = table.columns[i].default_value;
      plan_.default_now.push_back(d && d->is_string() && d->as_string() == "CURRENT_TIMESTAMP" &&
                                  !table.columns[i].is_string());
    }
  }

  std::optional<SqlError> Apply(const Change& c);
  AlterPlan& plan() { return plan_; }

 private:
  TableSpec& spec() { return plan_.spec; }
  const std::string& table() const { return alter_.table.name; }
  const engine::Column& Definition(const Change& c) const { return alter_.definitions.spec.columns[c.definition]; }
  std::optional<SqlError> AddColumn(const Change& c);
  std::optional<SqlError> DropColumn(const Change& c);
  std::optional<SqlError> ChangeColumn(const Change& c);
  std::optional<SqlError> SetDefault(const Change& c);
  std::optional<SqlError> DropIndex(const std::string& name, bool if_exists);
  // FIRST or AFTER: the column at `at` moves there.
  std::optional<SqlError> Place(std::size_t at, const Change& c);
  void Erase(std::size_t at) {
    spec().columns.erase(spec().columns.begin() + static_cast<std::ptrdiff_t>(at));
    plan_.sources.erase(plan_.sources.begin() + static_cast<std::ptrdiff_t>(at));
    plan_.default_now.erase(plan_.default_now.begin() + static_cast<std::ptrdiff_t>(at));
  }

  const AlterTable& alter_;
  AlterPlan plan_;
};

std::optional<SqlError> Draft::Place(std::size_t at, const Change& c) {
  if (!c.first && c.after.empty()) return std::nullopt;
  engine::Column col = spec().columns[at];
  const auto source = plan_.sources[at];
  const bool now = plan_.default_now[at];
  Erase(at);
  std::size_t to = 0;
  if (!c.first) {
    auto after = FindColumn(spec(), c.after);
    if (!after) return UnknownColumnIn(c.after, table());
    to = *after + 1;
  }
  spec().columns.insert(spec().columns.begin() + static_cast<std::ptrdiff_t>(to), std::move(col));
  plan_.sources.insert(plan_.sources.begin() + static_cast<std::ptrdiff_t>(to), source);
  plan_.default_now.insert(plan_.default_now.begin() + static_cast<std::ptrdiff_t>(to), now);
  return std::nullopt;
}

std::optional<SqlError> Draft::AddColumn(const Change& c) {
  const engine::Column& col = Definition(c);
  if (FindColumn(spec(), col.name)) return DuplicateColumn(col.name);
  spec().columns.push_back(col);
  plan_.sources.push_back(std::nullopt);
  plan_.default_now.push_back(alter_.definitions.default_now[c.definition]);
  return Place(spec().columns.size() - 1, c);
}

std::optional<SqlError> Draft::DropColumn(const Change& c) {
  auto at = FindColumn(spec(), c.name);
  if (!at) {
    if (!c.if_exists) return CantDrop("COLUMN", c.name);
    plan_.notes.push_back({SqlWarning::Level::kNote, 1091, CantDrop("COLUMN", c.name).message});
    return std::nullopt;
  }
  const std::string name = spec().columns[*at].name;
  Erase(*at);
  DropFromKeys(spec(), name);
  if (spec().columns.empty())
    return SqlError{1090, "42000", "You can't delete all columns with ALTER TABLE; use DROP TABLE instead"};
  return std::nullopt;
}

std::optional<SqlError> Draft::ChangeColumn(const Change& c) {
  auto at = FindColumn(spec(), c.name);
  if (!at) {
    if (!c.if_exists) return UnknownColumnIn(c.name, table());
    plan_.notes.push_back({SqlWarning::Level::kNote, 1054, UnknownColumnIn(c.name, table()).message});
    return std::nullopt;
  }
  const engine::Column& col = Definition(c);
  if (auto other = FindColumn(spec(), col.name); other && *other != *at) return DuplicateColumn(col.name);
  RenameInKeys(spec(), spec().columns[*at].name, col.name);
  spec().columns[*at] = col;
  plan_.default_now[*at] = alter_.definitions.default_now[c.definition];
  return Place(*at, c);
}

std::optional<SqlError> Draft::SetDefault(const Change& c) {
  auto at = FindColumn(spec(), c.name);
  if (!at) return UnknownColumnIn(c.name, table());
  engine::Column& col = spec().columns[*at];
  plan_.default_now[*at] = false;
  if (c.kind == Change::Kind::kDropDefault) {
    col.default_value.reset();
    return std::nullopt;
  }
  const SqlError invalid{1067, "42000", fmt::format("Invalid default value for '{}'", col.name)};
  Value v = c.value;
  if (!v.is_null() && col.has_elements()) {
    const engine::ElementMatch m =
        v.is_string() ? engine::MatchElements(col, v.as_string()) : engine::ElementMatch{0, false};
    if (!m.complete) return invalid;
    v = Value::UInt(m.number);
  } else if (!v.is_null()) {
    v = ToColumn(SqlValue(v, c.literal_kind), col);
  }
  if (v.is_null() ? !col.nullable : !engine::StoredValue(col, v).ok()) return invalid;
  col.default_value = std::move(v);
  return std::nullopt;
}

std::optional<SqlError> Draft::DropIndex(const std::string& name, bool if_exists) {
  if (EqualsIgnoreCase(name, "PRIMARY")) {
    if (spec().primary_key.empty()) return CantDrop("INDEX", "PRIMARY");
    spec().primary_key.clear();
    return std::nullopt;
  }
  auto at = IndexNamed(spec(), name);
  if (!at) {
    if (!if_exists) return CantDrop("INDEX", name);
    plan_.notes.push_back({SqlWarning::Level::kNote, 1091, CantDrop("INDEX", name).message});
    return std::nullopt;
  }
  spec().indexes.erase(spec().indexes.begin() + static_cast<std::ptrdiff_t>(*at));
  return std::nullopt;
}

std::optional<SqlError> Draft::Apply(const Change& c) {
  switch (c.kind) {
    case Change::Kind::kAddColumn:
      return AddColumn(c);
    case Change::Kind::kDropColumn:
      return DropColumn(c);
    case Change::Kind::kChangeColumn:
      return ChangeColumn(c);
    case Change::Kind::kRenameColumn: {
      auto at = FindColumn(spec(), c.name);
      if (!at) return UnknownColumnIn(c.name, table());
      if (auto other = FindColumn(spec(), c.new_name); other && *other != *at) return DuplicateColumn(c.new_name);
      RenameInKeys(spec(), spec().columns[*at].name, c.new_name);
      spec().columns[*at].name = c.new_name;
      return std::nullopt;
    }
    case Change::Kind::kSetDefault:
    case Change::Kind::kDropDefault:
      return SetDefault(c);
    case Change::Kind::kAddIndex: {
      IndexSpec index = alter_.definitions.spec.indexes[c.definition];
      if (c.auto_named) {  // as the server names it: past the names the table has
        const std::string first = index.name;
        for (int n = 2; IndexNamed(spec(), index.name) || EqualsIgnoreCase(index.name, "PRIMARY"); ++n)
          index.name = first + "_" + std::to_string(n);
      }
      if (auto refused = CheckNewIndex(spec(), index)) return refused;
      UseDeclaredNames(spec(), index.columns);
      spec().indexes.push_back(std::move(index));
      return std::nullopt;
    }
    case Change::Kind::kAddPrimaryKey:
      if (!spec().primary_key.empty()) return SqlError{1068, "42000", "Multiple primary key defined"};
      spec().primary_key = alter_.definitions.spec.primary_key;
      UseDeclaredNames(spec(), spec().primary_key);
      return std::nullopt;
    case Change::Kind::kDropIndex:
      return DropIndex(c.name, c.if_exists);
    case Change::Kind::kDropPrimaryKey:
      return DropIndex("PRIMARY", false);
    case Change::Kind::kRenameIndex: {
      auto at = IndexNamed(spec(), c.name);
      if (!at) return SqlError{1176, "42000", fmt::format("Key '{}' doesn't exist in table '{}'", c.name, table())};
      if (auto other = IndexNamed(spec(), c.new_name);
          (other && *other != *at) || EqualsIgnoreCase(c.new_name, "PRIMARY"))
        return SqlError{1061, "42000", fmt::format("Duplicate key name '{}'", c.new_name)};
      spec().indexes[*at].name = c.new_name;
      return std::nullopt;
    }
    case Change::Kind::kAddForeignKey:
      AddForeignKey(spec(), alter_.definitions.foreign_keys[c.definition], spec().database);
      plan_.added_foreign_keys.push_back(spec().foreign_keys.back().name);
      return std::nullopt;
    case Change::Kind::kDropForeignKey: {
      auto& keys = spec().foreign_keys;
      auto at = std::find_if(keys.begin(), keys.end(),
                             [&](const engine::ForeignKeySpec& fk) { return EqualsIgnoreCase(fk.name, c.name); });
      if (at == keys.end()) {
        if (!c.if_exists) return CantDrop("FOREIGN KEY", c.name);
        plan_.notes.push_back({SqlWarning::Level::kNote, 1091, CantDrop("FOREIGN KEY", c.name).message});
        return std::nullopt;
      }
      keys.erase(at);
      return std::nullopt;
    }
    case Change::Kind::kConvertCharset: {
      const engine::Column& to = Definition(c);
      if (to.charset == Charset::kBinary) return NotSupported("CONVERT TO CHARACTER SET binary");
      for (engine::Column& col : spec().columns) {
        if (!col.has_collation() || col.charset == Charset::kBinary) continue;
        col.charset = to.charset;
        col.binary_collation = to.binary_collation;
        col.collation_id = to.collation_id;
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<SqlError> NeededIndexGone(const TableSpec& before, const TableSpec& after,
                                        const std::vector<std::string>& columns) {
  const auto had = LeadingIndex(before, columns);
  if (!had || LeadingIndex(after, columns)) return std::nullopt;  // (a key made with checks off may have none)
  return SqlError{1553, "HY000", fmt::format("Cannot drop index '{}': needed in a foreign key constraint", *had)};
}

std::optional<SqlError> KeepsForeignKeyColumns(const TableSpec& before, const TableSpec& after) {
  for (const engine::ForeignKeySpec& fk : after.foreign_keys) {
    if (auto refused = NeededIndexGone(before, after, fk.columns)) return refused;
    const bool added = std::none_of(before.foreign_keys.begin(), before.foreign_keys.end(),
                                    [&](const engine::ForeignKeySpec& b) { return b.name == fk.name; });
    for (const std::string& name : fk.columns) {
      const auto was = FindColumn(before, name), is = FindColumn(after, name);
      if (!added && was && is && before.columns[*was].SqlType() != after.columns[*is].SqlType())
        return SqlError{1832, "HY000",
                        fmt::format("Cannot change column '{}': used in a foreign key constraint '{}/{}'", name,
                                    after.database, fk.name)};
    }
  }
  return std::nullopt;
}

SqlResult<AlterPlan> PlanAlter(const TableSpec& table, const AlterTable& alter) {
  Draft draft(table, alter);
  for (const Change& c : alter.changes) {
    if (auto refused = draft.Apply(c)) return *refused;
  }
  AlterPlan& plan = draft.plan();
  for (const std::string& k : plan.spec.primary_key) {  // primary key columns are NOT NULL, as in the server
    if (auto at = FindColumn(plan.spec, k)) plan.spec.columns[*at].nullable = false;
  }
  for (std::size_t k = 0; k < plan.spec.columns.size(); ++k) {
    if (plan.default_now[k]) plan.spec.columns[k].default_value = Value::String("CURRENT_TIMESTAMP");
  }
  if (auto refused = KeepsForeignKeyColumns(table, plan.spec)) return *refused;
  if (auto refused = CheckTableDefinition(plan.spec)) return *refused;
  const bool only_indexes =
      !alter.changes.empty() && std::all_of(alter.changes.begin(), alter.changes.end(),
                                            [](const Change& c) { return c.kind == Change::Kind::kAddIndex; });
  if (only_indexes && !alter.rebuild && !alter.auto_increment) {
    plan.indexes_only.assign(plan.spec.indexes.begin() + static_cast<std::ptrdiff_t>(table.indexes.size()),
                             plan.spec.indexes.end());
  } else {
    plan.copy = !alter.changes.empty() || alter.rebuild || alter.auto_increment;
  }
  return std::move(plan);
}

}  // namespace strata::sql
