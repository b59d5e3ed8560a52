// Views in the session: CREATE / ALTER / DROP VIEW, SHOW CREATE VIEW and SHOW [FULL] TABLES,
// and the statements that name a view merged into statements on its table (sql/view.h).
// Views are kept in mysql.proc beside the routines, their text as SHOW CREATE VIEW shows it.
#include <fmt/format.h>

#include <algorithm>

#include "ondisk/identifier.h"
#include "sql/expr_text.h"
#include "sql/routine_store.h"
#include "sql/session.h"
#include "sql/session_context.h"
#include "sql/view.h"

namespace strata::sql {

namespace {

// Views over views nest at most this deep; deeper is a loop (CREATE OR REPLACE can make one).
constexpr int kMaxViewDepth = 64;

SqlError TableExists(const std::string& name) {
  return {1050, "42S01", fmt::format("Table '{}' already exists", name)};
}

const TableName* TargetOf(const Select& s) { return s.from ? &*s.from : nullptr; }
const TableName* TargetOf(const Update& s) { return &s.table; }
const TableName* TargetOf(const Delete& s) { return &s.table; }
const TableName* TargetOf(const Insert& s) { return &s.table; }

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
  if (!*stored) return std::shared_ptr<const View>();
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
  view->definition = std::make_shared<const CreateView>(std::move(*create));
  view->text = (*stored)->text;
  views_[key] = view;
  return std::shared_ptr<const View>(view);
}

SqlError Session::InvalidView(const View& v, const SqlError& why) {
  const SqlError e{1356, "HY000",
                   fmt::format("View '{}.{}' references invalid table(s) or column(s) or function(s) or "
                               "definer/invoker of view lack rights to use them",
                               v.name.database, v.name.name)};
  failure_trail_.push_back({SqlWarning::Level::kError, why.code, why.message});
  failure_trail_.push_back({SqlWarning::Level::kError, e.code, e.message});
  return e;
}

template <typename S>
SqlResult<std::optional<S>> Session::Merged(const S& s) {
  std::optional<S> out;
  std::shared_ptr<const View> last;
  for (int depth = 0;; ++depth) {
    const TableName* target = TargetOf(out ? *out : s);
    if (!target) return out;
    auto table = FindTable(*target);
    if (table.ok()) return out;
    auto view = FindView(*target);
    if (!view.ok()) return view.error();
    if (!*view && last) return InvalidView(*last, table.error());  // what the view reads is gone
    if (!*view) return out;                                        // no such table: the caller says so
    last = *view;
    if (depth == kMaxViewDepth)
      return SqlError{1462, "HY000", fmt::format("{} contains view recursion", (*view)->Quoted())};
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
      if (!*inner) return table.error();
      if (depth == kMaxViewDepth) return SqlError{1462, "HY000", fmt::format("{} contains view recursion", v.Quoted())};
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

// The view's SELECT as it is kept: its table's database named, its * expanded, every column
// named (by the view's column list when it has one), ORDER BY aliases resolved.
SqlResult<std::shared_ptr<const Select>> Session::ViewSelect(const CreateView& c) {
  const Select& given = *c.select;
  auto select = std::make_shared<Select>();
  std::vector<std::string> source;
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
  }
  if (!c.columns.empty()) {
    if (c.columns.size() != select->items.size())
      return SqlError{1353, "HY000", "View's SELECT and view's field list have different column counts"};
    for (std::size_t i = 0; i < c.columns.size(); ++i) select->items[i].alias = c.columns[i];
  }
  for (std::size_t i = 0; i < select->items.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (EqualsIgnoreCase(select->items[i].alias, select->items[j].alias))
        return SqlError{1060, "42S21", fmt::format("Duplicate column name '{}'", select->items[i].alias)};
    }
  }
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
  if (db_.GetTable(database, c.name.name).ok()) return Error(TableExists(c.name.name));
  auto existing = FindView({database, c.name.name});
  if (!existing.ok()) return Error(existing.error());
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
  def.check = c.check;
  def.select = *select;
  if (c.check != CheckOption::kNone && !Updatable(**select)) {
    return Error({1368, "HY000",
                  fmt::format("CHECK OPTION on non-updatable view {}.{}", ondisk::QuoteIdentifier(database),
                              ondisk::QuoteIdentifier(c.name.name))});
  }
  StoredRoutine stored{database, c.name.name, RoutineKind::kView, ViewText(def, database), *SystemVariable("sql_mode"),
                       ""};
  if (Status st = SaveRoutine(db_, stored, *existing != nullptr); !st.ok()) return Error(FromStatus(st));
  return {};
}

StatementOutcome Session::DoDropView(const DropView& d) {
  StatementOutcome o;
  std::string missing;
  for (const TableName& n : d.views) {
    const std::string database = n.database.empty() ? database_ : n.database;
    if (database.empty()) return Error(NoDatabase());
    auto deleted = DeleteRoutine(db_, database, n.name, RoutineKind::kView);
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
  sink.Row({(*view)->name.name, (*view)->text, "utf8mb3", "utf8mb3_general_ci"});
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
