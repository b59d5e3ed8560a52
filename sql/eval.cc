#include "sql/eval.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <mutex>

#include "sql/decimal.h"
#include <random>

#include "sql/stack_guard.h"

namespace strata::sql {

namespace {

SqlValue Null() { return {}; }
SqlValue Int(std::int64_t v) { return {Value::Int(v), LiteralKind::kPlain}; }
SqlValue Str(std::string s, LiteralKind k = LiteralKind::kPlain) { return {Value::String(std::move(s)), k}; }

bool Integral(const SqlValue& v) { return v.value.is_int() || v.value.is_uint(); }

// 2^63: the first double past BIGINT's range (and -2^63 its lowest value).
constexpr double kTwoTo63 = 9223372036854775808.0;

// A double as an integer argument (a count, a length, a number of places): rounded toward
// zero, and held within range, where a plain cast of 1e308 or NaN is undefined behaviour.
std::int64_t ClampToInt64(double d) {
  if (std::isnan(d)) return 0;
  if (d >= kTwoTo63) return INT64_MAX;
  if (d <= -kTwoTo63) return INT64_MIN;
  return static_cast<std::int64_t>(d);
}

double ToDouble(const Value& v) {
  if (v.is_int()) return static_cast<double>(v.as_int());
  if (v.is_uint()) return static_cast<double>(v.as_uint());
  if (v.is_double()) return v.as_double();
  if (!v.is_string()) return 0;
  // MySQL converts the longest numeric prefix ('12abc' is 12, 'abc' is 0).
  const std::string& s = v.as_string();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  double d = 0;
  const char* b = s.data() + i;
  if (i < s.size() && s[i] == '+') ++b;
  std::from_chars(b, s.data() + s.size(), d);
  return d;
}

// How two strings compare: the more exact side decides (a binary string over a _bin column's
// text, either over the default case-insensitive collation), as MySQL's coercibility does.
LiteralKind TextOrder(LiteralKind a, LiteralKind b) {
  if (a == LiteralKind::kBinary || b == LiteralKind::kBinary) return LiteralKind::kBinary;
  if (a == LiteralKind::kBinCollated || b == LiteralKind::kBinCollated) return LiteralKind::kBinCollated;
  return LiteralKind::kPlain;
}

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

SqlError OutOfRange(const std::string& what, const char* type = "BIGINT") {
  return {1690, "22003", fmt::format("{} value is out of range in '{}'", type, what)};
}

SqlResult<SqlValue> Arithmetic(const std::string& op, const SqlValue& a, const SqlValue& b);

// An integer or a DECIMAL as an exact number.
Decimal ExactOf(const SqlValue& v) {
  if (v.value.is_int()) return Decimal::Of(v.value.as_int());
  if (v.value.is_uint()) return Decimal::OfUnsigned(v.value.as_uint());
  return Decimal::Parse(v.value.as_string()).value_or(Decimal());
}

SqlValue OfDecimal(const Decimal& d) { return Str(d.ToString(), LiteralKind::kDecimal); }

bool Exact(const SqlValue& v) { return Integral(v) || (v.kind == LiteralKind::kDecimal && v.value.is_string()); }

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

std::string Hex(const std::string& s) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size() * 2);
  for (unsigned char c : s) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::optional<std::string> Unhex(std::string_view s) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  std::size_t i = 0;
  if (s.size() % 2) {
    if (digit(s[0]) < 0) return std::nullopt;
    out.push_back(static_cast<char>(digit(s[0])));
    i = 1;
  }
  for (; i < s.size(); i += 2) {
    const int hi = digit(s[i]), lo = digit(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string NowText(bool date_only) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, date_only ? "%Y-%m-%d" : "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

// UUID_TO_BIN's "swap" moves the time-high and time-mid groups first, so v1 UUIDs made
// one after another sort (and insert) in time order.
std::string SwapTimeFields(const std::string& b, bool to_bin) {
  std::string out(16, '\0');
  if (to_bin) {
    std::memcpy(&out[0], &b[6], 2);
    std::memcpy(&out[2], &b[4], 2);
    std::memcpy(&out[4], &b[0], 4);
  } else {
    std::memcpy(&out[0], &b[4], 4);
    std::memcpy(&out[4], &b[2], 2);
    std::memcpy(&out[6], &b[0], 2);
  }
  std::memcpy(&out[8], &b[8], 8);
  return out;
}

std::optional<std::string> UuidBytes(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c == '-' || c == '{' || c == '}') continue;
    digits.push_back(c);
  }
  if (digits.size() != 32) return std::nullopt;
  return Unhex(digits);
}

std::string UuidText(const std::string& b) {
  std::string h = Hex(b);
  for (char& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

SqlError WrongArguments(const std::string& fn) {
  return {1582, "42000", fmt::format("Incorrect parameter count in the call to native function '{}'", fn)};
}

SqlError BadValue(const std::string& what, const std::string& value, const std::string& fn) {
  return {1411, "HY000", fmt::format("Incorrect {} value: '{}' for function {}", what, value, fn)};
}

SqlResult<SqlValue> ApplyFunction(const std::string& f, std::vector<SqlValue>& args);

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
  return ApplyFunction(f, args);
}

// Kept out of line so that its many locals are not in the frame of every level of a nested
// call (CallFunction and Eval recurse, this does not).
[[gnu::noinline]] SqlResult<SqlValue> ApplyFunction(const std::string& f, std::vector<SqlValue>& args) {
  auto arity = [&](std::size_t lo, std::size_t hi) { return args.size() >= lo && args.size() <= hi; };
  auto any_null = [&] {
    return std::any_of(args.begin(), args.end(), [](const SqlValue& v) { return v.value.is_null(); });
  };
  auto text = [](const SqlValue& v) { return v.value.is_string() ? v.value.as_string() : *Format(v.value); };
  if (f == "NOW" || f == "CURRENT_TIMESTAMP" || f == "SYSDATE" || f == "LOCALTIME" || f == "LOCALTIMESTAMP") {
    return Str(NowText(false));
  }
  if (f == "CURDATE" || f == "CURRENT_DATE") return Str(NowText(true));
  if (f == "UUID") {
    if (!args.empty()) return WrongArguments(f);
    return Str(NewUuid());
  }
  if (f == "UUID_TO_BIN" || f == "BIN_TO_UUID") {
    if (!arity(1, 2)) return WrongArguments(f);
    if (any_null()) return Null();
    const bool swap = args.size() == 2 && Truth(args[1]).value_or(false);
    const std::string s = text(args[0]);
    if (f == "UUID_TO_BIN") {
      auto b = UuidBytes(s);
      if (!b) return BadValue("string", s, "uuid_to_bin");
      return Str(swap ? SwapTimeFields(*b, true) : *b, LiteralKind::kBinary);
    }
    if (s.size() != 16) return BadValue("string", Hex(s), "bin_to_uuid");
    return Str(UuidText(swap ? SwapTimeFields(s, false) : s));
  }
  if (f == "CONCAT") {
    if (args.empty()) return WrongArguments(f);
    if (any_null()) return Null();
    std::string out;
    LiteralKind order = LiteralKind::kPlain;
    for (const SqlValue& a : args) {
      out += text(a);
      order = TextOrder(order, a.kind);
    }
    return Str(std::move(out), order);
  }
  if (f == "LENGTH" || f == "OCTET_LENGTH" || f == "CHAR_LENGTH" || f == "CHARACTER_LENGTH") {
    if (!arity(1, 1)) return WrongArguments(f);
    if (any_null()) return Null();
    const std::string s = text(args[0]);
    if (f[0] == 'C')
      return Int(static_cast<std::int64_t>(
          std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; })));
    return Int(static_cast<std::int64_t>(s.size()));
  }
  if (f == "HEX") {
    if (!arity(1, 1)) return WrongArguments(f);
    if (any_null()) return Null();
    if (Integral(args[0])) {
      return Str(fmt::format("{:X}", args[0].value.is_int() ? static_cast<std::uint64_t>(args[0].value.as_int())
                                                            : args[0].value.as_uint()));
    }
    return Str(Hex(text(args[0])));
  }
  if (f == "UNHEX") {
    if (!arity(1, 1)) return WrongArguments(f);
    if (any_null()) return Null();
    auto b = Unhex(text(args[0]));
    if (!b) return Null();
    return Str(std::move(*b), LiteralKind::kBinary);
  }
  if (f == "LOWER" || f == "LCASE" || f == "UPPER" || f == "UCASE") {
    if (!arity(1, 1)) return WrongArguments(f);
    if (any_null()) return Null();
    if (args[0].kind == LiteralKind::kBinary) return args[0];  // bytes have no case, as on the server
    const std::string s = text(args[0]);
    return Str(f[0] == 'L' ? engine::LowerCase(s) : engine::UpperCase(s), args[0].kind);
  }
  if (f == "IFNULL" || f == "COALESCE") {
    if (f == "IFNULL" ? !arity(2, 2) : args.empty()) return WrongArguments(f);
    for (SqlValue& a : args) {
      if (!a.value.is_null()) return std::move(a);
    }
    return Null();
  }
  if (f == "IF") {
    if (!arity(3, 3)) return WrongArguments(f);
    return Truth(args[0]).value_or(false) ? args[1] : args[2];
  }
  if (f == "ABS" || f == "FLOOR" || f == "CEIL" || f == "CEILING" || f == "ROUND") {
    if (f == "ROUND" ? !arity(1, 2) : !arity(1, 1)) return WrongArguments(f);
    if (any_null()) return Null();
    if (f == "ABS" && args[0].value.is_int() && args[0].value.as_int() == INT64_MIN)
      return OutOfRange("abs(" + args[0].value.ToString() + ")");
    // Places as the server takes them: a number rounded to the nearest integer (1.6 is 2).
    const int places =
        f == "ROUND" && args.size() == 2
            ? static_cast<int>(std::clamp<std::int64_t>(ClampToInt64(std::round(ToDouble(args[1].value))), -400, 400))
            : 0;
    if (Integral(args[0]) && !(f == "ROUND" && places < 0)) {
      if (f == "ABS" && args[0].value.is_int()) return Int(std::llabs(args[0].value.as_int()));
      return args[0];
    }
    const double d = ToDouble(args[0].value);
    const bool exact = Exact(args[0]);  // an integer or a DECIMAL, computed exactly
    if (f == "ABS") {
      if (!exact) return SqlValue{Value::Double(std::fabs(d))};
      const Decimal x = ExactOf(args[0]);
      return OfDecimal(x.Compare(Decimal()) < 0 ? Decimal() - x : x);
    }
    if (f == "ROUND") {
      if (exact) {
        // MySQL's scale: the places asked for, 0 to 30; negative places round the integer part
        // (an integer stays one: ROUND(155, -1) is 160).
        const Decimal x = ExactOf(args[0]);
        if (places >= 0) return OfDecimal(x.Rounded(std::min(places, Decimal::kMaxScale)));
        Decimal r;
        if (places >= -Decimal::kMaxDigits) {
          const Decimal step = *Decimal::Parse("1" + std::string(static_cast<std::size_t>(-places), '0'));
          r = *x.Divide(step, 0) * step;
        }
        if (Integral(args[0])) {
          if (auto i = r.ToInt64(); i && args[0].value.is_int()) return Int(*i);
          if (auto u = r.ToUint64(); u && args[0].value.is_uint()) return SqlValue{Value::UInt(*u)};
        }
        return OfDecimal(r);
      }
      double r = 0;  // rounded away entirely below -300 places
      if (places > 300) {
        r = d;  // past a double's digits: nothing to round (and 10^places would be infinite)
      } else if (places >= -300) {
        const double m = std::pow(10.0, places);
        r = std::nearbyint(d * m) / m;  // halves to even, as the server's rint()
      }
      return SqlValue{Value::Double(r)};
    }
    if (exact) {
      const Decimal x = ExactOf(args[0]);
      Decimal t = x.Truncated();
      if (f == "FLOOR" && x.Compare(t) < 0) t = t - Decimal::Of(1);
      if (f != "FLOOR" && x.Compare(t) > 0) t = t + Decimal::Of(1);
      if (auto i = t.ToInt64()) return Int(*i);
      return OfDecimal(t);
    }
    const double r = f == "FLOOR" ? std::floor(d) : std::ceil(d);
    if (!(std::fabs(r) < kTwoTo63)) return SqlValue{Value::Double(r)};  // as MySQL, past BIGINT
    return Int(static_cast<std::int64_t>(r));
  }
  if (f == "SUBSTRING" || f == "SUBSTR" || f == "LEFT" || f == "RIGHT" || f == "REPEAT") {
    if (f == "SUBSTRING" || f == "SUBSTR" ? !arity(2, 3) : !arity(2, 2)) return WrongArguments(f);
    if (any_null()) return Null();
    const std::string s = text(args[0]);
    const std::int64_t n = ClampToInt64(ToDouble(args[1].value));
    if (f == "REPEAT") {
      if (s.empty() || n <= 0) return Str("", args[0].kind);
      // Longer than max_allowed_packet (64 MiB): NULL, as MySQL gives (with warning 1301),
      // not a string cut short.
      if (static_cast<std::uint64_t>(n) > (std::uint64_t{64} << 20) / s.size()) return Null();
      std::string out;
      out.reserve(s.size() * static_cast<std::size_t>(n));
      for (std::int64_t k = 0; k < n; ++k) out += s;
      return Str(std::move(out), args[0].kind);
    }
    const auto len = static_cast<std::int64_t>(s.size());
    if (f == "LEFT")
      return Str(s.substr(0, static_cast<std::size_t>(std::clamp<std::int64_t>(n, 0, len))), args[0].kind);
    if (f == "RIGHT") {
      const auto k = std::clamp<std::int64_t>(n, 0, len);
      return Str(s.substr(static_cast<std::size_t>(len - k)), args[0].kind);
    }
    std::int64_t start = n > 0 ? n - 1 : len + n;  // 1-based; negative counts from the end
    if (n == 0 || start < 0 || start >= len) return Str("", args[0].kind);
    std::int64_t count = args.size() == 3 ? ClampToInt64(ToDouble(args[2].value)) : len;
    if (count <= 0) return Str("", args[0].kind);
    return Str(s.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(count)), args[0].kind);
  }
  if (f == "RAND") {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    return SqlValue{Value::Double(std::uniform_real_distribution<double>(0, 1)(rng))};
  }
  return SqlError{1305, "42000", fmt::format("FUNCTION {} does not exist", f)};
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

bool IsAggregate(const Expr& e) {
  return e.kind == Expr::Kind::kFunction &&
         (e.name == "COUNT" || e.name == "SUM" || e.name == "MIN" || e.name == "MAX" || e.name == "AVG");
}

bool HasAggregate(const Expr& e) {
  if (IsAggregate(e)) return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return HasAggregate(*a); });
}

std::optional<int> Compare(const SqlValue& a, const SqlValue& b) {
  if (a.value.is_null() || b.value.is_null()) return std::nullopt;
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
  if (v.value.is_int()) return v.value.as_int() != 0;
  if (v.value.is_uint()) return v.value.as_uint() != 0;
  return ToDouble(v.value) != 0;
}

SqlResult<SqlValue> Eval(const Expr& e, const EvalContext& ctx) {
  // Enough for the deepest call below one level: a function's own work, fmt, the allocator.
  constexpr std::size_t kStackReserve = 256 * 1024;
  if (auto overrun = CheckStack(kStackReserve)) return *overrun;
  switch (e.kind) {
    case Expr::Kind::kLiteral:
      return SqlValue{e.value, e.literal_kind};
    case Expr::Kind::kColumn:
      return ctx.Column(e);
    case Expr::Kind::kUserVar:
      return ctx.UserVariable(e.name);
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
      if (e.op == "-") return Negate(*v);
      if (v->value.is_uint()) return SqlValue{Value::UInt(~v->value.as_uint())};
      // MySQL takes the operand as a BIGINT UNSIGNED: a negative one by its two's complement.
      const double d = std::round(ToDouble(v->value));
      const std::uint64_t bits = d >= 1.8446744073709552e19 ? UINT64_MAX
                                 : d >= 0                   ? static_cast<std::uint64_t>(d)
                                                            : static_cast<std::uint64_t>(ClampToInt64(d));
      return SqlValue{Value::UInt(~bits)};
    }
    case Expr::Kind::kBinary: {
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
    case Expr::Kind::kIn: {
      auto x = Eval(*e.args[0], ctx);
      if (!x.ok() || x->value.is_null()) return x;
      bool saw_null = false;
      for (std::size_t k = 1; k < e.args.size(); ++k) {
        auto y = Eval(*e.args[k], ctx);
        if (!y.ok()) return y;
        const auto c = Compare(*x, *y);
        if (!c)
          saw_null = true;
        else if (*c == 0)
          return Int(e.negated ? 0 : 1);
      }
      if (saw_null) return Null();
      return Int(e.negated ? 1 : 0);
    }
    case Expr::Kind::kBetween: {
      auto x = Eval(*e.args[0], ctx);
      if (!x.ok()) return x;
      auto lo = Eval(*e.args[1], ctx);
      if (!lo.ok()) return lo;
      auto hi = Eval(*e.args[2], ctx);
      if (!hi.ok()) return hi;
      const auto a = Compare(*x, *lo), b = Compare(*x, *hi);
      if (!a || !b) return Null();
      const bool in = *a >= 0 && *b <= 0;
      return Int(in != e.negated);
    }
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
      const std::string s = x->value.is_string() ? x->value.as_string() : *Format(x->value);
      const std::string pat = p->value.is_string() ? p->value.as_string() : *Format(p->value);
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
  return text;
}

std::optional<std::string> FormatResult(const SqlValue& v) {
  if (v.decimals >= 0 && v.kind == LiteralKind::kDecimal && v.value.is_string()) {
    if (auto d = Decimal::Parse(v.value.as_string())) return d->Rounded(v.decimals).ToString();
  }
  return Format(v.value);
}

Value ToColumn(SqlValue v, const Column& c) {
  if (!c.is_integer() && c.type != ColumnType::kDecimal && c.type != ColumnType::kFloat &&
      c.type != ColumnType::kDouble && v.value.is_double()) {
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
