#include "sql/access_path.h"

#include <algorithm>
#include <map>

namespace strata::sql {

namespace {

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

struct ColumnConstraint {
  std::optional<SqlValue> eq;
  std::vector<SqlValue> in;
  std::optional<Bound> lower, upper;
};

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

}  // namespace

AccessPath PlanAccess(const TableSpec& spec, const EvalContext& ctx, const Expr* where) {
  return Planner(spec, ctx).Plan(where);
}

std::vector<std::size_t> Positions(const TableSpec& spec, const std::vector<std::string>& names) {
  std::vector<std::size_t> out;
  for (const auto& n : names) out.push_back(*FindColumn(spec, n));
  return out;
}

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

SqlResult<bool> Matches(const Expr* where, const RowContext& ctx) {
  if (!where) return true;
  const RowContext::InClause in_where(ctx, "where clause");
  auto v = Eval(*where, ctx);
  if (!v.ok()) return v.error();
  return Truth(*v).value_or(false);
}

}  // namespace strata::sql
