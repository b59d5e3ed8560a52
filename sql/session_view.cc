// Views in use: found (parsed once per stored text), statements naming one merged into
// statements on its table (sql/view.h), checked (WITH CHECK OPTION, 1356 when what one reads is
// gone), typed (SHOW COLUMNS), renamed, dropped, shown. They are rows of mysql.proc beside the
// routines; CREATE and ALTER VIEW are in session_view_create.cc.
#include <fmt/format.h>

#include <algorithm>

#include "sql/expr_text.h"
#include "sql/routine_store.h"
#include "sql/session.h"
#include "sql/session_context.h"
#include "sql/view.h"

namespace strata::sql {

namespace {

// 1356: the view `name` reads a table, column or function that is not there.
SqlError ReferencesInvalid(const TableName& name) {
  return {1356, "HY000",
          fmt::format("View '{}.{}' references invalid table(s) or column(s) or function(s) or definer/invoker of view "
                      "lack rights to use them",
                      name.database, name.name)};
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
  if (p.error || !create) return ReferencesInvalid({database, name.name});
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
    if (auto unknown = UnknownColumnIn(*item.expr, columns)) return gone(*unknown, "SELECT");
  }
  if (auto unknown = def.where ? UnknownColumnIn(*def.where, columns) : std::nullopt) return gone(*unknown, "WHERE");
  return std::nullopt;
}

SqlError Session::InvalidView(const View& v, const SqlError& why, bool listed) {
  const SqlError e = ReferencesInvalid(v.name);
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
    if (depth == kMaxViewDepth) return ViewsTooDeep();
    if (auto broken = BrokenView(**view)) return InvalidView(*named, *broken);
    auto merged = MergeView(out ? *out : s, **view);
    if (!merged.ok() && (merged.error().code == 1288 || merged.error().code == 1471)) {
      SqlError e = merged.error();  // the target the statement named is not updatable, as the server says it
      const std::string inner = "table " + (*view)->name.name + " of", outer = "table " + named->name.name + " of";
      if (const std::size_t at = e.message.find(inner); at != std::string::npos)
        e.message.replace(at, inner.size(), outer);
      return e;
    }
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
      if (depth == kMaxViewDepth) return ViewsTooDeep();
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
    return TableAlreadyExists(to.name);
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
  if (BrokenView(**view)) {  // shown all the same, with the server's warning
    const SqlError broken = ReferencesInvalid((*view)->name);
    o.warnings.push_back({SqlWarning::Level::kWarning, broken.code, broken.message});
  }
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
