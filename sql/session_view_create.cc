// CREATE VIEW and ALTER VIEW: the definition checked and normalised as the server keeps it
// (its table's database named, its * expanded, every column named as the server names it),
// refused where the server refuses it, and stored in mysql.proc (sql/view.h has the rest).
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "ondisk/identifier.h"
#include "sql/expr_text.h"
#include "sql/functions.h"
#include "sql/ddl_check.h"
#include "sql/routine_store.h"
#include "sql/server_functions.h"
#include "sql/session.h"
#include "sql/session_context.h"
#include "sql/view.h"

namespace strata::sql {

namespace {

// The name a column of the view's SELECT gets without a column list: its alias, the source's
// column it reads (as the source spells it), or the expression as written.
std::string ColumnName(const SelectItem& item, const std::vector<std::string>& source) {
  if (!item.alias.empty()) return item.alias;
  if (item.expr->kind == Expr::Kind::kColumn) {
    for (const std::string& c : source) {
      if (EqualsIgnoreCase(c, item.expr->name)) return c;
    }
  }
  return item.text;
}

// The view's column names made valid as the server makes them: a name taken from a long
// expression is Name_exp_<position>, one taken from an expression that another column has
// already is My_exp_<name>; a name given that is too long is 1166, one twice 1060.
std::optional<SqlError> NameColumns(std::vector<SelectItem>& items, const std::vector<bool>& automatic) {
  constexpr std::size_t kMaxName = 64;
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string& name = items[i].alias;
    if (automatic[i]) name.erase(0, name.find_first_not_of(' '));  // ' a' is a, '' is npos: all
    const bool valid = !name.empty() && name.size() <= kMaxName && name.back() != ' ';
    if (valid) continue;
    if (!automatic[i]) return SqlError{1166, "42000", fmt::format("Incorrect column name '{}'", name)};
    name = fmt::format("Name_exp_{}", i + 1);
  }
  const auto taken = [&](std::size_t i) {
    for (std::size_t j = 0; j < items.size(); ++j) {
      if (j != i && EqualsIgnoreCase(items[i].alias, items[j].alias) && (j < i || !automatic[j])) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (automatic[i] && taken(i)) items[i].alias = "My_exp_" + items[i].alias;
    if (taken(i)) return SqlError{1060, "42S21", fmt::format("Duplicate column name '{}'", items[i].alias)};
  }
  return std::nullopt;
}

// An ORDER BY key of the view's SELECT as an expression on its table: an alias becomes the
// output column's expression (a position stays one, as the server keeps it).
ExprPtr OrderKey(const Expr& key, const Select& normalised, const std::vector<std::string>& source) {
  if (key.kind == Expr::Kind::kLiteral && key.value.is_int()) {
    const auto position = key.value.as_int();
    if (position < 1 || static_cast<std::size_t>(position) > normalised.items.size()) return nullptr;
    return CloneExpr(key);
  }
  if (key.kind == Expr::Kind::kColumn && !UnknownColumnIn(key, source).has_value()) return CloneExpr(key);
  for (const SelectItem& item : normalised.items) {
    if (key.kind == Expr::Kind::kColumn && EqualsIgnoreCase(item.alias, key.name)) return CloneExpr(*item.expr);
  }
  return CloneExpr(key);
}

}  // namespace

// 1462 when the view would read itself, through the views under it.
std::optional<SqlError> Session::ViewLoop(const CreateView& def) {
  std::optional<TableName> from = def.select->from;
  for (int depth = 0; from; ++depth) {
    if (from->database == def.name.database && from->name == def.name.name)
      return SqlError{1462, "HY000",
                      fmt::format("`{}`.`{}` contains view recursion", def.name.database, def.name.name)};
    if (depth == kMaxViewDepth) return ViewsTooDeep();
    auto view = FindView(*from);
    if (!view.ok()) return view.error();
    if (!*view) return std::nullopt;  // a table
    const std::string home = (*view)->name.database;
    from = (*view)->select().from;
    if (from && from->database.empty()) from->database = home;
  }
  return std::nullopt;
}

// For a function the view calls that Strata does not have and is no stored function: 1235 when
// the server has it (REPLACE, LPAD, ...), 1305 when no one does.
std::optional<SqlError> Session::MissingFunction(const Select& s, const std::string& database) {
  std::function<std::optional<SqlError>(const Expr&)> check = [&](const Expr& e) -> std::optional<SqlError> {
    if (e.kind == Expr::Kind::kFunction && !IsAggregate(e) && !FindFunction(e.name) &&
        !context_->SessionFunction(e.name)) {
      auto f = LoadRoutine({database, e.written.empty() ? e.name : e.written}, true);
      if (!f.ok() && f.error().code == 1305 && ServerHasFunction(e.name))
        return NotSupported(fmt::format("the function {}", e.name));
      if (!f.ok()) return f.error();
    }
    for (const ExprPtr& a : e.args) {
      if (auto missing = check(*a)) return missing;
    }
    return std::nullopt;
  };
  for (const SelectItem& item : s.items) {
    if (auto missing = check(*item.expr)) return missing;
  }
  if (s.where) return check(*s.where);
  return std::nullopt;
}

// The view's SELECT as it is kept: its table's database named, its * expanded, every column
// named (by the view's column list when it has one), ORDER BY aliases resolved.
SqlResult<std::shared_ptr<const Select>> Session::ViewSelect(const CreateView& c) {
  const Select& given = *c.select;
  auto select = std::make_shared<Select>();
  std::vector<std::string> source;
  std::vector<bool> automatic;  // per column: named after the expression (no alias)
  if (given.from) {
    select->from = given.from;
    if (select->from->database.empty()) select->from->database = database_;
    if (select->from->database.empty()) return NoDatabase();
    auto columns = SourceColumns(*select->from);
    if (!columns.ok()) return columns.error();
    source = std::move(*columns);
    select->from_alias = given.from_alias;
  }
  for (const SelectItem& item : given.items) {
    if (!item.expr) {
      if (!given.from) return SqlError{1096, "HY000", "No tables used"};
      for (const std::string& name : source) {
        auto column = std::make_unique<Expr>();
        column->kind = Expr::Kind::kColumn;
        column->name = name;
        select->items.push_back({std::move(column), name, name});
      }
      continue;
    }
    if (auto unknown = UnknownColumnIn(*item.expr, source)) return UnknownColumn(*unknown, "SELECT");
    select->items.push_back({CloneExpr(*item.expr), ColumnName(item, source), item.text});
    automatic.resize(select->items.size());
    automatic.back() = item.alias.empty() && item.expr->kind != Expr::Kind::kColumn;
  }
  automatic.resize(select->items.size());
  if (!c.columns.empty()) {
    if (c.columns.size() != select->items.size())
      return SqlError{1353, "HY000", "View's SELECT and view's field list have different column counts"};
    for (std::size_t i = 0; i < c.columns.size(); ++i) select->items[i].alias = c.columns[i];
    automatic.assign(automatic.size(), false);
  }
  if (auto refused = NameColumns(select->items, automatic)) return *refused;
  if (given.where) {
    if (auto unknown = UnknownColumnIn(*given.where, source)) return UnknownColumn(*unknown, "WHERE");
    select->where = CloneExpr(*given.where);
  }
  select->distinct = given.distinct;
  for (const OrderItem& g : given.group_by) {
    ExprPtr key = OrderKey(*g.expr, *select, source);
    if (!key) return UnknownColumn(ExprText(*g.expr, ""), "GROUP BY");
    if (auto unknown = UnknownColumnIn(*key, source)) return UnknownColumn(*unknown, "GROUP BY");
    select->group_by.push_back({std::move(key), g.descending});
  }
  select->rollup = given.rollup;
  if (given.having) {  // kept as written: it may name the view's columns
    std::vector<std::string> names = source;
    for (const SelectItem& item : select->items) names.push_back(item.alias);
    if (auto unknown = UnknownColumnIn(*given.having, names)) return UnknownColumn(*unknown, "HAVING");
    select->having = CloneExpr(*given.having);
  }
  for (const OrderItem& o : given.order_by) {
    ExprPtr key = OrderKey(*o.expr, *select, source);
    if (!key) return UnknownColumn(ExprText(*o.expr, ""), "ORDER BY");
    if (auto unknown = UnknownColumnIn(*key, source)) return UnknownColumn(*unknown, "ORDER BY");
    select->order_by.push_back({std::move(key), o.descending});
  }
  select->limit = given.limit;
  select->offset = given.offset;

  return std::shared_ptr<const Select>(select);
}

StatementOutcome Session::DoCreateView(const CreateView& c) {
  const std::string database = c.name.database.empty() ? database_ : c.name.database;
  if (database.empty()) return Error(NoDatabase());
  if (!DatabaseExists(database)) return Error(UnknownDatabase(database));
  if (auto refused = CheckUserTableName(c.name.name)) return Error(*refused);
  if (db_.GetTable(database, c.name.name).ok()) {
    if (!c.or_replace && !c.alter) return Error(TableAlreadyExists(c.name.name));
    return Error({1347, "HY000", fmt::format("'{}.{}' is not of type 'VIEW'", database, c.name.name)});
  }
  auto existing = FindView({database, c.name.name});
  if (!existing.ok()) return Error(existing.error());
  if (auto other = FindRoutine(db_, database, c.name.name, RoutineKind::kView);
      !*existing && other.ok() && *other) {  // mysql.proc keys names without regard to case
    return Error(NotSupported(
        fmt::format("a view whose name differs from the view `{}`'s in letter case only", (*other)->name)));
  }
  if (*existing && !c.or_replace && !c.alter) {
    if (!c.if_not_exists) return Error(TableAlreadyExists(c.name.name));
    StatementOutcome o;
    o.warnings.push_back({SqlWarning::Level::kNote, 1050, TableAlreadyExists(c.name.name).message});
    return o;
  }
  if (!*existing && c.alter)
    return Error({1146, "42S02", fmt::format("Table '{}.{}' doesn't exist", database, c.name.name)});

  auto select = ViewSelect(c);
  if (!select.ok()) return Error(select.error());
  CreateView def;
  def.name = {database, c.name.name};
  def.algorithm = c.algorithm;
  def.definer = c.definer;
  def.invoker = c.invoker;
  if (c.alter) {  // ALTER VIEW keeps what it does not name
    const CreateView& old = *(*existing)->definition;
    if (!c.algorithm_given) def.algorithm = old.algorithm;
    if (!c.definer_given) def.definer = old.definer;
    if (!c.security_given) def.invoker = old.invoker;
  }
  def.check = c.check;
  def.select = *select;
  StatementOutcome o;
  if (def.algorithm == "MERGE" && (!(*select)->from || !Updatable(**select, def.algorithm))) {
    def.algorithm = "UNDEFINED";  // as the server: what cannot be merged is not kept as MERGE
    o.warnings.push_back({SqlWarning::Level::kWarning, 1354,
                          "View merge algorithm can't be used here for now (assumed undefined algorithm)"});
  }
  if (auto refused = ViewLoop(def)) return Error(*refused);
  if (auto missing = MissingFunction(**select, database)) return Error(*missing);
  if (c.check != CheckOption::kNone && !Updatable(**select, def.algorithm)) {
    return Error({1368, "HY000",
                  fmt::format("CHECK OPTION on non-updatable view {}.{}", ondisk::QuoteIdentifier(database),
                              ondisk::QuoteIdentifier(c.name.name))});
  }
  StoredRoutine stored{database, c.name.name, RoutineKind::kView, ViewText(def, database), *SystemVariable("sql_mode"),
                       ""};
  if (Status st = SaveRoutine(db_, stored, *existing != nullptr); !st.ok()) return Error(FromStatus(st));
  return o;
}

}  // namespace strata::sql
