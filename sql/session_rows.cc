// Row statements: INSERT/REPLACE, UPDATE, DELETE and SELECT, with the choice of index a
// WHERE allows (point lookups on the primary key, ranges on a key prefix, else a scan).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "sql/lexer.h"
#include "sql/row_builder.h"
#include "sql/values_reader.h"
#include "sql/session.h"
#include "sql/session_context.h"

namespace strata::sql {

std::optional<std::size_t> FindColumn(const TableSpec& spec, const std::string& name) {
  for (std::size_t i = 0; i < spec.columns.size(); ++i) {
    if (EqualsIgnoreCase(spec.columns[i].name, name)) return i;
  }
  return std::nullopt;
}

SqlValue FromColumn(const Value& v, const engine::Column& c) {
  LiteralKind kind = LiteralKind::kPlain;
  if (c.type == ColumnType::kDecimal)
    kind = LiteralKind::kDecimal;
  else if (c.charset == Charset::kBinary || c.type == ColumnType::kBinary || c.type == ColumnType::kVarbinary ||
           (c.is_lob() && !c.is_string())) {
    kind = LiteralKind::kBinary;
  }
  return {v, kind};
}

SqlResult<SqlValue> RowContext::Column(const Expr& column) const {
  auto i = FindColumn(spec_, column.name);
  if (!i || !row_) return EvalContext::Column(column);
  return FromColumn((*row_)[*i], spec_.columns[*i]);
}

const SqlValue* RowContext::Aggregate(const Expr& call) const {
  for (const auto& [e, v] : aggregates) {
    if (e == &call) return &v;
  }
  return nullptr;
}

namespace {

StatementOutcome Error(SqlError e) {
  StatementOutcome o;
  o.error = std::move(e);
  return o;
}

SqlError UnknownColumn(const std::string& name, std::string_view where) {
  return {1054, "42S22", fmt::format("Unknown column '{}' in '{}'", name, where)};
}

bool HasColumnRef(const Expr& e) {
  if (e.kind == Expr::Kind::kColumn) return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return HasColumnRef(*a); });
}

bool Constant(const Expr& e) { return !HasColumnRef(e) && !HasAggregate(e) && e.kind != Expr::Kind::kDefault; }

void Conjuncts(const Expr* e, std::vector<const Expr*>& out) {
  if (!e) return;
  if (e->kind == Expr::Kind::kBinary && e->op == "AND") {
    Conjuncts(e->args[0].get(), out);
    Conjuncts(e->args[1].get(), out);
  } else {
    out.push_back(e);
  }
}

// Whether a constant may stand in a key of column `c`: a search key must convert to the
// column's type (id = 'abc' matches nothing, and is left to the row filter).
bool KeyCompatible(const SqlValue& v, const engine::Column& c) {
  if (v.value.is_null()) return false;
  if (c.is_integer()) {
    if (v.value.is_int() || v.value.is_uint()) {
      return !(c.is_unsigned && v.value.is_int() && v.value.as_int() < 0);
    }
    return false;
  }
  if (c.type == ColumnType::kFloat || c.type == ColumnType::kDouble || c.type == ColumnType::kDecimal) {
    return !v.value.is_string() || v.kind == LiteralKind::kDecimal;
  }
  if (c.is_string() || c.type == ColumnType::kBinary || c.type == ColumnType::kVarbinary) return v.value.is_string();
  return false;  // dates and LOBs: scanned
}

struct Bound {
  SqlValue value;
  bool inclusive = true;
};

struct ColumnConstraint {
  std::optional<SqlValue> eq;
  std::vector<SqlValue> in;
  std::optional<Bound> lower, upper;
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

std::vector<std::size_t> Positions(const TableSpec& spec, const std::vector<std::string>& names) {
  std::vector<std::size_t> out;
  for (const auto& n : names) out.push_back(*FindColumn(spec, n));
  return out;
}

class Planner {
 public:
  Planner(const TableSpec& spec, const EvalContext& ctx) : spec_(spec), ctx_(ctx) {}

  AccessPath Plan(const Expr* where) {
    std::vector<const Expr*> conj;
    Conjuncts(where, conj);
    for (const Expr* c : conj) Constrain(*c);
    AccessPath best;
    int best_score = -1;
    auto consider = [&](const std::string& name, const std::vector<std::string>& cols, bool primary) {
      AccessPath p;
      p.index = name;
      p.columns = Positions(spec_, cols);
      int score = 0;
      std::size_t k = 0;
      for (; k < p.columns.size(); ++k) {
        auto it = cons_.find(p.columns[k]);
        if (it == cons_.end() || !it->second.eq) break;
        p.eq.push_back(*it->second.eq);
        score += 2;
      }
      if (primary && k == p.columns.size() && k > 0) {
        p.use_points = true;
        p.points.push_back(p.eq);
        score = 1000;
      } else if (primary && k == 0 && p.columns.size() == 1) {
        auto it = cons_.find(p.columns[0]);
        if (it != cons_.end() && !it->second.in.empty()) {
          p.use_points = true;
          for (const SqlValue& v : it->second.in) p.points.push_back({v});
          score = 999;
        }
      }
      if (!p.use_points && k < p.columns.size()) {
        auto it = cons_.find(p.columns[k]);
        if (it != cons_.end() && (it->second.lower || it->second.upper)) {
          p.lower = it->second.lower;
          p.upper = it->second.upper;
          score += 1;
        }
      }
      if (score > best_score) {
        best = std::move(p);
        best_score = score;
      }
    };
    if (!spec_.primary_key.empty())
      consider("PRIMARY", spec_.primary_key, true);
    else {
      best.index = "PRIMARY";
      best_score = 0;
    }
    for (const IndexSpec& ix : spec_.indexes) consider(ix.name, ix.columns, false);
    if (best_score == 0) {  // nothing narrows it: scan the clustered index
      best = AccessPath{};
      if (!spec_.primary_key.empty()) best.columns = Positions(spec_, spec_.primary_key);
    }
    return best;
  }

 private:
  std::optional<std::size_t> ColumnOf(const Expr& e) const {
    if (e.kind != Expr::Kind::kColumn) return std::nullopt;
    return FindColumn(spec_, e.name);
  }

  std::optional<SqlValue> ConstantOf(const Expr& e, std::size_t column) const {
    if (!Constant(e)) return std::nullopt;
    auto v = Eval(e, ctx_);
    if (!v.ok() || !KeyCompatible(*v, spec_.columns[column])) return std::nullopt;
    return *v;
  }

  void Constrain(const Expr& e) {
    if (e.kind == Expr::Kind::kBinary) {
      std::string op = e.op;
      const Expr* col = e.args[0].get();
      const Expr* val = e.args[1].get();
      if (!ColumnOf(*col)) {
        std::swap(col, val);
        if (op == "<")
          op = ">";
        else if (op == "<=")
          op = ">=";
        else if (op == ">")
          op = "<";
        else if (op == ">=")
          op = "<=";
      }
      auto c = ColumnOf(*col);
      if (!c) return;
      auto v = ConstantOf(*val, *c);
      if (!v) return;
      ColumnConstraint& cc = cons_[*c];
      if (op == "=" || op == "<=>")
        cc.eq = *v;
      else if (op == "<")
        cc.upper = Bound{*v, false};
      else if (op == "<=")
        cc.upper = Bound{*v, true};
      else if (op == ">")
        cc.lower = Bound{*v, false};
      else if (op == ">=")
        cc.lower = Bound{*v, true};
    } else if (e.kind == Expr::Kind::kBetween && !e.negated) {
      auto c = ColumnOf(*e.args[0]);
      if (!c) return;
      auto lo = ConstantOf(*e.args[1], *c), hi = ConstantOf(*e.args[2], *c);
      if (lo) cons_[*c].lower = Bound{*lo, true};
      if (hi) cons_[*c].upper = Bound{*hi, true};
    } else if (e.kind == Expr::Kind::kIn && !e.negated) {
      auto c = ColumnOf(*e.args[0]);
      if (!c) return;
      std::vector<SqlValue> values;
      for (std::size_t k = 1; k < e.args.size(); ++k) {
        auto v = ConstantOf(*e.args[k], *c);
        if (!v) return;
        values.push_back(*v);
      }
      if (e.args.size() == 2)
        cons_[*c].eq = values[0];
      else
        cons_[*c].in = std::move(values);
    }
  }

  const TableSpec& spec_;
  const EvalContext& ctx_;
  std::map<std::size_t, ColumnConstraint> cons_;
};

std::vector<Value> KeyValues(const std::vector<SqlValue>& values, const std::vector<std::size_t>& columns,
                             const TableSpec& spec) {
  std::vector<Value> out;
  for (std::size_t k = 0; k < values.size(); ++k) out.push_back(ToColumn(values[k], spec.columns[columns[k]]));
  return out;
}

// Visits the rows the path reaches (a superset of those the WHERE keeps) while `fn` says go on.
Status Visit(Table& t, const AccessPath& p, Transaction* trx, RowLock lock, const std::function<bool(const Row&)>& fn) {
  const TableSpec& spec = t.spec();
  if (p.use_points) {
    for (const auto& point : p.points) {
      auto r = t.Get(KeyValues(point, p.columns, spec), trx, lock);
      if (!r.ok()) return r.status();
      if (*r && !fn(**r)) break;
    }
    return Status::Ok();
  }
  ScanOptions o;
  o.index = p.index;
  o.lock = lock;
  std::vector<SqlValue> from = p.eq;
  if (p.lower) from.push_back(p.lower->value);
  o.from = KeyValues(from, p.columns, spec);
  return t.Scan(
      o,
      [&](const Row& row) {
        for (std::size_t k = 0; k < p.eq.size(); ++k) {
          const std::size_t c = p.columns[k];
          if (Compare(FromColumn(row[c], spec.columns[c]), p.eq[k]) != 0) return false;  // past the prefix
        }
        if (p.upper) {
          const std::size_t c = p.columns[p.eq.size()];
          const auto cmp = Compare(FromColumn(row[c], spec.columns[c]), p.upper->value);
          if (cmp && (*cmp > 0 || (*cmp == 0 && !p.upper->inclusive))) return false;
        }
        return fn(row);
      },
      trx);
}

// A WHERE's verdict on the row in `ctx`.
SqlResult<bool> Matches(const Expr* where, const RowContext& ctx) {
  if (!where) return true;
  auto v = Eval(*where, ctx);
  if (!v.ok()) return v.error();
  return Truth(*v).value_or(false);
}

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
  __int128 int_sum = 0;
  long double sum = 0;
  bool exact = true, integral = true;
  int scale = 0;
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
      if (v->value.is_int())
        int_sum += v->value.as_int();
      else if (v->value.is_uint())
        int_sum += v->value.as_uint();
      else
        integral = false;
      if (v->value.is_double() || (v->value.is_string() && v->kind != LiteralKind::kDecimal)) exact = false;
      if (v->kind == LiteralKind::kDecimal) {
        const auto dot = v->value.as_string().find('.');
        if (dot != std::string::npos) scale = std::max(scale, static_cast<int>(v->value.as_string().size() - dot - 1));
      }
      sum += v->value.is_int()      ? static_cast<long double>(v->value.as_int())
             : v->value.is_uint()   ? static_cast<long double>(v->value.as_uint())
             : v->value.is_double() ? static_cast<long double>(v->value.as_double())
                                    : std::strtold(v->value.as_string().c_str(), nullptr);
    }
    return std::nullopt;
  }

  SqlValue Result() const {
    const std::string& f = call->name;
    if (f == "COUNT") return {Value::UInt(count)};
    if (f == "MIN" || f == "MAX") return best.value_or(SqlValue{});
    if (count == 0) return {};
    auto decimal = [](long double v, int s) {
      return SqlValue{Value::String(fmt::format("{:.{}f}", static_cast<double>(v), s)), LiteralKind::kDecimal};
    };
    if (f == "SUM") {
      if (integral && int_sum >= INT64_MIN && int_sum <= INT64_MAX)
        return {Value::Int(static_cast<std::int64_t>(int_sum))};
      if (!exact) return {Value::Double(static_cast<double>(sum))};
      return decimal(sum, scale);
    }
    if (!exact) return {Value::Double(static_cast<double>(sum / count))};  // AVG
    return decimal(sum / count, scale + 4);
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

// ---- INSERT / REPLACE ----------------------------------------------------------------------

StatementOutcome Session::DoInsert(const Insert& ins, Transaction* trx) {
  auto table = FindTable(ins.table);
  if (!table.ok()) return Error(table.error());
  auto builder = RowBuilder::For((*table)->spec(), ins.columns);
  if (!builder.ok()) return Error(builder.error());
  std::vector<Row> rows;
  rows.reserve(ins.rows.size());
  std::vector<std::optional<SqlValue>> values;
  for (std::size_t r = 0; r < ins.rows.size(); ++r) {
    values.clear();
    for (const ExprPtr& e : ins.rows[r]) {
      if (e->kind == Expr::Kind::kDefault) {
        values.emplace_back();
        continue;
      }
      auto v = Eval(*e, *context_);
      if (!v.ok()) return Error(v.error());
      values.emplace_back(std::move(*v));
    }
    auto row = builder->Build(values, r + 1);
    if (!row.ok()) return Error(row.error());
    rows.push_back(std::move(*row));
  }
  return ApplyInsert(ins, **table, rows, trx);
}

// An INSERT of literals only (a dump's) read straight from its text: no expression trees.
std::optional<StatementOutcome> Session::FastInsert(std::string_view text) {
  auto head = ReadInsertHead(text);
  if (!head) return std::nullopt;
  auto table = FindTable(head->statement.table);
  if (!table.ok()) return std::nullopt;  // the full path says what is wrong
  auto builder = RowBuilder::For((*table)->spec(), head->statement.columns);
  if (!builder.ok()) return std::nullopt;
  auto rows = ReadRows(text, head->values_at, *builder);
  if (!rows) return std::nullopt;
  if (!rows->ok()) return Error(rows->error());
  return InTransaction([&](Transaction* t) { return ApplyInsert(head->statement, **table, **rows, t); });
}

StatementOutcome Session::ApplyInsert(const Insert& ins, Table& t, const std::vector<Row>& rows, Transaction* trx) {
  const TableSpec& spec = t.spec();
  StatementOutcome o;
  std::uint64_t duplicates = 0;
  const InsertOptions options = insert_options();
  const bool has_auto_inc =
      std::any_of(spec.columns.begin(), spec.columns.end(), [](const engine::Column& c) { return c.auto_increment; });
  if (!ins.ignore && !ins.replace) {
    Status st = t.InsertBatch(rows, trx, options);
    if (!st.ok()) return Error(FromStatus(st));
    o.rows = rows.size();
  } else {
    for (const Row& row : rows) {
      Status st = t.Insert(row, trx, options);
      if (st.IsAlreadyExists() && ins.ignore) {
        ++duplicates;
        o.warnings.push_back(st.message());
        continue;
      }
      if (st.IsAlreadyExists() && ins.replace) {
        // REPLACE: delete every row the new one collides with (on the primary key or a
        // unique key), then insert it.
        if (spec.primary_key.empty()) return Error(NotSupported("REPLACE into a table without a primary key"));
        const auto pk = Positions(spec, spec.primary_key);
        std::vector<std::vector<Value>> victims;
        std::vector<Value> own_key;
        for (std::size_t c : pk) own_key.push_back(row[c]);
        auto existing = t.Get(own_key, trx, RowLock::kExclusive);
        if (!existing.ok()) return Error(FromStatus(existing.status()));
        if (*existing) victims.push_back(own_key);
        for (const IndexSpec& ix : spec.indexes) {
          if (!ix.unique) continue;
          const auto cols = Positions(spec, ix.columns);
          ScanOptions so;
          so.index = ix.name;
          so.lock = RowLock::kExclusive;
          for (std::size_t c : cols) so.from.push_back(row[c]);
          Status ss = t.Scan(
              so,
              [&](const Row& other) {
                for (std::size_t c : cols) {
                  if (Compare(FromColumn(other[c], spec.columns[c]), FromColumn(row[c], spec.columns[c])) != 0)
                    return false;
                }
                std::vector<Value> key;
                for (std::size_t c : pk) key.push_back(other[c]);
                if (std::find(victims.begin(), victims.end(), key) == victims.end()) victims.push_back(key);
                return false;
              },
              trx);
          if (!ss.ok()) return Error(FromStatus(ss));
        }
        for (const auto& key : victims) {
          Status ds = t.Delete(key, trx);
          if (!ds.ok()) return Error(FromStatus(ds));
        }
        o.rows += victims.size();
        st = t.Insert(row, trx, options);
      }
      if (!st.ok()) return Error(FromStatus(st));
      ++o.rows;
    }
  }
  if (has_auto_inc) last_insert_id_ = t.last_insert_id();
  if (rows.size() > 1 || ins.ignore) {
    o.info = fmt::format("Records: {}  Duplicates: {}  Warnings: {}", rows.size(), duplicates, o.warnings.size());
  }
  return o;
}

// ---- UPDATE / DELETE -----------------------------------------------------------------------

namespace {

// The rows an UPDATE or DELETE changes, locked, in ORDER BY order, at most LIMIT of them.
SqlResult<std::vector<Row>> ChangingRows(Table& t, const Session& session, const Expr* where,
                                         const std::vector<OrderItem>& order, std::optional<std::uint64_t> limit,
                                         Transaction* trx) {
  const TableSpec& spec = t.spec();
  if (spec.primary_key.empty()) return NotSupported("UPDATE and DELETE on a table without a primary key");
  RowContext ctx(session, spec);
  const AccessPath path = Planner(spec, session.context()).Plan(where);
  std::vector<Row> rows;
  std::optional<SqlError> error;
  Status st = Visit(t, path, trx, RowLock::kExclusive, [&](const Row& row) {
    ctx.set_row(&row);
    auto m = Matches(where, ctx);
    if (!m.ok()) {
      error = m.error();
      return false;
    }
    if (*m) rows.push_back(row);
    return !(order.empty() && limit && rows.size() >= *limit);
  });
  if (error) return *error;
  if (!st.ok()) return FromStatus(st);
  if (!order.empty()) {
    std::vector<std::pair<std::vector<SqlValue>, std::size_t>> keys;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      ctx.set_row(&rows[i]);
      std::vector<SqlValue> k;
      for (const OrderItem& o : order) {
        auto v = Eval(*o.expr, ctx);
        if (!v.ok()) return v.error();
        k.push_back(*v);
      }
      keys.emplace_back(std::move(k), i);
    }
    std::stable_sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) {
      for (std::size_t j = 0; j < order.size(); ++j) {
        const bool an = a.first[j].value.is_null(), bn = b.first[j].value.is_null();
        int c = an && bn ? 0 : an ? -1 : bn ? 1 : *Compare(a.first[j], b.first[j]);
        if (order[j].descending) c = -c;
        if (c) return c < 0;
      }
      return false;
    });
    std::vector<Row> sorted;
    for (const auto& k : keys) sorted.push_back(std::move(rows[k.second]));
    rows = std::move(sorted);
    if (limit && rows.size() > *limit) rows.resize(*limit);
  }
  return rows;
}

}  // namespace

StatementOutcome Session::DoUpdate(const Update& u, Transaction* trx) {
  auto table = FindTable(u.table);
  if (!table.ok()) return Error(table.error());
  Table& t = **table;
  const TableSpec& spec = t.spec();
  std::vector<std::size_t> targets;
  for (const Assignment& a : u.set) {
    auto i = FindColumn(spec, a.column);
    if (!i) return Error(UnknownColumn(a.column, "field list"));
    targets.push_back(*i);
  }
  auto rows = ChangingRows(t, *this, u.where.get(), u.order_by, u.limit, trx);
  if (!rows.ok()) return Error(rows.error());
  const auto pk = Positions(spec, spec.primary_key);
  StatementOutcome o;
  std::uint64_t changed = 0;
  RowContext ctx(*this, spec);
  for (const Row& old : *rows) {
    Row row = old;
    ctx.set_row(&row);  // later assignments see earlier ones, as in MySQL
    for (std::size_t k = 0; k < u.set.size(); ++k) {
      const engine::Column& c = spec.columns[targets[k]];
      if (u.set[k].value->kind == Expr::Kind::kDefault) {
        row[targets[k]] = c.default_value.value_or(Value::Null());
        continue;
      }
      auto v = Eval(*u.set[k].value, ctx);
      if (!v.ok()) return Error(v.error());
      row[targets[k]] = ToColumn(*v, c);
    }
    if (row == old) continue;
    bool key_changed = false;
    for (std::size_t c : pk) key_changed |= !(row[c] == old[c]);
    Status st;
    if (key_changed) {
      std::vector<Value> key;
      for (std::size_t c : pk) key.push_back(old[c]);
      st = t.Delete(key, trx);
      if (st.ok()) st = t.Insert(row, trx);
    } else {
      st = t.Update(row, trx);
    }
    if (!st.ok()) return Error(FromStatus(st));
    ++changed;
  }
  o.rows = changed;
  o.info = fmt::format("Rows matched: {}  Changed: {}  Warnings: 0", rows->size(), changed);
  return o;
}

StatementOutcome Session::DoDelete(const Delete& d, Transaction* trx) {
  auto table = FindTable(d.table);
  if (!table.ok()) return Error(table.error());
  Table& t = **table;
  auto rows = ChangingRows(t, *this, d.where.get(), d.order_by, d.limit, trx);
  if (!rows.ok()) return Error(rows.error());
  const auto pk = Positions(t.spec(), t.spec().primary_key);
  for (const Row& row : *rows) {
    std::vector<Value> key;
    for (std::size_t c : pk) key.push_back(row[c]);
    Status st = t.Delete(key, trx);
    if (!st.ok()) return Error(FromStatus(st));
  }
  StatementOutcome o;
  o.rows = rows->size();
  return o;
}

// ---- SELECT --------------------------------------------------------------------------------

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
      values.push_back(Format(v->value));
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

  Planner planner(*spec, *context_);
  AccessPath path = planner.Plan(s.where.get());
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
