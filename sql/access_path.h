// Internal to the SQL front end: how a statement reaches a table's rows. The WHERE's
// conjuncts on key columns choose primary-key point lookups, a range on a key prefix of an
// index, or else a scan of the clustered index; the row filter then applies the whole WHERE
// to every row the path reaches.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sql/session_context.h"

namespace strata::sql {

struct Bound {
  SqlValue value;
  bool inclusive = true;
};

// How rows are reached: some primary keys looked up, or an index scanned from a prefix.
struct AccessPath {
  std::string index = "PRIMARY";
  std::vector<std::size_t> columns;   // the index's columns, by position in the table
  std::vector<SqlValue> eq;           // equal values on the leading columns
  std::optional<Bound> lower, upper;  // on the column after them
  std::vector<std::vector<SqlValue>> points;
  bool use_points = false;
};

// The path for `where` on the table; constants are evaluated in `ctx`.
AccessPath PlanAccess(const TableSpec& spec, const EvalContext& ctx, const Expr* where);

// The positions in the table of the columns `names`.
std::vector<std::size_t> Positions(const TableSpec& spec, const std::vector<std::string>& names);

// Visits the rows the path reaches (a superset of those the WHERE keeps) while `fn` says go on.
Status Visit(Table& t, const AccessPath& p, Transaction* trx, RowLock lock, const std::function<bool(const Row&)>& fn);

// A WHERE's verdict on the row in `ctx`.
SqlResult<bool> Matches(const Expr* where, const RowContext& ctx);

}  // namespace strata::sql
