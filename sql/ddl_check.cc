#include "sql/ddl_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::sql {

namespace {

SqlError Refused(unsigned code, const char* sqlstate, std::string message) {
  return {code, sqlstate, std::move(message)};
}

bool SameName(const std::string& a, const std::string& b) { return EqualsIgnoreCase(a, b); }

// Names are at most 64 characters (not bytes).
bool TooLong(const std::string& name) {
  return std::count_if(name.begin(), name.end(),
                       [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }) > 64;
}

std::optional<SqlError> CheckName(const std::string& name) {
  if (name.empty() || name.back() == ' ')
    return Refused(1166, "42000", fmt::format("Incorrect column name '{}'", name));
  if (TooLong(name)) return Refused(1059, "42000", fmt::format("Identifier name '{}' is too long", name));
  return std::nullopt;
}

// The most characters (bytes for binary types) a CHAR or VARCHAR of `c`'s type holds.
std::optional<std::uint32_t> LengthLimit(const Column& c) {
  switch (c.type) {
    case ColumnType::kChar:
    case ColumnType::kBinary:
      return 255;
    case ColumnType::kVarchar:
      return 65532 / (c.charset == Charset::kUtf8mb4 ? 4 : 1);  // a row's 65,535 bytes less the length's
    case ColumnType::kVarbinary:
      return 65532;
    default:
      return std::nullopt;
  }
}

std::optional<SqlError> CheckColumn(const Column& c) {
  if (auto e = CheckName(c.name)) return e;
  if (auto limit = LengthLimit(c); limit && c.length > *limit) {
    return Refused(
        1074, "42000",
        fmt::format("Column length too big for column '{}' (max = {}); use BLOB or TEXT instead", c.name, *limit));
  }
  if (c.type == ColumnType::kDecimal) {
    if (c.length > 65)
      return Refused(1426, "42000", fmt::format("Too big precision specified for '{}'. Maximum is 65", c.name));
    if (c.scale > c.length)
      return Refused(1427, "42000",
                     fmt::format("For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '{}')", c.name));
    if (c.scale > 38)
      return Refused(1425, "42000", fmt::format("Too big scale specified for '{}'. Maximum is 38", c.name));
    if (c.scale > 30)  // MySQL 8.0's limit, which Strata keeps
      return NotSupported(fmt::format("DECIMAL with more than 30 digits after the point (column '{}')", c.name));
  }
  if ((c.type == ColumnType::kDatetime || c.type == ColumnType::kTimestamp || c.type == ColumnType::kTime) &&
      c.scale > 6)
    return Refused(1426, "42000", fmt::format("Too big precision specified for '{}'. Maximum is 6", c.name));
  const bool numeric =
      c.is_integer() || c.type == ColumnType::kDecimal || c.type == ColumnType::kFloat || c.type == ColumnType::kDouble;
  if (c.auto_increment && !numeric)
    return Refused(1063, "42000", fmt::format("Incorrect column specifier for column '{}'", c.name));
  return std::nullopt;
}

// A key's own checks: its name among `earlier` ones, its columns among the table's.
std::optional<SqlError> CheckKey(const TableSpec& t, const std::string& name, const std::vector<std::string>& columns,
                                 bool primary, const std::vector<std::string>& earlier) {
  if (!primary && (SameName(name, "PRIMARY") || name.empty() || name.back() == ' '))
    return Refused(1280, "42000", fmt::format("Incorrect index name '{}'", name));
  if (TooLong(name)) return Refused(1059, "42000", fmt::format("Identifier name '{}' is too long", name));
  if (!primary && std::any_of(earlier.begin(), earlier.end(), [&](const std::string& n) { return SameName(n, name); }))
    return Refused(1061, "42000", fmt::format("Duplicate key name '{}'", name));
  for (std::size_t k = 0; k < columns.size(); ++k) {
    const auto c = t.ColumnIndex(columns[k]);
    const bool found = c || std::any_of(t.columns.begin(), t.columns.end(),
                                        [&](const Column& col) { return SameName(col.name, columns[k]); });
    if (!found) return Refused(1072, "42000", fmt::format("Key column '{}' doesn't exist in table", columns[k]));
    for (std::size_t j = 0; j < k; ++j) {
      if (SameName(columns[j], columns[k]))
        return Refused(1060, "42S21", fmt::format("Duplicate column name '{}'", columns[k]));
    }
    if (primary && c && t.columns[*c].is_lob()) {
      return Refused(1170, "42000",
                     fmt::format("BLOB/TEXT column '{}' used in key specification without a key length", columns[k]));
    }
    if (c && t.columns[*c].is_lob())  // the server indexes a prefix of it; the engine indexes whole values
      return NotSupported(fmt::format("a BLOB or TEXT column in a key (`{}` in KEY `{}`)", columns[k], name));
  }
  return std::nullopt;
}

}  // namespace

std::optional<SqlError> CheckTableDefinition(const TableSpec& t) {
  if (t.name.empty() || t.name.back() == ' ')
    return Refused(1103, "42000", fmt::format("Incorrect table name '{}'", t.name));
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (auto e = CheckColumn(t.columns[i])) return e;
    for (std::size_t j = 0; j < i; ++j) {
      if (SameName(t.columns[j].name, t.columns[i].name))
        return Refused(1060, "42S21", fmt::format("Duplicate column name '{}'", t.columns[i].name));
    }
  }
  std::vector<std::string> names;
  if (!t.primary_key.empty()) {
    if (auto e = CheckKey(t, "PRIMARY", t.primary_key, true, names)) return e;
    names.push_back("PRIMARY");
  }
  for (const IndexSpec& ix : t.indexes) {
    if (auto e = CheckKey(t, ix.name, ix.columns, false, names)) return e;
    names.push_back(ix.name);
  }
  // One AUTO_INCREMENT column, and the first column of some key.
  const auto autos =
      std::count_if(t.columns.begin(), t.columns.end(), [](const Column& c) { return c.auto_increment; });
  for (const Column& c : t.columns) {
    if (!c.auto_increment) continue;
    bool leads = !t.primary_key.empty() && SameName(t.primary_key[0], c.name);
    for (const IndexSpec& ix : t.indexes) leads = leads || (!ix.columns.empty() && SameName(ix.columns[0], c.name));
    if (autos > 1 || !leads) {
      return Refused(1075, "42000",
                     "Incorrect table definition; there can be only one auto column and it must be defined as a key");
    }
  }
  return std::nullopt;
}

void UseDeclaredNames(const TableSpec& table, std::vector<std::string>& columns) {
  for (std::string& name : columns) {
    for (const Column& col : table.columns) {
      if (SameName(col.name, name)) name = col.name;
    }
  }
}

std::vector<SqlWarning> DuplicateIndexNotes(const TableSpec& spec, std::size_t first) {
  std::vector<SqlWarning> notes;
  for (std::size_t i = first; i < spec.indexes.size(); ++i) {
    const IndexSpec& ix = spec.indexes[i];
    const bool repeats = std::any_of(
        spec.indexes.begin(), spec.indexes.begin() + static_cast<std::ptrdiff_t>(i), [&](const IndexSpec& earlier) {
          return earlier.unique == ix.unique && std::equal(earlier.columns.begin(), earlier.columns.end(),
                                                           ix.columns.begin(), ix.columns.end(), SameName);
        });
    if (repeats) {
      notes.push_back(
          {SqlWarning::Level::kNote, 1831,
           fmt::format("Duplicate index `{}`. This is deprecated and will be disallowed in a future release",
                       ix.name)});
    }
  }
  return notes;
}

std::optional<SqlError> CheckNewIndex(const TableSpec& table, const IndexSpec& index) {
  std::vector<std::string> names;
  if (!table.primary_key.empty()) names.push_back("PRIMARY");
  for (const IndexSpec& ix : table.indexes) names.push_back(ix.name);
  return CheckKey(table, index.name, index.columns, false, names);
}

std::optional<SqlError> CheckUserTableName(const std::string& name) {
  if (name.empty() || name.back() == ' ')  // as the server: no empty name, none ending in a space
    return SqlError{1103, "42000", fmt::format("Incorrect table name '{}'", name)};
  if (name.size() > 64) return SqlError{1059, "42000", fmt::format("Identifier name '{}' is too long", name)};
  if (!name.starts_with(engine::kWorkTablePrefix)) return std::nullopt;
  return SqlError{1103, "42000",
                  fmt::format("Incorrect table name '{}' (names beginning {} are kept for ALTER TABLE's work tables)",
                              name, engine::kWorkTablePrefix)};
}

}  // namespace strata::sql
