// Expressions and SELECTs printed back as SQL the way MariaDB prints a view's definition
// (SHOW CREATE VIEW, mariadb-dump): lower-case keywords and function names, columns as
// `table`.`column`, every output column with its AS `name`, NOT pushed into what it negates.
// The text parses again to the same statement, which is how a view is stored.
#pragma once

#include <string>

#include "sql/ast.h"

namespace strata::sql {

// `qualifier`: how column references are prefixed ("`t`" or "`db`.`t`"); empty: not at all.
std::string ExprText(const Expr& e, const std::string& qualifier);

// "select ... from ... where ... order by ... limit ...". Every item must have its expression
// and alias (a view's SELECT after its `*` was expanded). A table in `current` needs no
// database before its name; a FROM without one is in `home` (empty: `current`).
std::string SelectText(const Select& s, const std::string& current, const std::string& home = "");

}  // namespace strata::sql
