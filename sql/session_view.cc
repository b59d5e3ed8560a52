// Views in the session: CREATE / ALTER / DROP VIEW, SHOW CREATE VIEW and SHOW [FULL] TABLES,
// and the statements that name a view merged into statements on its table (sql/view.h).
// Views are kept in mysql.proc beside the routines, their text as SHOW CREATE VIEW shows it.
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

// Views over views nest at most this deep (a loop is refused when it would be made).
constexpr int kMaxViewDepth = 256;

SqlError TooDeep() { return NotSupported(fmt::format("views nested more than {} deep", kMaxViewDepth)); }

SqlError TableExists(const std::string& name) {
  return {1050, "42S01", fmt::format("Table '{}' already exists", name)};
}

const TableName* TargetOf(const Select& s) { return s.from ? &*s.from : nullptr; }
const TableName* TargetOf(const Update& s) { return &s.table; }
const TableName* TargetOf(const Delete& s) { return &s.table; }
const TableName* TargetOf(const Insert& s) { return &s.table; }

// A SELECT stops merging at a view it must read a copy of (Session::SelectFromCopy).
bool CopiedAt(const Select& s, const View& v) { return NeedsTemporaryTable(s, v); }
template <typename S>
bool CopiedAt(const S&, const View&) {
  return false;
}

// The column `e` names, when the view's source has no column of that name.
std::optional<std::string> UnknownIn(const Expr& e, const std::vector<std::string>& columns) {
  if (e.kind == Expr::Kind::kColumn &&
      std::none_of(columns.begin(), columns.end(), [&](const std::string& c) { return EqualsIgnoreCase(c, e.name); }))
    return e.name;
  for (const ExprPtr& a : e.args) {
    if (auto unknown = UnknownIn(*a, columns)) return unknown;
  }
  return std::nullopt;
}

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
  if (key.kind == Expr::Kind::kColumn && !UnknownIn(key, source).has_value()) return CloneExpr(key);
  for (const SelectItem& item : normalised.items) {
    if (key.kind == Expr::Kind::kColumn && EqualsIgnoreCase(item.alias, key.name)) return CloneExpr(*item.expr);
  }
  return CloneExpr(key);
}

}  // namespace

SqlResult<std::shared_ptr<const View>> Session::FindView(const TableName& name) {
  const std::string database = name.database.empty() ? database_ : name.database;
  if (database.empty()) return std::shared_ptr<const View>();
  RefreshRoutineCaches();
  const std::string key = database + "\n" + name.name;
  if (auto hit = views_.find(key); hit != views_.end()) return hit->second;
  auto stored = FindRoutine(db_, database, name.name, RoutineKind::kView);
  if (!stored.ok()) return FromStatus(stored.status());
  // mysql.proc compares names without regard to case; view names, like table names, do not.
  if (!*stored || (*stored)->name != name.name) return std::shared_ptr<const View>();
  Parsed p = Parse((*stored)->text);
  auto* create = p.statement ? std::get_if<CreateView>(&*p.statement) : nullptr;
  if (p.error || !create) {
    return SqlError{1356, "HY000",
                    fmt::format("View '{}.{}' references invalid table(s) or column(s) or function(s) or "
                                "definer/invoker of view lack rights to use them",
                                database, name.name)};
  }
  auto view = std::make_shared<View>();
  view->name = {database, (*stored)->name};
  create->name = view->name;
  view->definition = std::make_shared<const CreateView>(std::move(*create));
  view->text = (*stored)->text;
  views_[key] = view;
  return std::shared_ptr<const View>(view);
}

std::optional<SqlError> Session::BrokenView(const View& v) {
  const Select& def = v.select();
  std::vector<std::string> columns;
  if (def.from) {
    TableName from = *def.from;
    if (from.database.empty()) from.database = v.name.database;
    auto source = SourceColumns(from);
    if (!source.ok()) return source.error();
    columns = std::move(*source);
  }
  // Named as the server names it: `db.table.column`.
  const auto gone = [&](const std::string& column, const char* clause) {
    return UnknownColumn(fmt::format("{}.{}.{}", def.from->database.empty() ? v.name.database : def.from->database,
                                     def.from->name, column),
                         clause);
  };
  for (const SelectItem& item : def.items) {
    if (auto unknown = UnknownIn(*item.expr, columns)) return gone(*unknown, "SELECT");
  }
  if (auto unknown = def.where ? UnknownIn(*def.where, columns) : std::nullopt) return gone(*unknown, "WHERE");
  return std::nullopt;
}

SqlError Session::InvalidView(const View& v, const SqlError& why, bool listed) {
  const SqlError e{1356, "HY000",
                   fmt::format("View '{}.{}' references invalid table(s) or column(s) or function(s) or "
                               "definer/invoker of view lack rights to use them",
                               v.name.database, v.name.name)};
  if (listed) {
    failure_trail_.push_back({SqlWarning::Level::kError, why.code, why.message});
    failure_trail_.push_back({SqlWarning::Level::kError, e.code, e.message});
  }
  return e;
}

template <typename S>
SqlResult<std::optional<S>> Session::Merged(const S& s) {
  std::optional<S> out;
  std::shared_ptr<const View> named;  // the view the statement names: a broken one below is its fault
  for (int depth = 0;; ++depth) {
    const TableName* target = TargetOf(out ? *out : s);
    if (!target) return out;
    if (FindTable(*target).ok()) return out;
    auto view = FindView(*target);
    if (!view.ok()) return view.error();
    if (!*view) return out;  // no such table: the caller says so
    if (!named) named = *view;
    if (depth > 0 && CopiedAt(*out, **view)) return out;
    if (depth == kMaxViewDepth) return TooDeep();
    if (auto broken = BrokenView(**view)) return InvalidView(*named, *broken);
    auto merged = MergeView(out ? *out : s, **view);
    if (!merged.ok()) return merged.error();
    out = std::move(*merged);
  }
}

template SqlResult<std::optional<Select>> Session::Merged(const Select&);
template SqlResult<std::optional<Update>> Session::Merged(const Update&);
template SqlResult<std::optional<Delete>> Session::Merged(const Delete&);
template SqlResult<std::optional<Insert>> Session::Merged(const Insert&);

std::optional<SqlError> Session::ViewCheckFailure(const ViewChecks& checks, const TableSpec& spec, const Row& row) {
  RowContext ctx(*this, spec, &row);
  for (const ViewCheck& check : checks.conditions) {
    auto v = Eval(*check.condition, ctx);
    if (!v.ok()) return v.error();
    if (Truth(*v) != true) return SqlError{1369, "44000", fmt::format("CHECK OPTION failed {}", check.view)};
  }
  return std::nullopt;
}

// The names of the columns `from` gives: a table's or a view's; 1146 when it is neither.
SqlResult<std::vector<std::string>> Session::SourceColumns(const TableName& from) {
  std::vector<std::string> names;
  if (auto t = FindTable(from); t.ok()) {
    for (const engine::Column& c : (*t)->spec().columns) names.push_back(c.name);
    return names;
  } else {
    auto view = FindView(from);
    if (!view.ok()) return view.error();
    if (!*view) return t.error();
    for (const SelectItem& item : (*view)->select().items) names.push_back(item.alias);
  }
  return names;
}

SqlResult<TableSpec> Session::ViewSpec(const View& v, int depth) {
  if (auto broken = BrokenView(v)) return InvalidView(v, *broken, false);
  TableSpec source;
  const TableSpec* from = nullptr;
  if (v.select().from) {
    TableName name = *v.select().from;
    if (name.database.empty()) name.database = v.name.database;
    if (auto table = FindTable(name); table.ok()) {
      source = (*table)->spec();
    } else {
      auto inner = FindView(name);
      if (!inner.ok()) return inner.error();
      if (!*inner) return InvalidView(v, table.error(), false);
      if (depth == kMaxViewDepth) return TooDeep();
      auto spec = ViewSpec(**inner, depth + 1);
      if (!spec.ok()) return spec.error();
      source = std::move(*spec);
    }
    from = &source;
  }
  TableSpec spec;
  spec.database = v.name.database;
  spec.name = v.name.name;
  for (const SelectItem& item : v.select().items) {
    auto column = SelectColumn(item.alias, item.expr.get(), from);
    if (!column) {
      return NotSupported(
          fmt::format("the type of the view column `{}` ({}): Strata derives a view column's type for columns, "
                      "literals, arithmetic, comparisons, aggregates and the common string functions",
                      item.alias, ExprText(*item.expr, "")));
    }
    spec.columns.push_back(std::move(*column));
  }
  return spec;
}

// 1462 when the view would read itself, through the views under it.
std::optional<SqlError> Session::ViewLoop(const CreateView& def) {
  std::optional<TableName> from = def.select->from;
  for (int depth = 0; from; ++depth) {
    if (from->database == def.name.database && from->name == def.name.name)
      return SqlError{1462, "HY000",
                      fmt::format("`{}`.`{}` contains view recursion", def.name.database, def.name.name)};
    if (depth == kMaxViewDepth) return TooDeep();
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
    if (auto unknown = UnknownIn(*item.expr, source)) return UnknownColumn(*unknown, "SELECT");
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
    if (auto unknown = UnknownIn(*given.where, source)) return UnknownColumn(*unknown, "WHERE");
    select->where = CloneExpr(*given.where);
  }
  for (const OrderItem& o : given.order_by) {
    ExprPtr key = OrderKey(*o.expr, *select, source);
    if (!key) return UnknownColumn(ExprText(*o.expr, ""), "ORDER BY");
    if (auto unknown = UnknownIn(*key, source)) return UnknownColumn(*unknown, "ORDER BY");
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
    if (!c.or_replace && !c.alter) return Error(TableExists(c.name.name));
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
    if (!c.if_not_exists) return Error(TableExists(c.name.name));
    StatementOutcome o;
    o.warnings.push_back({SqlWarning::Level::kNote, 1050, TableExists(c.name.name).message});
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

SqlResult<bool> Session::RenameView(const TableName& from, const TableName& to) {
  auto view = FindView(from);
  if (!view.ok()) return view.error();
  if (!*view) return false;
  if (from.database != to.database)
    return SqlError{1450, "HY000",
                    fmt::format("Changing schema from '{}' to '{}' is not allowed.", from.database, to.database)};
  auto other = FindRoutine(db_, to.database, to.name, RoutineKind::kView);
  if (!other.ok()) return FromStatus(other.status());
  if (db_.GetTable(to.database, to.name).ok() || (*other && !EqualsIgnoreCase(from.name, to.name)))
    return TableExists(to.name);
  CreateView def = *(*view)->definition;
  def.name = to;
  auto stored = FindRoutine(db_, from.database, from.name, RoutineKind::kView);
  if (!stored.ok() || !*stored)
    return SqlError{1146, "42S02", fmt::format("Table '{}.{}' doesn't exist", from.database, from.name)};
  StoredRoutine renamed = **stored;
  renamed.name = to.name;
  renamed.text = ViewText(def, to.database);
  if (Status st = RenameRoutine(db_, from.name, renamed); !st.ok()) return FromStatus(st);
  return true;
}

StatementOutcome Session::DoDropView(const DropView& d) {
  StatementOutcome o;
  std::string missing;
  for (const TableName& n : d.views) {
    const std::string database = n.database.empty() ? database_ : n.database;
    if (database.empty()) return Error(NoDatabase());
    auto view = FindView({database, n.name});  // of this name exactly (mysql.proc's key ignores case)
    if (!view.ok()) return Error(view.error());
    auto deleted = *view ? DeleteRoutine(db_, database, n.name, RoutineKind::kView) : Result<bool>(false);
    if (!deleted.ok()) return Error(FromStatus(deleted.status()));
    if (*deleted) continue;
    const std::string full = database + "." + n.name;
    if (db_.GetTable(database, n.name).ok())
      o.warnings.push_back({SqlWarning::Level::kWarning, 1347, fmt::format("'{}' is not of type 'VIEW'", full)});
    missing += (missing.empty() ? "" : ",") + full;
  }
  if (missing.empty()) return o;
  const std::string message = fmt::format("Unknown VIEW: '{}'", missing);
  if (d.if_exists)
    o.warnings.push_back({SqlWarning::Level::kNote, 4092, message});
  else
    o.error = SqlError{4092, "42S02", message};
  return o;
}

StatementOutcome Session::ShowCreateView(const Show& s, ResultSink& sink) {
  auto view = FindView(s.table);
  if (!view.ok()) return Error(view.error());
  if (!*view) {
    const std::string database = s.table.database.empty() ? database_ : s.table.database;
    if (FindTable(s.table).ok())
      return Error({1347, "HY000", fmt::format("'{}.{}' is not of type 'VIEW'", database, s.table.name)});
    return Error({1146, "42S02", fmt::format("Table '{}.{}' doesn't exist", database, s.table.name)});
  }
  sink.Header({{"View"}, {"Create View"}, {"character_set_client"}, {"collation_connection"}});
  // Printed against the session's database: names in another are qualified, as the server does.
  sink.Row({(*view)->name.name, ViewText(*(*view)->definition, database_), "utf8mb3", "utf8mb3_general_ci"});
  StatementOutcome o;
  o.result_set = true;
  o.rows = 1;
  return o;
}

SqlResult<TableSpec> Session::ViewColumns(const TableName& name, const SqlError& no_table) {
  auto view = FindView(name);
  if (!view.ok()) return view.error();
  if (!*view) return no_table;
  return ViewSpec(**view);
}

// In order of name.
SqlResult<std::vector<std::string>> Session::ViewsOf(const std::string& database) {
  std::vector<std::string> names;
  auto all = ListRoutines(db_);
  if (!all.ok()) return FromStatus(all.status());
  for (const StoredRoutine& r : *all) {
    if (r.kind == RoutineKind::kView && r.database == database) names.push_back(r.name);
  }
  std::sort(names.begin(), names.end());  // byte order (mysql.proc's ignores case)
  return names;
}

}  // namespace strata::sql
