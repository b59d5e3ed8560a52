// The checks the server makes of a table's definition before it creates the table, with its
// error numbers and words (MariaDB 10.11's): what a CREATE TABLE or CREATE INDEX that the
// engine would also refuse is told, instead of the engine's own message.
#pragma once

#include "sql/engine_api.h"

#include <optional>
#include <vector>

#include "sql/parser.h"

namespace strata::sql {

// The first of the server's refusals that `spec` meets, in the server's order: names (1166
// empty or ending in a space, 1059 over 64 characters), lengths (1074), precisions (1426,
// 1427), AUTO_INCREMENT on a type without numbers (1063), a column twice (1060), then per key
// a non-primary one named PRIMARY (1280), a name twice (1061), a column it names missing
// (1072) or named twice (1060), a TEXT/BLOB in the primary key (1170; in another key 1235, as
// the engine keys whole values), and last the
// AUTO_INCREMENT column not leading a key or not alone (1075).
std::optional<SqlError> CheckTableDefinition(const TableSpec& spec);

// 1103 for a name the engine keeps for a statement's work table (engine::kWorkTablePrefix).
std::optional<SqlError> CheckUserTableName(const std::string& name);

// The same for an index added to `table`: its name (1280, 1061) and columns (1072, 1060).
std::optional<SqlError> CheckNewIndex(const TableSpec& table, const IndexSpec& index);

// `columns` (a key's) as `table` declares them: names ignore case, `A` is column `a`.
void UseDeclaredNames(const TableSpec& table, std::vector<std::string>& columns);

// The server's note 1831 for a secondary index that repeats an earlier one (the same columns
// in the same order, both unique or both not): for each index of `spec` from `first` on.
std::vector<SqlWarning> DuplicateIndexNotes(const TableSpec& spec, std::size_t first = 0);

}  // namespace strata::sql
