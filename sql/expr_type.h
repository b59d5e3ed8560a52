// The type of an expression's values: the column CREATE TABLE ... SELECT makes of a SELECT's
// output column, and the type SHOW COLUMNS gives a view's, as MariaDB derives them: a column
// keeps its definition; integer arithmetic is INT or BIGINT by the digits it can reach, DECIMAL
// arithmetic widens its digits as the server's does (a division keeps four more), SUM and AVG
// widen theirs, anything beside a DOUBLE is a DOUBLE, comparisons are INT, strings add their
// lengths. Nullable when an operand is (a division always).
#pragma once

#include <optional>
#include <string>

#include "sql/ast.h"

namespace strata::sql {

// The column named `name` that holds `e`'s values, its columns read from `from` (null: no
// table); nullopt for an expression whose type is not derived here (a function outside the
// common ones, a mix of kinds the server converts).
std::optional<engine::Column> ExprColumn(const std::string& name, const Expr& e, const TableSpec* from);

}  // namespace strata::sql
