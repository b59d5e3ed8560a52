#include "sql/eval.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <random>

#include "engine/elements.h"
#include "engine/time_value.h"
#include "engine/uuid_inet.h"
#include "sql/decimal.h"
#include "sql/functions.h"
#include "sql/stack_guard.h"
#include "sql/value_ops.h"

namespace strata::sql {

using namespace ops;

namespace {

// How much of text arithmetic reads as a number: all of it ("12", " 1.5e3"), all but trailing
// spaces (" 3 ": the server notes it), or less ("12abc", "abc", "": it warns).
enum class NumberText { kWhole, kTrailingSpaces, kTruncated };
NumberText ReadAsNumber(const std::string& text) {
  const char* s = text.c_str();
  char* end = nullptr;
  std::strtod(s, &end);
  if (end == s) return NumberText::kTruncated;
  const char* number_end = end;
  while (*end == ' ') ++end;
  if (static_cast<std::size_t>(end - s) != text.size()) return NumberText::kTruncated;
  return end == number_end ? NumberText::kWhole : NumberText::kTrailingSpaces;
}

// The rule two texts compare by: bytes when either is a binary string, else a column's
// collation over a literal's, else the session's utf8mb4_general_ci.
engine::TextRule RuleFor(const SqlValue& a, const SqlValue& b) {
  const LiteralKind order = TextOrder(a.kind, b.kind);
  if (order == LiteralKind::kBinary) return engine::TextRule::kBytes;
  if (order == LiteralKind::kBinCollated) return engine::TextRule::kBin;
  if (a.collation) return *a.collation;
  if (b.collation) return *b.collation;
  return engine::TextRule::kGeneralCi;
}

// LIKE, character by character ('_' is one character, not one byte), each compared by the
// collation's rule (a binary string's by byte).
bool LikeMatch(std::string_view text, std::string_view pattern, engine::TextRule rule) {
  const bool bytes = rule == engine::TextRule::kBytes;
  const auto characters = [bytes](std::string_view t) {
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < t.size();) {
      std::size_t n = 1;
      const auto c = static_cast<unsigned char>(t[i]);
      if (!bytes) n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      n = std::min(n, t.size() - i);
      out.push_back(t.substr(i, n));
      i += n;
    }
    return out;
  };
  const auto s = characters(text), p = characters(pattern);
  const auto eq = [rule](std::string_view a, std::string_view b) {
    return a == b ||
           (rule != engine::TextRule::kBytes && rule != engine::TextRule::kBin && engine::CompareUtf8(rule, a, b) == 0);
  };
  const auto is = [&](std::size_t k, char c) { return k < p.size() && p[k].size() == 1 && p[k][0] == c; };
  std::size_t si = 0, pi = 0, star_p = SIZE_MAX, star_s = 0;
  while (si < s.size()) {
    if (is(pi, '%')) {
      star_p = ++pi;
      star_s = si;
    } else if (is(pi, '\\') && pi + 1 < p.size() && eq(s[si], p[pi + 1])) {
      pi += 2;
      ++si;
    } else if (pi < p.size() && !is(pi, '\\') && (is(pi, '_') || eq(s[si], p[pi]))) {
      ++pi;
      ++si;
    } else if (star_p != SIZE_MAX) {
      pi = star_p;
      si = ++star_s;
    } else {
      return false;
    }
  }
  while (is(pi, '%')) ++pi;
  return pi == p.size();
}

SqlResult<SqlValue> Arithmetic(const std::string& op, const SqlValue& a, const SqlValue& b);

// The digits after the point a number shows: a quotient's, or as many as its text has.
int ShownScale(const SqlValue& v) {
  if (v.decimals >= 0) return v.decimals;
  if (v.kind != LiteralKind::kDecimal || !v.value.is_string()) return 0;
  const auto d = Decimal::Parse(v.value.as_string());
  return d ? d->scale() : 0;
}

// Integers and DECIMALs computed exactly, with MySQL's result scales (+ -: the larger, *: the
// sum, /: the dividend's plus div_precision_increment 4); a quotient is computed to the next
// multiple of nine digits and shows only its scale, as the server's 9-digit words do, so
// 1/7*7 is 1.0000, not 1.0003. A result past the 81 digits the server computes with is an error.
SqlResult<SqlValue> ExactArithmetic(const std::string& op, const SqlValue& a, const SqlValue& b) {
  const Decimal x = ExactOf(a), y = ExactOf(b);
  const std::string what = fmt::format("{} {} {}", a.value.ToString(), op, b.value.ToString());
  const int sa = ShownScale(a), sb = ShownScale(b);
  Decimal r;
  int shown = std::max(sa, sb);
  if (op == "+") {
    r = x + y;
  } else if (op == "-") {
    r = x - y;
  } else if (op == "*") {
    r = x * y;
    shown = std::min(sa + sb, Decimal::kMaxScale);
  } else if (op == "/") {
    shown = std::min(sa + 4, Decimal::kMaxScale);
    const int digits = (x.scale() + 4 + 8) / 9 * 9;
    auto q = x.Divide(y, digits + 1);
    if (!q) return Null();
    r = q->Truncated(digits);
  } else if (op == "DIV") {
    auto m = x.Remainder(y);
    if (!m) return Null();
    const Decimal whole = *(x - *m).Divide(y, 0);  // exact: the remainder is off
    if (auto i = whole.ToInt64()) return Int(*i);
    return OutOfRange(what);
  } else {
    auto m = x.Remainder(y);
    if (!m) return Null();
    r = *m;
  }
  if (r.integer_digits() > Decimal::kMaxResultDigits) return OutOfRange(what, "DECIMAL");
  if (r.integer_digits() + r.scale() > Decimal::kMaxResultDigits)
    r = r.Rounded(Decimal::kMaxResultDigits - r.integer_digits());
  SqlValue out = OfDecimal(r);
  if (r.scale() != shown) out.decimals = shown;
  return out;
}

// -x exactly: -(-9223372036854775808) is 9223372036854775808, as MySQL has it.
SqlResult<SqlValue> Negate(const SqlValue& v) {
  if (!Integral(v)) return Arithmetic("-", Int(0), v);
  const __int128 r = -(v.value.is_int() ? __int128(v.value.as_int()) : __int128(v.value.as_uint()));
  if (r >= INT64_MIN && r <= INT64_MAX) return Int(static_cast<std::int64_t>(r));
  if (r > 0 && r <= static_cast<__int128>(UINT64_MAX)) return SqlValue{Value::UInt(static_cast<std::uint64_t>(r))};
  return OutOfRange("-(" + v.value.ToString() + ")");
}

SqlResult<SqlValue> Arithmetic(const std::string& op, const SqlValue& a, const SqlValue& b) {
  if (a.value.is_null() || b.value.is_null()) return Null();
  const bool doubles = a.value.is_double() || b.value.is_double() ||
                       (a.value.is_string() && a.kind != LiteralKind::kDecimal) ||
                       (b.value.is_string() && b.kind != LiteralKind::kDecimal);
  if (Integral(a) && Integral(b) && op != "/") {
    const __int128 x = a.value.is_int() ? __int128(a.value.as_int()) : __int128(a.value.as_uint());
    const __int128 y = b.value.is_int() ? __int128(b.value.as_int()) : __int128(b.value.as_uint());
    __int128 r = 0;
    // MySQL's rule: the result is a BIGINT UNSIGNED when an operand is one, else a BIGINT,
    // and a result its type cannot hold is an error, never a wrapped or rounded number.
    const bool is_unsigned = a.value.is_uint() || b.value.is_uint();
    const std::string what = fmt::format("{} {} {}", a.value.ToString(), op, b.value.ToString());
    const char* type = is_unsigned ? "BIGINT UNSIGNED" : "BIGINT";
    if (op == "+")
      r = x + y;
    else if (op == "-")
      r = x - y;
    else if (op == "*") {
      if (__builtin_mul_overflow(x, y, &r)) return OutOfRange(what, type);
    } else {  // DIV and %
      if (y == 0) return Null();
      r = op == "DIV" ? x / y : x % y;
      if (!is_unsigned && r >= INT64_MIN && r <= INT64_MAX) return Int(static_cast<std::int64_t>(r));
    }
    if (is_unsigned && r >= 0 && r <= static_cast<__int128>(UINT64_MAX))
      return SqlValue{Value::UInt(static_cast<std::uint64_t>(r))};
    if (!is_unsigned && r >= INT64_MIN && r <= INT64_MAX) return Int(static_cast<std::int64_t>(r));
    return OutOfRange(what, type);
  }
  if (!doubles) return ExactArithmetic(op, a, b);
  const long double x = ToDouble(a.value), y = ToDouble(b.value);
  if ((op == "/" || op == "DIV" || op == "%") && y == 0) return Null();
  long double r = 0;
  if (op == "+")
    r = x + y;
  else if (op == "-")
    r = x - y;
  else if (op == "*")
    r = x * y;
  else if (op == "/")
    r = x / y;
  else if (op == "DIV") {
    const long double q = std::trunc(x / y);
    if (!(q >= -kTwoTo63 && q < kTwoTo63)) {
      return OutOfRange(fmt::format("{} DIV {}", a.value.ToString(), b.value.ToString()));
    }
    return Int(static_cast<std::int64_t>(q));
  } else
    r = std::fmod(x, y);
  if (!std::isfinite(static_cast<double>(r)))
    return OutOfRange(fmt::format("{} {} {}", a.value.ToString(), op, b.value.ToString()), "DOUBLE");
  return SqlValue{Value::Double(static_cast<double>(r))};
}

SqlResult<SqlValue> CallFunction(const Expr& e, const EvalContext& ctx) {
  const std::string& f = e.name;
  if (IsAggregate(e)) {
    if (const SqlValue* v = ctx.Aggregate(e)) return *v;
    return SqlError{1111, "HY000", "Invalid use of group function"};
  }
  if (auto v = ctx.SessionFunction(f)) {
    if (!e.args.empty()) return WrongArguments(f);
    return *v;
  }
  std::vector<SqlValue> args;
  for (const auto& a : e.args) {
    auto v = Eval(*a, ctx);
    if (!v.ok()) return v;
    args.push_back(std::move(*v));
  }
  if (!FindFunction(f)) {
    if (auto stored = ctx.StoredFunction(e.written.empty() ? f : e.written, args)) return std::move(*stored);
  }
  return ApplyFunction(f, args);
}

// Whether `e` has the same value on every row: no column in it.
bool ConstantExpr(const Expr& e) {
  if (e.kind == Expr::Kind::kColumn) return false;
  return std::all_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return ConstantExpr(*a); });
}

// `constant` as the year a YEAR column compared with it reads it as (YearConstant), as the
// server converts such a constant: `year_col = 24` finds 2024, `year_col < 2024.4` is
// `year_col < 2024`.
void AsYearOf(const SqlValue& column, const Expr& constant_expr, SqlValue& constant) {
  if (!column.year || !ConstantExpr(constant_expr)) return;
  if (auto year = YearConstant(constant)) constant = SqlValue{Value::Int(*year)};
}

// A 0x... literal as the number its bytes spell (more than 8 bytes: past BIGINT UNSIGNED, as a
// double), for arithmetic and for a comparison with a number.
SqlValue HexAsNumber(const SqlValue& v) {
  const std::string& b = v.value.as_string();
  if (b.size() > 8) {
    double d = 0;
    for (unsigned char c : b) d = d * 256 + c;
    return SqlValue{Value::Double(d)};
  }
  std::uint64_t n = 0;
  for (unsigned char c : b) n = n << 8 | c;
  return SqlValue{Value::UInt(n)};
}

bool IsNumber(const SqlValue& v) {
  return v.value.is_int() || v.value.is_uint() || v.value.is_double() || v.kind == LiteralKind::kDecimal;
}

// A TIME beside text: both read as durations ('26:03:04' > '100:00' is false), or nullopt when
// one is not a time (then they compare as text).
std::optional<int> CompareTimes(const SqlValue& a, const SqlValue& b) {
  const bool text =
      a.value.is_string() && b.value.is_string() && a.kind != LiteralKind::kBinary && b.kind != LiteralKind::kBinary;
  if (!text) return std::nullopt;
  const auto x = engine::ParseTime(a.value.as_string()), y = engine::ParseTime(b.value.as_string());
  if (!x || !y) return std::nullopt;
  const std::int64_t p = engine::TimeMicros(*x), q = engine::TimeMicros(*y);
  return p < q ? -1 : p > q;
}

// The bytes a UUID, INET4 or INET6 column stores for `v`: its text, or a binary string of the
// type's length (in text order, 0x...).
std::optional<std::string> TypedBytesOf(engine::ColumnType type, const SqlValue& v) {
  if (!v.value.is_string()) return std::nullopt;
  if (v.kind == LiteralKind::kBinary) {
    const auto text = engine::TypedTextOfBinary(type, v.value.as_string());
    return text ? engine::TypedBytes(type, *text) : std::nullopt;
  }
  return engine::TypedBytes(type, v.value.as_string());
}

// Two values as the bytes a UUID, INET4 or INET6 column stores for them; NULL (no match, as
// the server has it) when one is not such a value.
std::optional<int> CompareTyped(engine::ColumnType type, const SqlValue& a, const SqlValue& b) {
  const auto x = TypedBytesOf(type, a), y = TypedBytesOf(type, b);
  if (!x || !y) return std::nullopt;
  const int c = x->compare(*y);
  return c < 0 ? -1 : c > 0;
}

bool IsComparison(const std::string& op) {
  return op == "=" || op == "<=>" || op == "<>" || op == "<" || op == "<=" || op == ">" || op == ">=";
}

// AND, OR and XOR with SQL's three-valued logic, the comparisons, and arithmetic.
SqlResult<SqlValue> EvalBinary(const Expr& e, const EvalContext& ctx) {
  auto a = Eval(*e.args[0], ctx);
  if (!a.ok()) return a;
  if (e.op == "AND" || e.op == "OR") {
    const auto x = Truth(*a);
    if (e.op == "AND" && x == false) return Int(0);
    if (e.op == "OR" && x == true) return Int(1);
    auto b = Eval(*e.args[1], ctx);
    if (!b.ok()) return b;
    const auto y = Truth(*b);
    if (e.op == "AND") {
      if (y == false) return Int(0);
      if (!x || !y) return Null();
      return Int(1);
    }
    if (y == true) return Int(1);
    if (!x || !y) return Null();
    return Int(0);
  }
  auto b = Eval(*e.args[1], ctx);
  if (!b.ok()) return b;
  // Rare operands first by their flags, so a plain comparison compares no operator names here.
  if ((a->year || b->year) && IsComparison(e.op)) {
    AsYearOf(*a, *e.args[1], *b);
    AsYearOf(*b, *e.args[0], *a);
  }
  if (a->hex_number || b->hex_number) {
    const bool arithmetic = !IsComparison(e.op) && e.op != "XOR";
    if (a->hex_number && (arithmetic || IsNumber(*b))) *a = HexAsNumber(*a);
    if (b->hex_number && (arithmetic || IsNumber(*a))) *b = HexAsNumber(*b);
  }
  if ((a->has_number() || b->has_number()) && !IsComparison(e.op)) {  // e + 0: its number
    *a = NumberOf(*a);
    *b = NumberOf(*b);
  }
  if (e.op == "XOR") {
    const auto x = Truth(*a), y = Truth(*b);
    if (!x || !y) return Null();
    return Int(*x != *y);
  }
  if (e.op == "<=>") {
    if (a->value.is_null() || b->value.is_null()) return Int(a->value.is_null() && b->value.is_null());
    return Int(*Compare(*a, *b) == 0);
  }
  const auto c = Compare(*a, *b);
  if (e.op == "=") return c ? Int(*c == 0) : Null();
  if (e.op == "<>") return c ? Int(*c != 0) : Null();
  if (e.op == "<") return c ? Int(*c < 0) : Null();
  if (e.op == "<=") return c ? Int(*c <= 0) : Null();
  if (e.op == ">") return c ? Int(*c > 0) : Null();
  if (e.op == ">=") return c ? Int(*c >= 0) : Null();
  // Text that is not wholly a number counts as its leading number, with the server's warning.
  for (const SqlValue* v : {&*a, &*b}) {
    if (!v->value.is_string() || v->kind == LiteralKind::kDecimal || v->kind == LiteralKind::kBinary) continue;
    const NumberText read = ReadAsNumber(v->value.as_string());
    if (read == NumberText::kWhole) continue;
    ctx.Warn({read == NumberText::kTruncated ? SqlWarning::Level::kWarning : SqlWarning::Level::kNote, 1292,
              fmt::format("Truncated incorrect DOUBLE value: '{}'", v->value.as_string())});
  }
  if ((e.op == "/" || e.op == "DIV" || e.op == "%") && !a->value.is_null() && !b->value.is_null() &&
      (Exact(*b) ? ExactOf(*b).is_zero() : ToDouble(b->value) == 0))
    return ctx.DivisionByZero();
  return Arithmetic(e.op, *a, *b);
}

// x [NOT] IN (a, b, ...): NULL when no item equals x and one is NULL, as SQL's logic has it.
SqlResult<SqlValue> EvalIn(const Expr& e, const EvalContext& ctx) {
  auto x = Eval(*e.args[0], ctx);
  if (!x.ok() || x->value.is_null()) return x;
  bool saw_null = false;
  for (std::size_t k = 1; k < e.args.size(); ++k) {
    auto y = Eval(*e.args[k], ctx);
    if (!y.ok()) return y;
    AsYearOf(*x, *e.args[k], *y);
    const auto c = Compare(*x, *y);
    if (!c)
      saw_null = true;
    else if (*c == 0)
      return Int(e.negated ? 0 : 1);
  }
  if (saw_null) return Null();
  return Int(e.negated ? 1 : 0);
}

// x [NOT] BETWEEN lo AND hi.
SqlResult<SqlValue> EvalBetween(const Expr& e, const EvalContext& ctx) {
  auto x = Eval(*e.args[0], ctx);
  if (!x.ok()) return x;
  auto lo = Eval(*e.args[1], ctx);
  if (!lo.ok()) return lo;
  auto hi = Eval(*e.args[2], ctx);
  if (!hi.ok()) return hi;
  AsYearOf(*x, *e.args[1], *lo);
  AsYearOf(*x, *e.args[2], *hi);
  const auto a = Compare(*x, *lo), b = Compare(*x, *hi);
  if (!a || !b) return Null();
  const bool in = *a >= 0 && *b <= 0;
  return Int(in != e.negated);
}

}  // namespace

SqlResult<SqlValue> EvalContext::Column(const Expr& column) const {
  return SqlError{1054, "42S22", fmt::format("Unknown column '{}' in 'field list'", column.name)};
}
SqlResult<SqlValue> EvalContext::UserVariable(const std::string&) const { return Null(); }
SqlResult<SqlValue> EvalContext::SystemVariable(const std::string& name) const {
  return SqlError{1193, "HY000", fmt::format("Unknown system variable '{}'", name)};
}
std::optional<SqlValue> EvalContext::SessionFunction(const std::string&) const { return std::nullopt; }
const SqlValue* EvalContext::Aggregate(const Expr&) const { return nullptr; }
SqlResult<SqlValue> EvalContext::DivisionByZero() const { return Null(); }
void EvalContext::Warn(const SqlWarning&) const {}
SqlResult<SqlValue> EvalContext::LocalVariable(const Expr& variable) const {
  return SqlError{1327, "42000", fmt::format("Undeclared variable: {}", variable.name)};
}
SqlResult<SqlValue> EvalContext::TriggerField(const Expr& field) const {
  return SqlError{1054, "42S22", fmt::format("Unknown column '{}' in '{}'", field.name, field.table)};
}
std::optional<SqlResult<SqlValue>> EvalContext::StoredFunction(const std::string&, std::vector<SqlValue>&) const {
  return std::nullopt;
}

bool IsAggregate(const Expr& e) {
  return e.kind == Expr::Kind::kFunction && (e.name == "COUNT" || e.name == "SUM" || e.name == "MIN" ||
                                             e.name == "MAX" || e.name == "AVG" || e.name == "GROUP_CONCAT");
}

bool HasAggregate(const Expr& e) {
  if (IsAggregate(e)) return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return HasAggregate(*a); });
}

std::optional<int> Compare(const SqlValue& a, const SqlValue& b) {
  if (a.value.is_null() || b.value.is_null()) return std::nullopt;
  if (a.is_bit() || b.is_bit()) return Compare(NumberOf(a), NumberOf(b));  // BIT: always as numbers
  // An ENUM, SET or TIME beside a number compares by its number (e = 2), beside text by its text.
  if (a.has_number() && IsNumber(b)) return Compare(NumberOf(a), b);
  if (b.has_number() && IsNumber(a)) return Compare(a, NumberOf(b));
  if (a.time || b.time) {  // beside text: both as durations, when the text is one
    if (auto c = CompareTimes(a, b)) return c;
  }
  if (a.compares_as || b.compares_as)  // UUID, INET: by the bytes stored
    return CompareTyped(a.compares_as ? *a.compares_as : *b.compares_as, a, b);
  const bool text_a = a.value.is_string() && a.kind != LiteralKind::kDecimal;
  const bool text_b = b.value.is_string() && b.kind != LiteralKind::kDecimal;
  if (text_a && text_b) {
    return engine::CompareUtf8(RuleFor(a, b), a.value.as_string(), b.value.as_string());
  }
  if (Integral(a) && Integral(b)) {
    const __int128 x = a.value.is_int() ? __int128(a.value.as_int()) : __int128(a.value.as_uint());
    const __int128 y = b.value.is_int() ? __int128(b.value.as_int()) : __int128(b.value.as_uint());
    return x < y ? -1 : x > y;
  }
  if (Exact(a) && Exact(b)) {
    // A quotient compares as it shows (1/3 = 0.3333 holds on the server), though it computes
    // with all its digits.
    const auto shown = [](const SqlValue& v) { return v.decimals >= 0 ? ExactOf(v).Rounded(v.decimals) : ExactOf(v); };
    return shown(a).Compare(shown(b));
  }
  const double x = ToDouble(a.value), y = ToDouble(b.value);
  return x < y ? -1 : x > y;
}

std::optional<bool> Truth(const SqlValue& v) {
  if (v.value.is_null()) return std::nullopt;
  if (v.stored_number) return *v.stored_number != 0;
  if (v.value.is_int()) return v.value.as_int() != 0;
  if (v.value.is_uint()) return v.value.as_uint() != 0;
  return ToDouble(v.value) != 0;
}

SqlResult<SqlValue> Eval(const Expr& e, const EvalContext& ctx) {
  // Enough for the deepest call below one level: a function's own work, fmt, the allocator.
  constexpr std::size_t kStackReserve = 256 * 1024;
  if (auto overrun = CheckStack(kStackReserve)) return *overrun;
  if (!ctx.rolled_up.empty() && std::find(ctx.rolled_up.begin(), ctx.rolled_up.end(), &e) != ctx.rolled_up.end())
    return Null();
  switch (e.kind) {
    case Expr::Kind::kLiteral: {
      SqlValue v{e.value, e.literal_kind};
      v.hex_number = e.hex_number;
      return v;
    }
    case Expr::Kind::kColumn:
      return ctx.Column(e);
    case Expr::Kind::kUserVar:
      return ctx.UserVariable(e.name);
    case Expr::Kind::kLocalVar:
      return ctx.LocalVariable(e);
    case Expr::Kind::kTriggerField:
      return ctx.TriggerField(e);
    case Expr::Kind::kSystemVar:
      return ctx.SystemVariable(e.name);
    case Expr::Kind::kDefault:
      return SqlError{1064, "42000", "DEFAULT is allowed only as a value to insert or set"};
    case Expr::Kind::kFunction:
      return CallFunction(e, ctx);
    case Expr::Kind::kUnary: {
      auto v = Eval(*e.args[0], ctx);
      if (!v.ok() || v->value.is_null()) return v;
      if (e.op == "NOT") return Int(Truth(*v).value() ? 0 : 1);
      if (v->has_number()) *v = NumberOf(*v);
      if (v->hex_number) *v = HexAsNumber(*v);  // -b'101' is -5
      if (e.op == "-") return Negate(*v);
      if (v->value.is_uint()) return SqlValue{Value::UInt(~v->value.as_uint())};
      // MySQL takes the operand as a BIGINT UNSIGNED: a negative one by its two's complement.
      const double d = std::round(ToDouble(v->value));
      const std::uint64_t bits = d >= 1.8446744073709552e19 ? UINT64_MAX
                                 : d >= 0                   ? static_cast<std::uint64_t>(d)
                                                            : static_cast<std::uint64_t>(ClampToInt64(d));
      return SqlValue{Value::UInt(~bits)};
    }
    case Expr::Kind::kBinary:
      return EvalBinary(e, ctx);
    case Expr::Kind::kIn:
      return EvalIn(e, ctx);
    case Expr::Kind::kBetween:
      return EvalBetween(e, ctx);
    case Expr::Kind::kIsNull: {
      auto x = Eval(*e.args[0], ctx);
      if (!x.ok()) return x;
      return Int(x->value.is_null() != e.negated);
    }
    case Expr::Kind::kLike: {
      auto x = Eval(*e.args[0], ctx);
      if (!x.ok()) return x;
      auto p = Eval(*e.args[1], ctx);
      if (!p.ok()) return p;
      if (x->value.is_null() || p->value.is_null()) return Null();
      const std::string s = TextOf(*x);
      const std::string pat = TextOf(*p);
      const bool m = LikeMatch(s, pat, RuleFor(*x, *p));
      return Int(m != e.negated);
    }
  }
  return Null();
}

namespace {

// A floating-point value as the MySQL server writes it (my_gcvt): the shortest digits that
// read back as the same number (FLOAT: at most 6 significant digits), in plain notation when
// that fits `width` characters or is no longer than the exponent form, else as "1.5e20".
// The widths (15 for DOUBLE, 11 for FLOAT) reproduce MariaDB 10.11's output of 1e14
// ("100000000000000"), 1e15 ("1e15"), 2.5e-7 ("0.00000025"), and of FLOAT 1e-5 ("0.00001").
template <typename F>
std::string FormatFloating(F v, int width, int max_digits) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (v == 0) return "0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  if (std::count_if(sci.begin(), sci.begin() + static_cast<std::ptrdiff_t>(sci.find('e')),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) > max_digits) {
    r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, max_digits - 1);
    sci.assign(buf, r.ptr);
  }
  const bool negative = sci[0] == '-';
  const auto e = sci.find('e');
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < e; ++i) {
    if (sci[i] != '.') digits.push_back(sci[i]);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int decpt = std::stoi(sci.substr(e + 1)) + 1;  // value = 0.DIGITS x 10^decpt
  const int len = static_cast<int>(digits.size());
  const int exp_len = 1 + (decpt >= 101 || decpt <= -99) + (decpt >= 11 || decpt <= -9);
  const int fixed_len = decpt <= 0 ? len - decpt + 2 : decpt < len ? len + 1 : decpt;
  const int exp_form_len = len + (len > 1) + 1 + (decpt <= 0 ? 1 : 0) + exp_len;
  std::string out = negative ? "-" : "";
  if (fixed_len <= width || (decpt > 0 && decpt < len) || fixed_len <= exp_form_len) {
    if (decpt <= 0)
      out += "0." + std::string(static_cast<std::size_t>(-decpt), '0') + digits;
    else if (decpt < len)
      out += digits.substr(0, static_cast<std::size_t>(decpt)) + "." + digits.substr(static_cast<std::size_t>(decpt));
    else
      out += digits + std::string(static_cast<std::size_t>(decpt - len), '0');
    return out;
  }
  out += digits.substr(0, 1);
  if (len > 1) out += "." + digits.substr(1);
  return out + "e" + std::to_string(decpt - 1);
}

}  // namespace

std::string FixedDecimals(double v, std::uint32_t decimals) {
  return fmt::format("{:.{}f}", v == 0 ? 0.0 : v, decimals);  // never "-0.00"
}

std::optional<std::string> Format(const Value& v, const Column* column) {
  if (v.is_null()) return std::nullopt;
  if (column && column->has_elements() && v.is_uint()) return engine::ElementsText(*column, v.as_uint());
  if (column && column->type == ColumnType::kBit && v.is_uint()) return BitBytes(*column, v.as_uint());
  std::string text;
  if (!v.is_double())
    text = v.ToString();
  else if (column && column->length > 0)  // FLOAT(M,D) and DOUBLE(M,D) print their D decimals ('1.500')
    text = FixedDecimals(v.as_double(), column->scale);
  else if (column && column->type == ColumnType::kFloat)
    text = FormatFloating(static_cast<float>(v.as_double()), 11, 6);
  else
    text = FormatFloating(v.as_double(), 15, 17);
  if (column && column->zerofill && text.size() < DisplayWidth(*column))
    text.insert(0, DisplayWidth(*column) - text.size(), '0');
  if (column && column->type == ColumnType::kYear && text.size() < 4) text.insert(0, 4 - text.size(), '0');  // 0000
  return text;
}

std::string BitBytes(const Column& c, std::uint64_t n) {
  std::string out((c.length + 7) / 8, '\0');
  for (std::size_t i = out.size(); i-- > 0; n >>= 8) out[i] = static_cast<char>(n & 0xFF);
  return out;
}

SqlValue NumberOf(const SqlValue& v) {
  if (v.hex_number && v.value.is_string()) return HexAsNumber(v);  // b'100' beside a BIT is 4
  if (v.time && v.value.is_string()) {                             // 838:59:59.5 is 8385959.5
    std::string digits = v.value.as_string();
    std::erase(digits, ':');
    return SqlValue{Value::String(std::move(digits)), LiteralKind::kDecimal};
  }
  if (!v.stored_number) return v;
  // Signed where it fits, so that e - 1 of the first label is 0, not a BIGINT UNSIGNED error.
  if (*v.stored_number > static_cast<std::uint64_t>(INT64_MAX)) return SqlValue{Value::UInt(*v.stored_number)};
  return SqlValue{Value::Int(static_cast<std::int64_t>(*v.stored_number))};
}

std::optional<std::string> FormatResult(const SqlValue& v) {
  if (v.decimals >= 0 && v.kind == LiteralKind::kDecimal && v.value.is_string()) {
    if (auto d = Decimal::Parse(v.value.as_string())) return d->Rounded(v.decimals).ToString();
  }
  return Format(v.value);
}

std::string TextOf(const SqlValue& v) {
  if (v.value.is_string()) return v.value.as_string();
  std::string text = *Format(v.value);
  if (v.year && text.size() < 4) text.insert(0, 4 - text.size(), '0');  // a YEAR column's 0000
  return text;
}

std::optional<std::int64_t> YearConstant(const SqlValue& constant) {
  const Value& v = constant.value;
  if (v.is_null()) return std::nullopt;
  if (v.is_int()) return engine::YearOf(v.as_int());
  if (v.is_uint()) return engine::YearOf(static_cast<std::int64_t>(std::min<std::uint64_t>(v.as_uint(), INT64_MAX)));
  std::optional<std::string_view> text;
  double d = 0;
  if (v.is_double()) {
    d = v.as_double();
  } else if (v.is_string() && (constant.kind == LiteralKind::kPlain || constant.kind == LiteralKind::kDecimal)) {
    const std::string& s = v.as_string();
    char* end = nullptr;
    d = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || end != s.c_str() + s.size()) return std::nullopt;  // not wholly a number
    if (constant.kind == LiteralKind::kPlain) text = s;
  } else {
    return std::nullopt;
  }
  const double r = std::round(d);
  if (!(r > -1e18 && r < 1e18)) return std::nullopt;
  return engine::YearOf(static_cast<std::int64_t>(r), text);
}

Value ToColumn(SqlValue v, const Column& c) {
  const bool numeric = c.is_integer() || c.type == ColumnType::kDecimal || c.type == ColumnType::kFloat ||
                       c.type == ColumnType::kDouble || c.type == ColumnType::kYear || c.type == ColumnType::kBit;
  if (v.hex_number && numeric) v = HexAsNumber(v);
  if (v.has_number() && numeric) return NumberOf(v).value;  // an ENUM or TIME into a number: its number
  // A binary string into a UUID or INET: the bytes it names, in text order.
  if (engine::IsUuidOrInet(c.type) && v.kind == LiteralKind::kBinary && v.value.is_string()) {
    if (auto text = engine::TypedTextOfBinary(c.type, v.value.as_string())) return Value::String(std::move(*text));
  }
  // An exact number goes into a YEAR, BIT, ENUM or SET as the number it is, not as its text
  // (0.4 is the YEAR 0000; 2.6 names an ENUM's second label).
  if ((c.type == ColumnType::kYear || c.type == ColumnType::kBit || c.has_elements() || c.type == ColumnType::kJson) &&
      v.kind == LiteralKind::kDecimal && v.value.is_string())
    return Value::Double(std::strtod(v.value.as_string().c_str(), nullptr));
  // A double halfway between two integers goes to the even one, as the server's rint() takes
  // it (2.5e0 is 2, -0.5e0 is 0); a DECIMAL (2.5) rounds away from zero in the engine. A
  // negative one is left for the engine to refuse from an unsigned column.
  if (c.is_integer() && v.value.is_double()) {
    const double d = v.value.as_double();
    if (std::abs(d - std::trunc(d)) == 0.5 && !(c.is_unsigned && d < 0)) return Value::Double(std::nearbyint(d) + 0.0);
  }
  if (!numeric && c.type != ColumnType::kTime && v.value.is_double()) {  // a TIME reads a double as HHMMSS.f
    return Value::String(*Format(v.value));
  }
  return std::move(v.value);
}

std::string NewUuid() {
  // Version 1: 60-bit time in 100 ns units since 1582-10-15, a clock sequence, and a node
  // chosen at random once per process (MySQL uses a MAC address when it has one).
  static std::mutex mu;
  static std::uint64_t last = 0;
  static std::uint16_t clock_seq = 0;
  static std::uint64_t node = 0;
  std::lock_guard lock(mu);
  if (node == 0) {
    std::random_device rd;
    node = ((std::uint64_t{rd()} << 32) | rd()) & 0xFFFFFFFFFFFFull;
    node |= 0x010000000000ull;  // the multicast bit marks a random node
    clock_seq = static_cast<std::uint16_t>(rd() & 0x3FFF);
  }
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  std::uint64_t t =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() / 100) +
      0x01B21DD213814000ull;
  if (t <= last) t = last + 1;  // unique within the process even at the same instant
  last = t;
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", static_cast<std::uint32_t>(t & 0xFFFFFFFF),
                     static_cast<std::uint32_t>((t >> 32) & 0xFFFF),
                     static_cast<std::uint32_t>(((t >> 48) & 0x0FFF) | 0x1000),
                     static_cast<std::uint32_t>(clock_seq | 0x8000), node);
}

}  // namespace strata::sql
