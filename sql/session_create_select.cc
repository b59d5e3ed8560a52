// CREATE TABLE ... [IGNORE | REPLACE] [AS] SELECT: a table whose columns are those the
// statement defines, then the SELECT's other columns, filled with the SELECT's rows, as the
// server does it. A column the SELECT reads from its table keeps that column's type,
// nullability, character set, collation and default (not AUTO_INCREMENT, not its keys); an
// expression the type the server derives for it (expr_type.h). One whose type is not derived
// here needs its column defined in the statement (refused with 1235 naming it otherwise). The rows go in as one INSERT ...
// SELECT would put them; when that fails the new table is dropped again.
#include <fmt/format.h>

#include <algorithm>

#include "sql/expr_type.h"
#include "sql/row_builder.h"
#include "sql/session.h"
#include "sql/session_context.h"

namespace strata::sql {

namespace {

// A SELECT's rows as values, with its column headings.
class HeadedValuesSink : public ValuesSink {
 public:
  void Header(const std::vector<ColumnHeader>& columns) override {
    names.clear();
    for (const ColumnHeader& c : columns) names.push_back(c.name);
  }
  std::vector<std::string> names;
};

// A column of the SELECT's result: its heading, and the expression (null: a column of the
// FROM table that * brought).
struct Target {
  std::string name;
  const Expr* expr = nullptr;
  std::string text;  // as written
};

// The new table's columns: the statement's columns the SELECT does not fill first, then the
// SELECT's in its order (the statement's definition where it gives one), as the server lays
// them out; `names` gets the column each SELECT column fills.
std::optional<SqlError> LayOut(const CreateTable& c, const Select& select, const std::vector<std::string>& headings,
                               const TableSpec* from, CreateTable& create, std::vector<std::string>& names) {
  std::vector<Target> targets;
  std::size_t heading = 0;
  for (const SelectItem& item : select.items) {
    if (item.expr) {
      targets.push_back({heading < headings.size() ? headings[heading] : item.text, item.expr.get(), item.text});
      ++heading;
      continue;
    }
    if (!from) return SqlError{1096, "HY000", "No tables used"};
    for (const Column& col : from->columns) targets.push_back({col.name, nullptr, col.name});  // *
    heading += from->columns.size();
  }
  create.select.reset();
  create.spec.columns.clear();
  create.default_now.clear();
  auto add = [&](Column col, bool now) {
    create.spec.columns.push_back(std::move(col));
    create.default_now.push_back(now);
  };
  auto selected = [&](const std::string& name) {
    return std::any_of(targets.begin(), targets.end(), [&](const Target& t) { return EqualsIgnoreCase(t.name, name); });
  };
  for (std::size_t k = 0; k < c.spec.columns.size(); ++k) {
    if (!selected(c.spec.columns[k].name)) add(c.spec.columns[k], c.default_now[k]);
  }
  for (const Target& t : targets) {
    if (std::any_of(names.begin(), names.end(), [&](const std::string& n) { return EqualsIgnoreCase(n, t.name); }))
      return SqlError{1060, "42S21", fmt::format("Duplicate column name '{}'", t.name)};
    names.push_back(t.name);
    if (auto at = FindColumn(c.spec, t.name)) {
      add(c.spec.columns[*at], c.default_now[*at]);
      continue;
    }
    auto column = SelectColumn(t.name, t.expr, from);
    if (!column) {
      return NotSupported(fmt::format(
          "CREATE TABLE ... SELECT of the expression `{}` (define its column: CREATE TABLE t ({} type) SELECT ...)",
          t.text, t.name));
    }
    add(std::move(*column), false);
  }
  for (const std::string& k : create.spec.primary_key) {  // a key on a column the SELECT brought
    if (auto at = FindColumn(create.spec, k)) create.spec.columns[*at].nullable = false;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Column> SelectColumn(const std::string& name, const Expr* expr, const TableSpec* from) {
  if (expr) return ExprColumn(name, *expr, from);
  auto at = from ? FindColumn(*from, name) : std::nullopt;  // a column * brought
  if (!at) return std::nullopt;
  Column c = from->columns[*at];
  c.auto_increment = false;
  return c;
}

StatementOutcome Session::DoCreateTableSelect(const CreateTable& c) {
  const Select& select = *c.select;
  const TableSpec* from = nullptr;
  std::optional<TableSpec> view;  // a view's columns, typed as a table's
  if (select.from) {
    auto t = FindTable(*select.from);
    if (!t.ok()) {
      auto columns = t.error().code == 1146 ? ViewColumns(*select.from, t.error()) : t.error();
      if (!columns.ok()) return Error(columns.error());
      view = std::move(*columns);
    }
    from = t.ok() ? &(*t)->spec() : &*view;
  }
  // The SELECT runs first (it may read a table the new one replaces in name only), whole.
  HeadedValuesSink rows;
  StatementOutcome read = InTransaction([&](Transaction* t) { return DoSelect(select, rows, t); });
  if (read.error) return read;
  CreateTable create = c;
  std::vector<std::string> names;  // the table column each SELECT column fills
  if (auto refused = LayOut(c, select, rows.names, from, create, names)) return Error(*refused);
  StatementOutcome made = DoCreateTable(create);
  if (made.error || (create.if_not_exists && !made.warnings.empty() && made.warnings.back().code == 1050)) return made;
  TableName name = create.table;
  if (name.database.empty()) name.database = database_;
  auto table = FindTable(name);
  if (!table.ok()) return Error(table.error());
  auto builder = RowBuilder::For((*table)->spec(), names);
  if (!builder.ok()) return Error(builder.error());
  std::vector<Row> built;
  std::vector<std::optional<SqlValue>> values;
  StatementOutcome o;
  for (std::size_t r = 0; r < rows.rows.size() && !o.error; ++r) {
    values.assign(std::make_move_iterator(rows.rows[r].begin()), std::make_move_iterator(rows.rows[r].end()));
    auto row = builder->Build(values, r + 1);
    if (!row.ok()) o = Error(row.error());
    if (row.ok()) built.push_back(std::move(*row));
  }
  if (!o.error) {
    Insert ins;
    ins.table = name;
    ins.columns = names;
    ins.ignore = c.select_ignore;
    ins.replace = c.select_replace;
    auto trx = db_.Begin({isolation_, false});
    if (!trx.ok()) return Error(FromStatus(trx.status()));
    o = ApplyInsert(ins, **table, built, trx->get());
    if (!o.error) {
      if (Status s = CommitNow(**trx); !s.ok()) o = Error(FromStatus(s));
    }
  }
  if (o.error) {  // no half-made table is left behind, as the server's atomic DDL leaves none
    (void)db_.DropTable(name.database, name.name);
    // The server lists the row's error among the statement's diagnostics, then the error itself.
    o.warnings.push_back({SqlWarning::Level::kError, o.error->code, o.error->message});
    return o;
  }
  o.warnings.insert(o.warnings.begin(), made.warnings.begin(), made.warnings.end());
  o.warnings.insert(o.warnings.begin(), read.warnings.begin(), read.warnings.end());
  return o;
}

}  // namespace strata::sql
