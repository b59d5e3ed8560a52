// SELECT: the output columns, the access path (an index that gives the ORDER BY order lets
// LIMIT stop the scan), the row filter, aggregates, sorting, LIMIT and OFFSET.
#include <fmt/format.h>

#include <algorithm>

#include "sql/access_path.h"
#include "sql/decimal.h"
#include "sql/lexer.h"
#include "sql/session.h"
#include "sql/session_context.h"

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

// Running value of one aggregate call.
struct Accumulator {
  const Expr* call = nullptr;
  std::uint64_t count = 0;
  // SUM and AVG: exactly over integers and DECIMALs (MySQL's DECIMAL sum), as a double
  // once a double or a string comes.
  __int128 int_sum = 0;  // the integers' part (no row count makes it overflow)
  Decimal decimal_sum;   // the DECIMALs' part
  long double sum = 0;
  bool exact = true, integral = true;
  std::optional<SqlValue> best;  // MIN/MAX

  std::optional<SqlError> Add(const RowContext& ctx) {
    if (call->star) {
      ++count;
      return std::nullopt;
    }
    auto v = Eval(*call->args.at(0), ctx);
    if (!v.ok()) return v.error();
    if (v->value.is_null()) return std::nullopt;
    ++count;
    if (call->name == "MIN" || call->name == "MAX") {
      const auto c = best ? Compare(*v, *best) : std::optional<int>(0);
      if (!best || (call->name == "MIN" ? *c < 0 : *c > 0)) best = *v;
    } else if (call->name == "SUM" || call->name == "AVG") {
      const Value& x = v->value;
      integral = integral && (x.is_int() || x.is_uint());
      const bool decimal = v->kind == LiteralKind::kDecimal && x.is_string();
      if (exact && x.is_int()) {
        int_sum += x.as_int();
      } else if (exact && x.is_uint()) {
        int_sum += x.as_uint();
      } else if (exact && decimal) {
        decimal_sum = decimal_sum + Decimal::Parse(x.as_string()).value_or(Decimal());
      } else if (exact) {
        exact = false;
        sum = ExactSum().ToDouble();
      }
      if (!exact) {
        sum += x.is_int()      ? static_cast<long double>(x.as_int())
               : x.is_uint()   ? static_cast<long double>(x.as_uint())
               : x.is_double() ? static_cast<long double>(x.as_double())
                               : std::strtold(x.as_string().c_str(), nullptr);
      }
    }
    return std::nullopt;
  }

  Decimal ExactSum() const {
    const bool negative = int_sum < 0;
    const unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(int_sum) : int_sum;
    const Decimal two_to_64 = Decimal::OfUnsigned(UINT64_MAX) + Decimal::Of(1);
    Decimal d = Decimal::OfUnsigned(static_cast<std::uint64_t>(magnitude >> 64)) * two_to_64 +
                Decimal::OfUnsigned(static_cast<std::uint64_t>(magnitude));
    return (negative ? Decimal() - d : d) + decimal_sum;
  }

  SqlValue Result() const {
    const std::string& f = call->name;
    if (f == "COUNT") return {Value::UInt(count)};
    if (f == "MIN" || f == "MAX") return best.value_or(SqlValue{});
    if (count == 0) return {};
    auto decimal = [](const Decimal& d) { return SqlValue{Value::String(d.ToString()), LiteralKind::kDecimal}; };
    if (f == "SUM") {
      if (!exact) return {Value::Double(static_cast<double>(sum))};
      if (integral && int_sum >= INT64_MIN && int_sum <= INT64_MAX)
        return {Value::Int(static_cast<std::int64_t>(int_sum))};
      return decimal(ExactSum());
    }
    if (!exact) return {Value::Double(static_cast<double>(sum / count))};  // AVG
    const Decimal total = ExactSum();
    return decimal(*total.Divide(Decimal::OfUnsigned(count), std::min(total.scale() + 4, Decimal::kMaxScale)));
  }
};

void CollectAggregates(const Expr& e, std::vector<Accumulator>& out) {
  if (IsAggregate(e)) {
    Accumulator a;
    a.call = &e;
    out.push_back(a);
    return;
  }
  for (const auto& a : e.args) CollectAggregates(*a, out);
}

}  // namespace

StatementOutcome Session::DoSelect(const Select& s, ResultSink& sink, Transaction* trx) {
  StatementOutcome o;
  o.result_set = true;
  // What each output column shows: a table column (by position) or an expression.
  struct Output {
    const Expr* expr = nullptr;
    std::optional<std::size_t> column;
    ColumnHeader header;
  };
  Table* table = nullptr;
  const TableSpec* spec = nullptr;
  if (s.from) {
    auto t = FindTable(*s.from);
    if (!t.ok()) return Error(t.error());
    table = *t;
    spec = &table->spec();
  }
  std::vector<Output> outputs;
  bool aggregate = false;
  for (const SelectItem& item : s.items) {
    if (!item.expr) {
      if (!spec) return Error({1096, "HY000", "No tables used"});
      for (std::size_t i = 0; i < spec->columns.size(); ++i) {
        outputs.push_back({nullptr, i, {spec->columns[i].name, NumericColumn(spec->columns[i])}});
      }
      continue;
    }
    Output out;
    out.expr = item.expr.get();
    out.header = {item.alias.empty() ? item.text : item.alias, NumericExpr(*item.expr, spec)};
    if (item.expr->kind == Expr::Kind::kColumn) {
      if (!spec) return Error(UnknownColumn(item.expr->name, "field list"));
      out.column = FindColumn(*spec, item.expr->name);
      if (!out.column) return Error(UnknownColumn(item.expr->name, "field list"));
      if (item.alias.empty()) out.header.name = spec->columns[*out.column].name;
    }
    aggregate |= HasAggregate(*item.expr);
    outputs.push_back(std::move(out));
  }
  std::vector<ColumnHeader> headers;
  for (const Output& out : outputs) headers.push_back(out.header);

  static const TableSpec kNoTable;
  RowContext ctx(*this, spec ? *spec : kNoTable);  // both lvalues: no temporary copy bound
  auto format_row = [&](const Row* row) -> SqlResult<std::vector<std::optional<std::string>>> {
    ctx.set_row(row);
    std::vector<std::optional<std::string>> values;
    values.reserve(outputs.size());
    for (const Output& out : outputs) {
      if (out.column && row) {
        values.push_back(Format((*row)[*out.column], &spec->columns[*out.column]));
        continue;
      }
      auto v = Eval(*out.expr, ctx);
      if (!v.ok()) return v.error();
      values.push_back(FormatResult(*v));
    }
    return values;
  };

  if (!table) {
    sink.Header(headers);
    if (s.limit && *s.limit == 0) return o;
    auto values = format_row(nullptr);
    if (!values.ok()) return Error(values.error());
    sink.Row(*values);
    o.rows = 1;
    return o;
  }

  // ORDER BY names an output position (ORDER BY 2), an alias, or an expression on the row.
  std::vector<const Expr*> order_exprs;
  std::vector<ExprPtr> owned;  // column references made for ORDER BY positions
  for (const OrderItem& item : s.order_by) {
    const Expr* e = item.expr.get();
    if (e->kind == Expr::Kind::kLiteral && e->value.is_int()) {
      const auto pos = e->value.as_int();
      if (pos < 1 || static_cast<std::size_t>(pos) > outputs.size()) {
        return Error({1054, "42S22", fmt::format("Unknown column '{}' in 'order clause'", pos)});
      }
      const Output& out = outputs[static_cast<std::size_t>(pos - 1)];
      if (!out.expr) {
        // `*` expanded: order by that column.
        auto col = std::make_unique<Expr>();
        col->kind = Expr::Kind::kColumn;
        col->name = spec->columns[*out.column].name;
        order_exprs.push_back(col.get());
        owned.push_back(std::move(col));
        continue;
      }
      e = out.expr;
    } else if (e->kind == Expr::Kind::kColumn && e->table.empty()) {
      for (std::size_t k = 0; k < s.items.size(); ++k) {
        if (!s.items[k].alias.empty() && EqualsIgnoreCase(s.items[k].alias, e->name)) e = s.items[k].expr.get();
      }
    }
    order_exprs.push_back(e);
  }

  AccessPath path = PlanAccess(*spec, *context_, s.where.get());
  // Rows come out of an index in its order: when ORDER BY asks for that order (ascending,
  // on the columns after the equal prefix), no sort is needed and LIMIT stops the scan.
  auto index_gives_order = [&](const AccessPath& p) {
    if (p.use_points && p.points.size() > 1) return s.order_by.empty();
    if (p.use_points) return true;
    std::size_t k = p.eq.size();
    for (std::size_t j = 0; j < order_exprs.size(); ++j, ++k) {
      const Expr* e = order_exprs[j];
      if (s.order_by[j].descending || e->kind != Expr::Kind::kColumn || k >= p.columns.size()) return false;
      auto c = FindColumn(*spec, e->name);
      if (!c || *c != p.columns[k]) return false;
    }
    return true;
  };
  bool sorted_by_index = index_gives_order(path);
  if (!sorted_by_index && path.eq.empty() && !path.lower && !path.upper && !path.use_points) {
    for (const IndexSpec& ix : spec->indexes) {  // ORDER BY k LIMIT 10: walk the index on k
      AccessPath p;
      p.index = ix.name;
      p.columns = Positions(*spec, ix.columns);
      if (index_gives_order(p)) {
        path = std::move(p);
        sorted_by_index = true;
        break;
      }
    }
  }

  sink.Header(headers);
  std::optional<SqlError> error;
  std::vector<Accumulator> accumulators;
  if (aggregate) {
    for (const Output& out : outputs) {
      if (out.expr) CollectAggregates(*out.expr, accumulators);
    }
  }
  std::vector<Row> collected;
  std::uint64_t skipped = 0;
  const bool stream = !aggregate && sorted_by_index;
  Status st = Visit(*table, path, trx, s.lock, [&](const Row& row) {
    if (interrupted()) {
      error = Interrupted();
      return false;
    }
    ctx.set_row(&row);
    auto m = Matches(s.where.get(), ctx);
    if (!m.ok()) {
      error = m.error();
      return false;
    }
    if (!*m) return true;
    if (aggregate) {
      for (Accumulator& a : accumulators) {
        if (auto e = a.Add(ctx)) {
          error = *e;
          return false;
        }
      }
      return true;
    }
    if (!stream) {
      collected.push_back(row);
      return true;
    }
    if (s.limit && o.rows >= *s.limit) return false;
    if (skipped < s.offset) {
      ++skipped;
      return true;
    }
    auto values = format_row(&row);
    if (!values.ok()) {
      error = values.error();
      return false;
    }
    sink.Row(*values);
    ++o.rows;
    return !(s.limit && o.rows >= *s.limit);
  });
  if (error) return Error(*error);
  if (!st.ok()) return Error(FromStatus(st));
  if (aggregate) {
    for (const Accumulator& a : accumulators) ctx.aggregates.emplace_back(a.call, a.Result());
    if (s.offset > 0 || (s.limit && *s.limit == 0)) return o;
    auto values = format_row(nullptr);
    if (!values.ok()) return Error(values.error());
    sink.Row(*values);
    o.rows = 1;
    return o;
  }
  if (stream) return o;
  // Sort what was collected by the ORDER BY keys (NULLs first, as MySQL sorts them).
  std::vector<std::pair<std::vector<SqlValue>, std::size_t>> keys;
  keys.reserve(collected.size());
  for (std::size_t i = 0; i < collected.size(); ++i) {
    ctx.set_row(&collected[i]);
    std::vector<SqlValue> k;
    for (const Expr* e : order_exprs) {
      auto v = Eval(*e, ctx);
      if (!v.ok()) return Error(v.error());
      k.push_back(std::move(*v));
    }
    keys.emplace_back(std::move(k), i);
  }
  std::stable_sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) {
    for (std::size_t j = 0; j < order_exprs.size(); ++j) {
      const bool an = a.first[j].value.is_null(), bn = b.first[j].value.is_null();
      int c = an && bn ? 0 : an ? -1 : bn ? 1 : *Compare(a.first[j], b.first[j]);
      if (s.order_by[j].descending) c = -c;
      if (c) return c < 0;
    }
    return false;
  });
  for (std::size_t i = s.offset; i < keys.size(); ++i) {
    if (s.limit && o.rows >= *s.limit) break;
    auto values = format_row(&collected[keys[i].second]);
    if (!values.ok()) return Error(values.error());
    sink.Row(*values);
    ++o.rows;
  }
  return o;
}

}  // namespace strata::sql
