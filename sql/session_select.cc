// SELECT: the output columns, the ORDER BY keys and the access path (an index that gives the
// ORDER BY order lets LIMIT stop the scan), then the plan of steps the rows flow through.
#include <fmt/format.h>

#include <algorithm>

#include "sql/access_path.h"
#include "sql/column_fit.h"
#include "sql/decimal.h"
#include "sql/foreign_keys.h"
#include "sql/functions.h"
#include "sqltext/lexer.h"
#include "sql/session.h"
#include "sql/row_builder.h"
#include "sql/select_plan.h"
#include "sql/session_context.h"
#include "sql/view.h"

namespace strata::sql {

namespace {

bool NumericColumn(const engine::Column& c) {
  return c.is_integer() || c.type == ColumnType::kDecimal || c.type == ColumnType::kFloat ||
         c.type == ColumnType::kDouble;
}

bool NumericExpr(const Expr& e, const TableSpec* spec) {
  switch (e.kind) {
    case Expr::Kind::kLiteral:
      return !e.value.is_string() || e.literal_kind == LiteralKind::kDecimal;
    case Expr::Kind::kColumn: {
      auto i = spec ? FindColumn(*spec, e.name) : std::nullopt;
      return i && NumericColumn(spec->columns[*i]);
    }
    case Expr::Kind::kBinary:
    case Expr::Kind::kUnary:
    case Expr::Kind::kIn:
    case Expr::Kind::kBetween:
    case Expr::Kind::kIsNull:
    case Expr::Kind::kLike:
      return true;
    case Expr::Kind::kFunction: {
      static constexpr std::string_view kNumeric[] = {
          "COUNT", "SUM",  "AVG",     "LENGTH", "CHAR_LENGTH", "OCTET_LENGTH",   "ABS",
          "FLOOR", "CEIL", "CEILING", "ROUND",  "RAND",        "LAST_INSERT_ID", "CONNECTION_ID"};
      if (std::find(std::begin(kNumeric), std::end(kNumeric), e.name) != std::end(kNumeric)) return true;
      return (e.name == "MIN" || e.name == "MAX") && !e.args.empty() && NumericExpr(*e.args[0], spec);
    }
    default:
      return false;
  }
}

// ORDER BY's (or GROUP BY's) keys: an output position (ORDER BY 2), an alias, or an expression
// on the row. ORDER BY takes an alias before a column of the table, GROUP BY a column first
// (as the server resolves them). `owned` keeps the column references made for positions of an
// expanded `*`.
SqlResult<std::vector<SortStep::Key>> OrderKeys(const std::vector<OrderItem>& items, const Select& s,
                                                const std::vector<SelectOutput>& outputs, const TableSpec& spec,
                                                std::vector<ExprPtr>& owned, bool group = false) {
  std::vector<SortStep::Key> keys;
  for (const OrderItem& item : items) {
    const Expr* e = item.expr.get();
    if (e->kind == Expr::Kind::kLiteral && e->value.is_int()) {
      const auto pos = e->value.as_int();
      if (pos < 1 || static_cast<std::size_t>(pos) > outputs.size())
        return SqlError{1054, "42S22",
                        fmt::format("Unknown column '{}' in '{}'", pos, group ? "group statement" : "order clause")};
      const SelectOutput& out = outputs[static_cast<std::size_t>(pos - 1)];
      if (out.expr) {
        e = out.expr;
      } else {  // `*` expanded: order by that column
        auto col = std::make_unique<Expr>();
        col->kind = Expr::Kind::kColumn;
        col->name = spec.columns[*out.column].name;
        e = col.get();
        owned.push_back(std::move(col));
      }
    } else if (e->kind == Expr::Kind::kColumn && e->table.empty() && !(group && FindColumn(spec, e->name))) {
      for (const SelectItem& named : s.items) {
        if (!named.alias.empty() && EqualsIgnoreCase(named.alias, e->name)) e = named.expr.get();
      }
    }
    keys.push_back({e, item.descending});
  }
  return keys;
}

// HAVING with the select list's aliases standing for their expressions, where no column of the
// table has the name (HAVING n > 1 for COUNT(*) AS n).
ExprPtr WithAliases(const Expr& e, const Select& s, const TableSpec& spec) {
  if (e.kind == Expr::Kind::kColumn && e.table.empty() && !FindColumn(spec, e.name)) {
    for (const SelectItem& named : s.items) {
      if (named.expr && !named.alias.empty() && EqualsIgnoreCase(named.alias, e.name)) return CloneExpr(*named.expr);
    }
  }
  ExprPtr out = CloneExpr(e);
  for (std::size_t i = 0; i < e.args.size(); ++i) out->args[i] = WithAliases(*e.args[i], s, spec);
  return out;
}

// Whether rows come out of `p`'s index in the order the keys ask for (ascending, on the
// columns after the equal prefix): then no sort is needed and LIMIT stops the scan.
bool IndexGivesOrder(const AccessPath& p, const std::vector<SortStep::Key>& keys, const TableSpec& spec) {
  if (p.use_points && p.points.size() > 1) return keys.empty();
  if (p.use_points) return true;
  std::size_t k = p.eq.size();
  for (const SortStep::Key& key : keys) {
    if (key.descending || key.expr->kind != Expr::Kind::kColumn || k >= p.columns.size()) return false;
    auto c = FindColumn(spec, key.expr->name);
    if (!c || *c != p.columns[k++]) return false;
  }
  return true;
}

// The path the WHERE allows; without one, an index whose order is the ORDER BY's (ORDER BY k
// LIMIT 10 walks the index on k). `sorted` says whether the rows come out in that order.
AccessPath ChoosePath(const TableSpec& spec, const EvalContext& ctx, const Expr* where,
                      const std::vector<SortStep::Key>& keys, bool& sorted) {
  AccessPath path = PlanAccess(spec, ctx, where);
  sorted = IndexGivesOrder(path, keys, spec);
  if (sorted || !path.eq.empty() || path.lower || path.upper || path.use_points) return path;
  for (const IndexSpec& ix : spec.indexes) {
    AccessPath p;
    p.index = ix.name;
    p.columns = Positions(spec, ix.columns);
    if (IndexGivesOrder(p, keys, spec)) {
      sorted = true;
      return p;
    }
  }
  return path;
}

// What each output column shows, with its header; whether any aggregates.
SqlResult<std::vector<SelectOutput>> SelectOutputs(const Select& s, const TableSpec* spec, bool& aggregate) {
  std::vector<SelectOutput> outputs;
  aggregate = false;
  for (const SelectItem& item : s.items) {
    if (!item.expr) {
      if (!spec) return SqlError{1096, "HY000", "No tables used"};
      for (std::size_t i = 0; i < spec->columns.size(); ++i)
        outputs.push_back({nullptr, i, {spec->columns[i].name, NumericColumn(spec->columns[i])}});
      continue;
    }
    SelectOutput out;
    out.expr = item.expr.get();
    out.header = {item.alias.empty() ? item.text : item.alias, NumericExpr(*item.expr, spec)};
    if (item.expr->kind == Expr::Kind::kColumn) {
      if (!spec) return UnknownColumn(item.expr->name, "field list");
      out.column = FindColumn(*spec, item.expr->name);
      if (!out.column) return UnknownColumn(item.expr->name, "field list");
      if (item.alias.empty()) out.header.name = spec->columns[*out.column].name;
    }
    aggregate |= HasAggregate(*item.expr);
    outputs.push_back(std::move(out));
  }
  return outputs;
}

}  // namespace

bool KeysLeadAnIndex(const std::vector<SortStep::Key>& keys, const TableSpec& spec) {
  if (keys.empty()) return false;
  std::vector<std::string> names;
  for (const SortStep::Key& k : keys) {
    if (k.expr->kind != Expr::Kind::kColumn) return false;
    auto c = FindColumn(spec, k.expr->name);
    if (!c) return false;
    names.push_back(spec.columns[*c].name);
  }
  return LeadingIndex(spec, names).has_value();
}

// The steps between WHERE and LIMIT, last first, each passing rows to the one made before it:
// DISTINCT, the sort (unless the rows come sorted already), HAVING, then GROUP BY or the
// aggregate. Returns the first of them (or `limit` when there is none).
class MiddleSteps {
 public:
  RowStep* Build(PlanState& state, const Select& s, const std::vector<SelectOutput>& outputs, const TableSpec* spec,
                 bool aggregate, bool sorted, std::vector<SortStep::Key> order, std::vector<SortStep::Key> group,
                 const Expr* having, RowStep* limit) {
    // The server reads groups whose keys lead an index through that index: in key order even
    // under ORDER BY NULL.
    const bool read_by_index = spec && KeysLeadAnIndex(group, *spec);
    RowStep* next = limit;
    auto add = [&](std::unique_ptr<RowStep> step) {
      next = step.get();
      steps_.push_back(std::move(step));
    };
    if (s.distinct) add(std::make_unique<DistinctStep>(state, outputs, spec, next));
    const bool grouped = !group.empty();
    // ORDER BY NULL: no sort, and the groups as they came (MariaDB's way to skip its sort).
    const bool unordered =
        order.size() == 1 && order[0].expr->kind == Expr::Kind::kLiteral && order[0].expr->value.is_null();
    if (unordered) order.clear();
    if ((!grouped && !aggregate && !sorted && !unordered) || (grouped && !order.empty()))
      add(std::make_unique<SortStep>(state, order, next));
    if (!grouped && !aggregate) return next;
    if (having) add(std::make_unique<FilterStep>(state, having, next));
    std::vector<const Expr*> exprs;  // what reads the aggregates
    for (const SelectOutput& out : outputs) {
      if (out.expr) exprs.push_back(out.expr);
    }
    if (having) exprs.push_back(having);
    for (const SortStep::Key& k : order) exprs.push_back(k.expr);
    if (grouped) {
      auto step =
          std::make_unique<GroupStep>(state, std::move(group), exprs, !unordered || read_by_index || s.rollup, next);
      if (s.rollup) step->Rollup(*spec);
      add(std::move(step));
    } else
      add(std::make_unique<AggregateStep>(state, exprs, next));
    return next;
  }

 private:
  std::vector<std::unique_ptr<RowStep>> steps_;
};

// The rows flow scan -> filter -> aggregate | sort -> limit -> project (select_plan.h).
// A call of a stored function somewhere in `e`: a name the function library does not have.
bool CallsStoredFunction(const Expr* e) {
  if (!e) return false;
  if (e->kind == Expr::Kind::kFunction && !FindFunction(e->name) && !IsAggregate(*e)) return true;
  return std::any_of(e->args.begin(), e->args.end(), [](const ExprPtr& a) { return CallsStoredFunction(a.get()); });
}

bool CallsStoredFunction(const Select& s) {
  return CallsStoredFunction(s.where.get()) ||
         std::any_of(s.items.begin(), s.items.end(),
                     [](const SelectItem& i) { return CallsStoredFunction(i.expr.get()); }) ||
         std::any_of(s.order_by.begin(), s.order_by.end(),
                     [](const OrderItem& o) { return CallsStoredFunction(o.expr.get()); });
}

StatementOutcome Session::DoSelect(const Select& s, ResultSink& sink, Transaction* trx) {
  if (!s.from) return SelectFrom(s, nullptr, nullptr, nullptr, sink, trx);
  auto t = FindTable(*s.from);
  if (t.ok()) return SelectFrom(s, &(*t)->spec(), *t, nullptr, sink, trx);
  auto view = FindView(*s.from);
  if (!view.ok()) return Error(view.error());
  if (*view && NeedsTemporaryTable(s, **view)) return SelectFromCopy(s, **view, sink, trx);
  return ThroughView(s, t.error(), [&](const Select& m) { return DoSelect(m, sink, trx); });
}

// The view's rows copied out (a temporary table's), then the query over the copy: for a view
// whose aggregate or LIMIT must be applied before the query filters, sorts or aggregates.
StatementOutcome Session::SelectFromCopy(const Select& s, const View& v, ResultSink& sink, Transaction* trx) {
  auto spec = ViewSpec(v);
  if (!spec.ok()) return Error(spec.error());
  Select whole;  // SELECT * FROM v: merged, whatever the view
  whole.items.emplace_back();
  whole.items.back().text.assign(1, '*');  // not = "*": GCC 12 warns falsely (-Wrestrict)
  whole.from = v.name;
  ValuesSink values;
  StatementOutcome read = DoSelect(whole, values, trx);
  if (read.error) return read;
  // Each value made one of its column, as an INSERT into the temporary table would make it
  // (a quotient rounded to its scale, an ENUM's label its number).
  auto builder = RowBuilder::For(*spec, {});
  if (!builder.ok()) return Error(builder.error());
  std::vector<Row> rows;
  rows.reserve(values.rows.size());
  std::vector<std::optional<SqlValue>> row_values;
  for (std::size_t r = 0; r < values.rows.size(); ++r) {
    row_values.assign(std::make_move_iterator(values.rows[r].begin()), std::make_move_iterator(values.rows[r].end()));
    auto row = builder->Build(row_values, r + 1);
    if (!row.ok()) return Error(row.error());
    for (std::size_t c = 0; c < row->size(); ++c) {  // as stored: rounded to the column's scale
      auto stored = engine::StoredValue(spec->columns[c], (*row)[c]);
      if (!stored.ok()) return Error(AtRow(FromStatus(stored.status()), r + 1));
      (*row)[c] = std::move(*stored);
    }
    rows.push_back(std::move(*row));
  }
  StatementOutcome o = SelectFrom(s, &*spec, nullptr, &rows, sink, trx);
  o.warnings.insert(o.warnings.begin(), read.warnings.begin(), read.warnings.end());
  return o;
}

StatementOutcome Session::SelectFrom(const Select& s, const TableSpec* spec, Table* table, const std::vector<Row>* copy,
                                     ResultSink& sink, Transaction* trx) {
  bool aggregate = false;
  auto outputs = SelectOutputs(s, spec, aggregate);
  if (!outputs.ok()) return Error(outputs.error());
  std::vector<ColumnHeader> headers;
  for (const SelectOutput& out : *outputs) headers.push_back(out.header);

  static const TableSpec kNoTable;
  RowContext ctx(*this, spec ? *spec : kNoTable);  // both lvalues: no temporary copy bound
  PlanState state(ctx);
  ProjectStep project(state, *outputs, spec, sink);
  LimitStep limit(state, s.offset, s.limit, &project);
  StatementOutcome o;
  o.result_set = true;
  if (!spec) {
    sink.Header(headers);
    FilterStep filter(state, s.where.get(), &limit);  // a view without a table may have a WHERE
    filter.Push(nullptr);
    if (state.error) return Error(*state.error);
    o.rows = project.rows();
    return o;
  }
  std::vector<ExprPtr> owned;
  auto keys = OrderKeys(s.order_by, s, *outputs, *spec, owned);
  if (!keys.ok()) return Error(keys.error());
  auto group = OrderKeys(s.group_by, s, *outputs, *spec, owned, true);
  if (!group.ok()) return Error(group.error());
  if (s.rollup && !s.order_by.empty()) return Error({1221, "HY000", "Incorrect usage of CUBE/ROLLUP and ORDER BY"});
  const ExprPtr having = s.having ? WithAliases(*s.having, s, *spec) : nullptr;
  const bool grouped = aggregate || !group->empty() || s.having;
  bool sorted = false;
  // Groups whose keys lead an index are read through it, as the server reads them (the row
  // numbers GROUP_CONCAT's warning gives follow that order).
  std::vector<SortStep::Key> index_order;
  if (KeysLeadAnIndex(*group, *spec)) {
    for (const SortStep::Key& k : *group) index_order.push_back({k.expr, false});
  }
  const AccessPath path = ChoosePath(*spec, *context_, s.where.get(), grouped ? index_order : *keys, sorted);
  sorted = sorted && table && !grouped;  // a copy's rows come in no index's order
  sink.Header(headers);
  MiddleSteps middle;
  RowStep* first = middle.Build(state, s, *outputs, spec, aggregate || s.having, sorted, std::move(*keys),
                                std::move(*group), having.get(), &limit);
  FilterStep filter(state, s.where.get(), first);
  // A stored function may write (even the rows being read): its statements run once the scan,
  // whose latches a write on this thread would wait for, is over: the rows are read first.
  const bool read_first = CallsStoredFunction(s);
  TableUse use(*this, *spec);
  std::vector<Row> read;
  const auto take = [&](const Row& row) {
    if (interrupted()) return state.Fail(Interrupted());
    if (read_first) {
      read.push_back(row);
      return true;
    }
    return filter.Push(&row);
  };
  Status st = Status::Ok();
  if (table) {
    st = Visit(*table, path, trx, s.lock, take);
  } else {
    for (std::size_t r = 0; r < copy->size() && take((*copy)[r]); ++r) {
    }
  }
  for (std::size_t r = 0; r < read.size() && st.ok() && !state.error; ++r) {
    if (interrupted()) {
      state.Fail(Interrupted());
      break;
    }
    if (!filter.Push(&read[r])) break;
  }
  if (!state.error && st.ok()) filter.Finish();
  if (state.error) return Error(*state.error);
  if (!st.ok()) return Error(FromStatus(st));
  o.rows = project.rows();
  return o;
}

}  // namespace strata::sql
