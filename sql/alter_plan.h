// What an ALTER TABLE makes of a table's definition: the new definition, where each of its
// columns comes from, and whether the rows must be copied into a rebuilt table. The changes
// apply in the order written, each to what the ones before it left, with the server's
// refusals (MariaDB 10.11's numbers and words).
#pragma once

#include "sql/engine_api.h"

#include <optional>
#include <vector>

#include "sql/ast.h"
#include "sql/eval.h"

namespace strata::sql {

struct AlterPlan {
  TableSpec spec;
  // Per column of `spec`: the old table's column its values come from (none: a new column,
  // which takes its default).
  std::vector<std::optional<std::size_t>> sources;
  // Per column of `spec`: DEFAULT CURRENT_TIMESTAMP (a new column's rows get the time).
  std::vector<bool> default_now;
  // The secondary indexes the statement adds, when adding them is all it does to the table
  // (built in place from the rows, as ALGORITHM=INPLACE); empty otherwise.
  std::vector<IndexSpec> indexes_only;
  bool copy = false;              // the rows are copied into a table of the new definition
  std::vector<SqlWarning> notes;  // DROP ... IF EXISTS of what is not there (1091)
  // The foreign keys ADD FOREIGN KEY gave `spec`, by name: checked against their parents and
  // the table's rows before it is rebuilt.
  std::vector<std::string> added_foreign_keys;
};

// 1553 when `after` has no index leading with `columns` and `before` had one, naming it.
std::optional<SqlError> NeededIndexGone(const TableSpec& before, const TableSpec& after,
                                        const std::vector<std::string>& columns);
// The foreign keys of `after` (the table ALTER makes of `before`) still have an index to find
// their rows by (1553) and the columns' types they had (1832).
std::optional<SqlError> KeepsForeignKeyColumns(const TableSpec& before, const TableSpec& after);

// The error the server gives for the first change it refuses, else the plan.
SqlResult<AlterPlan> PlanAlter(const TableSpec& table, const AlterTable& alter);

}  // namespace strata::sql
