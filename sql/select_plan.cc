#include "sql/select_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "sql/access_path.h"
#include "sql/decimal.h"
#include "sql/value_ops.h"

namespace strata::sql {

using namespace ops;

bool FilterStep::Push(const Row* row) {
  state_.ctx.set_row(row);
  auto m = Matches(where_, state_.ctx);
  if (!m.ok()) return state_.Fail(m.error());
  return !*m || next_->Push(row);
}

namespace {
// ORDER BY's order: an ENUM or SET column's by the numbers stored (as its index orders it),
// everything else as Compare has it.
std::optional<int> OrderOf(const SqlValue& a, const SqlValue& b) {
  if (a.stored_number && b.stored_number)
    return *a.stored_number < *b.stored_number ? -1 : *a.stored_number > *b.stored_number;
  return Compare(a, b);
}

bool ValuesLess(const std::vector<SqlValue>& a, const std::vector<SqlValue>& b) {
  return CompareValues(a, b, nullptr) < 0;
}
}  // namespace

int CompareValues(const std::vector<SqlValue>& a, const std::vector<SqlValue>& b, const std::vector<SortKey>* keys) {
  for (std::size_t j = 0; j < a.size() && j < b.size(); ++j) {
    const bool an = a[j].value.is_null(), bn = b[j].value.is_null();
    int c = an && bn ? 0 : an ? -1 : bn ? 1 : OrderOf(a[j], b[j]).value_or(0);
    if (keys && (*keys)[j].descending) c = -c;
    if (c) return c;
  }
  return 0;
}

// Running value of one aggregate call.
struct Accumulator {
  const Expr* call = nullptr;
  std::uint64_t count = 0;
  // DISTINCT: the values (COUNT: the lists of values) seen, each counted once.
  std::set<std::vector<SqlValue>, bool (*)(const std::vector<SqlValue>&, const std::vector<SqlValue>&)> seen{
      &ValuesLess};
  // SUM and AVG: exactly over integers and DECIMALs (MySQL's DECIMAL sum), as a double
  // once a double or a string comes.
  __int128 int_sum = 0;  // the integers' part (no row count makes it overflow)
  Decimal decimal_sum;   // the DECIMALs' part
  long double sum = 0;
  bool exact = true, integral = true;
  // The digits the summed DECIMALs print with when they have more than they show (a quotient
  // keeps nine per nine and shows its scale): the sum shows as many, the average four more.
  int decimals = -1;
  std::optional<SqlValue> best;  // MIN/MAX

  // GROUP_CONCAT: each row's text, its ORDER BY keys and which row of the statement it was.
  struct Piece {
    std::vector<SqlValue> keys;
    std::string text;
    std::uint64_t row = 0;
  };
  std::vector<Piece> pieces;
  bool binary = false;

  std::optional<SqlError> AddPiece(const RowContext& ctx, std::uint64_t row) {
    std::vector<SqlValue> values;
    Piece piece;
    piece.row = row;
    for (const ExprPtr& a : call->args) {
      auto v = Eval(*a, ctx);
      if (!v.ok()) return v.error();
      if (v->value.is_null()) return std::nullopt;  // a row with a NULL adds nothing
      binary = binary || v->kind == LiteralKind::kBinary;
      piece.text += TextOf(*v);
      values.push_back(std::move(*v));
    }
    if (call->distinct && !seen.insert(values).second) return std::nullopt;
    for (const auto& [key, descending] : call->order) {
      auto k = Eval(*key, ctx);
      if (!k.ok()) return k.error();
      piece.keys.push_back(std::move(*k));
    }
    pieces.push_back(std::move(piece));
    return std::nullopt;
  }

  // The pieces in ORDER BY's order with the separator between, cut to group_concat_max_len
  // bytes (a whole character) with the server's warning naming the row that did not fit.
  SqlValue Concatenated(const RowContext& ctx) const {
    if (pieces.empty()) return {};
    std::vector<SortKey> keys;
    for (const auto& [key, descending] : call->order) keys.push_back({key.get(), descending});
    std::vector<const Piece*> ordered;
    for (const Piece& p : pieces) ordered.push_back(&p);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [&](const Piece* a, const Piece* b) { return CompareValues(a->keys, b->keys, &keys) < 0; });
    auto limit = ctx.SystemVariable("group_concat_max_len");
    const std::uint64_t max = limit.ok() && !limit->value.is_null() ? static_cast<std::uint64_t>(ToDouble(limit->value))
                                                                    : std::uint64_t{1} << 20;
    const std::string separator = call->value.is_string() ? call->value.as_string() : ",";
    std::string out;
    for (std::size_t i = 0; i < ordered.size(); ++i) {
      out += (i ? separator : "") + ordered[i]->text;
      if (out.size() <= max) continue;
      std::size_t cut = max;
      while (!binary && cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
      out.resize(cut);
      ctx.Warn({SqlWarning::Level::kWarning, 1260, fmt::format("Row {} was cut by GROUP_CONCAT()", ordered[i]->row)});
      break;
    }
    return Str(std::move(out), binary ? LiteralKind::kBinary : LiteralKind::kPlain);
  }

  std::optional<SqlError> Add(const RowContext& ctx, std::uint64_t row) {
    if (call->name == "GROUP_CONCAT") return AddPiece(ctx, row);
    if (call->star) {
      ++count;
      return std::nullopt;
    }
    auto v = Eval(*call->args.at(0), ctx);
    if (!v.ok()) return v.error();
    if (v->value.is_null()) return std::nullopt;
    if (call->distinct) {
      std::vector<SqlValue> values{*v};
      for (std::size_t i = 1; i < call->args.size(); ++i) {  // COUNT(DISTINCT a, b): rows with no NULL
        auto more = Eval(*call->args[i], ctx);
        if (!more.ok()) return more.error();
        if (more->value.is_null()) return std::nullopt;
        values.push_back(std::move(*more));
      }
      if (!seen.insert(std::move(values)).second) return std::nullopt;
    }
    ++count;
    if (call->name == "MIN" || call->name == "MAX") {
      const auto c = best ? Compare(*v, *best) : std::optional<int>(0);
      if (!best || (call->name == "MIN" ? *c < 0 : *c > 0)) best = *v;
    } else if (call->name == "SUM" || call->name == "AVG") {
      if (v->has_number()) *v = NumberOf(*v);  // an ENUM's or TIME's number, as the server sums it
      const Value& x = v->value;
      integral = integral && (x.is_int() || x.is_uint());
      const bool decimal = v->kind == LiteralKind::kDecimal && x.is_string();
      if (decimal && v->decimals >= 0) decimals = std::max(decimals, v->decimals);
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

  SqlValue Result(const RowContext& ctx) const {
    const std::string& f = call->name;
    if (f == "GROUP_CONCAT") return Concatenated(ctx);
    if (f == "COUNT") return {Value::UInt(count)};
    if (f == "MIN" || f == "MAX") {
      if (best && best->is_bit()) return NumberOf(*best);  // a BIT's as the number, as the server gives it
      return best.value_or(SqlValue{});
    }
    if (count == 0) return {};
    auto decimal = [&](const Decimal& d, int shown) {
      SqlValue v{Value::String(d.ToString()), LiteralKind::kDecimal};
      v.decimals = shown;
      return v;
    };
    if (f == "SUM") {
      if (!exact) return {Value::Double(static_cast<double>(sum))};
      if (integral && int_sum >= INT64_MIN && int_sum <= INT64_MAX)
        return {Value::Int(static_cast<std::int64_t>(int_sum))};
      return decimal(ExactSum(), decimals);
    }
    if (!exact) return {Value::Double(static_cast<double>(sum / count))};  // AVG
    const Decimal total = ExactSum();
    return decimal(*total.Divide(Decimal::OfUnsigned(count), std::min(total.scale() + 4, Decimal::kMaxScale)),
                   decimals < 0 ? -1 : std::min(decimals + 4, 30));
  }
};

namespace {

void CollectAggregates(const Expr& e, std::vector<const Expr*>& out) {
  if (IsAggregate(e)) {
    if (std::find(out.begin(), out.end(), &e) == out.end()) out.push_back(&e);
    return;
  }
  for (const auto& a : e.args) CollectAggregates(*a, out);
}

std::optional<SqlError> AddRow(std::vector<Accumulator>& accumulators, const RowContext& ctx, std::uint64_t row) {
  for (Accumulator& a : accumulators) {
    if (auto e = a.Add(ctx, row)) return e;
  }
  return std::nullopt;
}

void PutResults(const std::vector<Accumulator>& accumulators, RowContext& ctx) {
  ctx.aggregates.clear();
  for (const Accumulator& a : accumulators) ctx.aggregates.emplace_back(a.call, a.Result(ctx));
}

}  // namespace

std::vector<Accumulator> AccumulatorsFor(const std::vector<const Expr*>& exprs) {
  std::vector<const Expr*> calls;
  for (const Expr* e : exprs) CollectAggregates(*e, calls);
  std::vector<Accumulator> out(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) out[i].call = calls[i];
  return out;
}

AggregateStep::AggregateStep(PlanState& state, const std::vector<const Expr*>& exprs, RowStep* next)
    : RowStep(state, next), accumulators_(AccumulatorsFor(exprs)) {}

AggregateStep::~AggregateStep() = default;

bool AggregateStep::Push(const Row* row) {
  state_.ctx.set_row(row);
  if (auto e = AddRow(accumulators_, state_.ctx, ++rows_)) return state_.Fail(*e);
  return true;
}

bool AggregateStep::Finish() {
  PutResults(accumulators_, state_.ctx);
  next_->Push(nullptr);
  return RowStep::Finish();
}

struct GroupStep::Group {
  Row first;
  std::vector<Accumulator> accumulators;
};

GroupStep::GroupStep(PlanState& state, std::vector<SortKey> keys, const std::vector<const Expr*>& exprs,
                     bool in_key_order, RowStep* next)
    : RowStep(state, next),
      keys_(std::move(keys)),
      exprs_(exprs),
      in_key_order_(in_key_order),
      index_([this](const auto& a, const auto& b) { return CompareValues(a, b, &keys_) < 0; }) {}

GroupStep::~GroupStep() = default;

void GroupStep::Rollup(const TableSpec& spec) {
  rollup_ = &spec;
  for (std::size_t level = 0; level < keys_.size(); ++level)
    totals_.emplace_back([this](const auto& a, const auto& b) { return CompareValues(a, b, &keys_) < 0; });
}

bool GroupStep::Push(const Row* row) {
  state_.ctx.set_row(row);
  std::vector<SqlValue> key;
  {
    const RowContext::InClause in_group(state_.ctx, "group statement");
    for (const SortKey& k : keys_) {
      auto v = Eval(*k.expr, state_.ctx);
      if (!v.ok()) return state_.Fail(v.error());
      key.push_back(std::move(*v));
    }
  }
  for (std::size_t level = 0; level < totals_.size(); ++level) {
    auto run = totals_[level].try_emplace(std::vector<SqlValue>(key.begin(), key.begin() + level));
    if (run.second) run.first->second = AccumulatorsFor(exprs_);
    if (auto e = AddRow(run.first->second, state_.ctx, rows_ + 1)) return state_.Fail(*e);
  }
  auto [it, fresh] = index_.emplace(std::move(key), groups_.size());
  if (fresh) groups_.push_back({*row, AccumulatorsFor(exprs_)});
  if (auto e = AddRow(groups_[it->second].accumulators, state_.ctx, ++rows_)) return state_.Fail(*e);
  return true;
}

bool GroupStep::Finish() {
  auto emit = [&](std::size_t i) {
    PutResults(groups_[i].accumulators, state_.ctx);
    return next_->Push(&groups_[i].first) && !state_.error;
  };
  if (rollup_) {
    std::vector<std::pair<const std::vector<SqlValue>*, std::size_t>> ordered;
    for (const auto& [key, i] : index_) ordered.emplace_back(&key, i);
    for (std::size_t p = 0; p < ordered.size(); ++p) {
      if (!emit(ordered[p].second)) return RowStep::Finish();
      for (std::size_t level = keys_.size(); level-- > 0;) {
        const std::vector<SqlValue>& key = *ordered[p].first;
        const std::vector<SqlValue> prefix(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(level));
        if (p + 1 < ordered.size() &&
            CompareValues(prefix,
                          std::vector<SqlValue>(ordered[p + 1].first->begin(),
                                                ordered[p + 1].first->begin() + static_cast<std::ptrdiff_t>(level)),
                          &keys_) == 0)
          break;  // the run goes on
        Row total = groups_[ordered[p].second].first;
        state_.ctx.rolled_up.clear();
        for (std::size_t k = level; k < keys_.size(); ++k) {
          const Expr& e = *keys_[k].expr;
          state_.ctx.rolled_up.push_back(&e);
          if (e.kind == Expr::Kind::kColumn) {
            if (auto c = FindColumn(*rollup_, e.name)) total[*c] = Value::Null();
          }
        }
        PutResults(totals_[level].at(prefix), state_.ctx);
        const bool more = next_->Push(&total) && !state_.error;
        state_.ctx.rolled_up.clear();
        if (!more) return RowStep::Finish();
      }
    }
  } else if (in_key_order_) {
    for (const auto& [key, i] : index_) {
      if (!emit(i)) break;
    }
  } else {
    for (std::size_t i = 0; i < groups_.size() && emit(i); ++i) {
    }
  }
  return RowStep::Finish();
}

DistinctStep::DistinctStep(PlanState& state, const std::vector<SelectOutput>& outputs, const TableSpec* spec,
                           RowStep* next)
    : RowStep(state, next), outputs_(outputs), spec_(spec), seen_(&ValuesLess) {}

// The output columns' values of `row` (null: an error, in the state).
std::optional<std::vector<SqlValue>> OutputValues(PlanState& state, const std::vector<SelectOutput>& outputs,
                                                  const TableSpec* spec, const Row* row) {
  state.ctx.set_row(row);
  std::vector<SqlValue> values;
  values.reserve(outputs.size());
  for (const SelectOutput& out : outputs) {
    if (out.column && row) {
      values.push_back(FromColumn((*row)[*out.column], spec->columns[*out.column]));
      continue;
    }
    auto v = Eval(*out.expr, state.ctx);
    if (!v.ok()) {
      state.Fail(v.error());
      return std::nullopt;
    }
    values.push_back(std::move(*v));
  }
  return values;
}

bool DistinctStep::Push(const Row* row) {
  auto values = OutputValues(state_, outputs_, spec_, row);
  if (!values) return false;
  return !seen_.insert(std::move(*values)).second || next_->Push(row);
}

bool SortStep::Push(const Row* row) {
  rows_.push_back(row ? *row : Row{});
  if (!state_.ctx.aggregates.empty()) aggregates_.push_back(state_.ctx.aggregates);
  return true;
}

bool SortStep::Finish() {
  std::vector<std::pair<std::vector<SqlValue>, std::size_t>> keyed;
  keyed.reserve(rows_.size());
  const RowContext::InClause in_order(state_.ctx, "order clause");
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    state_.ctx.set_row(&rows_[i]);
    if (i < aggregates_.size()) state_.ctx.aggregates = aggregates_[i];
    std::vector<SqlValue> k;
    for (const Key& key : keys_) {
      auto v = Eval(*key.expr, state_.ctx);
      if (!v.ok()) return state_.Fail(v.error());
      k.push_back(std::move(*v));
    }
    keyed.emplace_back(std::move(k), i);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [&](const auto& a, const auto& b) { return CompareValues(a.first, b.first, &keys_) < 0; });
  for (const auto& [key, i] : keyed) {
    if (i < aggregates_.size()) state_.ctx.aggregates = aggregates_[i];
    if (!next_->Push(&rows_[i])) break;
  }
  return RowStep::Finish();
}

bool LimitStep::Push(const Row* row) {
  if (limit_ && passed_ >= *limit_) return false;
  if (skipped_ < offset_) {
    ++skipped_;
    return true;
  }
  ++passed_;
  return next_->Push(row) && !(limit_ && passed_ >= *limit_);
}

bool ProjectStep::Push(const Row* row) {
  state_.ctx.set_row(row);
  if (sink_.wants_values()) {
    auto values = OutputValues(state_, outputs_, spec_, row);
    if (!values) return false;
    sink_.Values(std::move(*values));
    ++rows_;
    return true;
  }
  std::vector<std::optional<std::string>> values;
  values.reserve(outputs_.size());
  for (const SelectOutput& out : outputs_) {
    if (out.column && row) {
      values.push_back(Format((*row)[*out.column], &spec_->columns[*out.column]));
      continue;
    }
    auto v = Eval(*out.expr, state_.ctx);
    if (!v.ok()) return state_.Fail(v.error());
    values.push_back(FormatResult(*v));
  }
  sink_.Row(values);
  ++rows_;
  return true;
}

}  // namespace strata::sql
