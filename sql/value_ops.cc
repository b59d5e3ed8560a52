#include "sql/value_ops.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>

namespace strata::sql::ops {

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

LiteralKind TextOrder(LiteralKind a, LiteralKind b) {
  if (a == LiteralKind::kBinary || b == LiteralKind::kBinary) return LiteralKind::kBinary;
  if (a == LiteralKind::kBinCollated || b == LiteralKind::kBinCollated) return LiteralKind::kBinCollated;
  return LiteralKind::kPlain;
}

SqlError OutOfRange(const std::string& what, const char* type) {
  return {1690, "22003", fmt::format("{} value is out of range in '{}'", type, what)};
}

Decimal ExactOf(const SqlValue& v) {
  if (v.value.is_int()) return Decimal::Of(v.value.as_int());
  if (v.value.is_uint()) return Decimal::OfUnsigned(v.value.as_uint());
  return Decimal::Parse(v.value.as_string()).value_or(Decimal());
}

SqlValue OfDecimal(const Decimal& d) { return Str(d.ToString(), LiteralKind::kDecimal); }

std::string BinaryDigits(std::uint64_t n) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + (n & 1)));
  } while (n >>= 1);
  return digits;
}

bool Exact(const SqlValue& v) { return Integral(v) || (v.kind == LiteralKind::kDecimal && v.value.is_string()); }

SqlError WrongArguments(const std::string& fn) {
  return {1582, "42000", fmt::format("Incorrect parameter count in the call to native function '{}'", fn)};
}

}  // namespace strata::sql::ops
