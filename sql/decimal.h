// Exact decimal numbers, for what MySQL computes exactly: DECIMAL values and integers in
// + - * /, SUM and AVG, and comparisons between them. A DECIMAL(65,30) has more digits than
// a double holds (about 17), so a double summed 12345678901234567890123456789012345.12 to
// 12345678901234568964337362356142080. The number is an integer of any size and a scale (the
// digits after the point); the result scales are MySQL's (`+ -`: the larger, `*`: the sum,
// `/`: the dividend's plus div_precision_increment).
#pragma once

#include <boost/multiprecision/cpp_int.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata::sql {

class Decimal {
 public:
  // MySQL's most digits in a DECIMAL column, and after its point; results computed from them
  // may have up to 81 digits (nine 9-digit words), as the server's may.
  static constexpr int kMaxDigits = 65;
  static constexpr int kMaxScale = 30;
  static constexpr int kMaxResultDigits = 81;

  Decimal() = default;
  static Decimal Of(std::int64_t v) { return Decimal(v, 0); }
  static Decimal OfUnsigned(std::uint64_t v) { return Decimal(v, 0); }
  // "[-+]digits[.digits]" (also ".5" and "5."); nullopt for anything else.
  static std::optional<Decimal> Parse(std::string_view text);

  int scale() const { return scale_; }
  // Digits before the point (0 for 0.5).
  int integer_digits() const;
  bool is_zero() const { return unscaled_ == 0; }
  // "-12.50", with `scale` digits after the point ("0.5", never ".5"; no "-0").
  std::string ToString() const;
  double ToDouble() const;

  Decimal operator+(const Decimal& o) const;
  Decimal operator-(const Decimal& o) const;
  Decimal operator*(const Decimal& o) const;
  // `*this / o` with `scale` digits after the point, rounded half away from zero; nullopt
  // when `o` is zero.
  std::optional<Decimal> Divide(const Decimal& o, int scale) const;
  // The remainder with the sign of the dividend (MySQL's %); nullopt when `o` is zero.
  std::optional<Decimal> Remainder(const Decimal& o) const;
  // The integer part, toward zero; `scale` digits after the point, the rest dropped.
  Decimal Truncated() const { return Rescaled(0, false); }
  Decimal Truncated(int scale) const { return Rescaled(scale, false); }
  // `scale` digits after the point: fewer rounded half away from zero, more zero-filled.
  Decimal Rounded(int scale) const { return Rescaled(scale, true); }
  int Compare(const Decimal& o) const;
  // The value when it is an integer a BIGINT (or, failing that, a BIGINT UNSIGNED) holds.
  std::optional<std::int64_t> ToInt64() const;
  std::optional<std::uint64_t> ToUint64() const;

 private:
  using Int = boost::multiprecision::cpp_int;
  Decimal(Int unscaled, int scale) : unscaled_(std::move(unscaled)), scale_(scale) {}
  Decimal Rescaled(int scale, bool round) const;
  static Int Pow10(int n);

  Int unscaled_ = 0;  // the value times 10^scale_
  int scale_ = 0;
};

}  // namespace strata::sql
