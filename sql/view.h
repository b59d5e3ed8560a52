// Views: how a definition is checked and stored, and how a statement that names a view is
// turned into one on the view's own table (the MERGE algorithm): the view's columns replaced
// by the expressions they stand for, its WHERE joined to the statement's. A view over another
// view merges again, one level at a time. A view with an aggregate or LIMIT under a query that
// filters, sorts or aggregates is read from a copy of its rows instead (TEMPTABLE:
// Session::SelectFromCopy).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sql/ast.h"
#include "sql/eval.h"

namespace strata::sql {

// A view as stored: its definition with every output column explicit (expression and name) and
// its table's database filled in.
struct View {
  TableName name;
  std::shared_ptr<const CreateView> definition;
  std::string text;  // as stored: what SHOW CREATE VIEW shows
  const Select& select() const { return *definition->select; }
  std::string Quoted() const;  // `db`.`v`, as 1369 names it
};

ExprPtr CloneExpr(const Expr& e);

// Views over views nest at most this deep (a loop is refused when it would be made); 1235 past it.
inline constexpr int kMaxViewDepth = 256;
SqlError ViewsTooDeep();
SqlError TableAlreadyExists(const std::string& name);  // 1050
// The first column `e` names that `columns` (a view's source's) does not have.
std::optional<std::string> UnknownColumnIn(const Expr& e, const std::vector<std::string>& columns);

// The CREATE ... VIEW statement as SHOW CREATE VIEW prints it with `current` the session's
// database (and as it is stored, with the view's): `def`'s SELECT normalised (its `*`
// expanded, every column named), its name and tables qualified when in another database.
std::string ViewText(const CreateView& def, const std::string& current);

// Whether INSERT, UPDATE and DELETE may write through a view of this SELECT and ALGORITHM: one
// table, no aggregate, no LIMIT, not a temporary table's copy.
bool Updatable(const Select& s, const std::string& algorithm);

// Whether `outer` must read a copy of the view's rows (a temporary table's): the view has an
// aggregate or LIMIT that must apply before `outer` filters, sorts or aggregates.
bool NeedsTemporaryTable(const Select& outer, const View& v);

// The statement `outer` became on the view's table.
SqlResult<Select> MergeView(const Select& outer, const View& v);
SqlResult<Update> MergeView(const Update& outer, const View& v);
SqlResult<Delete> MergeView(const Delete& outer, const View& v);
SqlResult<Insert> MergeView(const Insert& outer, const View& v);

}  // namespace strata::sql
