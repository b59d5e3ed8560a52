// The small pieces expression evaluation and the function library share: values made from
// numbers and text, numbers read as MySQL reads them, exact (DECIMAL) arithmetic's inputs, and
// the errors both give. Internal to sql/.
#pragma once

#include <cstdint>
#include <string>

#include "sql/decimal.h"
#include "sql/eval.h"

namespace strata::sql::ops {

inline SqlValue Null() { return {}; }
inline SqlValue Int(std::int64_t v) { return {Value::Int(v), LiteralKind::kPlain}; }
inline SqlValue Str(std::string s, LiteralKind k = LiteralKind::kPlain) { return {Value::String(std::move(s)), k}; }
// `n` in binary digits, without leading zeros ("0" for 0): BIN() and a BIT default's b'101'.
std::string BinaryDigits(std::uint64_t n);
inline bool Integral(const SqlValue& v) { return v.value.is_int() || v.value.is_uint(); }

// 2^63: the first double past BIGINT's range (and -2^63 its lowest value).
inline constexpr double kTwoTo63 = 9223372036854775808.0;

// A double as an integer argument (a count, a length, a number of places): rounded toward
// zero, and held within range, where a plain cast of 1e308 or NaN is undefined behaviour.
std::int64_t ClampToInt64(double d);
// A value as a double; text by its longest numeric prefix, as MySQL converts it.
double ToDouble(const Value& v);
// How two strings compare: the more exact side decides (a binary string over a _bin column's
// text, either over the default case-insensitive collation), as MySQL's coercibility does.
LiteralKind TextOrder(LiteralKind a, LiteralKind b);

// An integer or a DECIMAL as an exact number, and back.
Decimal ExactOf(const SqlValue& v);
SqlValue OfDecimal(const Decimal& d);
bool Exact(const SqlValue& v);  // an integer or a DECIMAL

SqlError OutOfRange(const std::string& what, const char* type = "BIGINT");
SqlError WrongArguments(const std::string& fn);

}  // namespace strata::sql::ops
