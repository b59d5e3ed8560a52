#include "sql/decimal.h"

#include <algorithm>
#include <cstdlib>

namespace strata::sql {

Decimal::Int Decimal::Pow10(int n) {
  Int p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

std::optional<Decimal> Decimal::Parse(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  const auto dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  auto digits = [](std::string_view s) { return s.find_first_not_of("0123456789") == std::string_view::npos; };
  if ((whole.empty() && fraction.empty()) || !digits(whole) || !digits(fraction)) return std::nullopt;
  Int v = 0;
  for (char c : whole) v = v * 10 + (c - '0');
  for (char c : fraction) v = v * 10 + (c - '0');
  if (negative) v = -v;
  return Decimal(std::move(v), static_cast<int>(fraction.size()));
}

int Decimal::integer_digits() const {
  const Int whole = abs(unscaled_) / Pow10(scale_);
  return whole == 0 ? 0 : static_cast<int>(whole.str().size());
}

std::string Decimal::ToString() const {
  std::string digits = Int(abs(unscaled_)).str();
  if (static_cast<int>(digits.size()) <= scale_)
    digits.insert(0, static_cast<std::size_t>(scale_) + 1 - digits.size(), '0');
  if (scale_ > 0) digits.insert(digits.size() - static_cast<std::size_t>(scale_), ".");
  return unscaled_ < 0 ? "-" + digits : digits;
}

double Decimal::ToDouble() const { return std::strtod(ToString().c_str(), nullptr); }

Decimal Decimal::operator+(const Decimal& o) const {
  const int s = std::max(scale_, o.scale_);
  return Decimal(unscaled_ * Pow10(s - scale_) + o.unscaled_ * Pow10(s - o.scale_), s);
}

Decimal Decimal::operator-(const Decimal& o) const {
  const int s = std::max(scale_, o.scale_);
  return Decimal(unscaled_ * Pow10(s - scale_) - o.unscaled_ * Pow10(s - o.scale_), s);
}

Decimal Decimal::operator*(const Decimal& o) const {
  Decimal r(unscaled_ * o.unscaled_, scale_ + o.scale_);
  return r.scale_ > kMaxScale ? r.Rounded(kMaxScale) : r;
}

std::optional<Decimal> Decimal::Divide(const Decimal& o, int scale) const {
  if (o.unscaled_ == 0) return std::nullopt;
  // (a / 10^sa) / (b / 10^sb) * 10^scale, one digit more, then rounded on that digit.
  Int n = unscaled_ * Pow10(o.scale_ + scale + 1);
  Int d = o.unscaled_ * Pow10(scale_);
  Int q = n / d;  // toward zero
  const Int last = q % 10;
  q /= 10;
  if (last >= 5) ++q;
  if (last <= -5) --q;
  return Decimal(std::move(q), scale);
}

std::optional<Decimal> Decimal::Remainder(const Decimal& o) const {
  if (o.unscaled_ == 0) return std::nullopt;
  const int s = std::max(scale_, o.scale_);
  const Int a = unscaled_ * Pow10(s - scale_), b = o.unscaled_ * Pow10(s - o.scale_);
  return Decimal(a % b, s);  // C++'s % keeps the dividend's sign, as MySQL's does
}

Decimal Decimal::Rescaled(int scale, bool round) const {
  if (scale >= scale_) return Decimal(unscaled_ * Pow10(scale - scale_), scale);
  const Int p = Pow10(scale_ - scale);
  Int q = unscaled_ / p;
  if (round) {
    const Int rest = unscaled_ % p;  // the sign of unscaled_
    if (rest * 2 >= p) ++q;
    if (rest * 2 <= -p) --q;
  }
  return Decimal(std::move(q), scale);
}

int Decimal::Compare(const Decimal& o) const {
  const Decimal d = *this - o;
  return d.unscaled_ < 0 ? -1 : d.unscaled_ > 0;
}

std::optional<std::int64_t> Decimal::ToInt64() const {
  if (unscaled_ % Pow10(scale_) != 0) return std::nullopt;
  const Int v = unscaled_ / Pow10(scale_);
  if (v < INT64_MIN || v > INT64_MAX) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

std::optional<std::uint64_t> Decimal::ToUint64() const {
  if (unscaled_ % Pow10(scale_) != 0) return std::nullopt;
  const Int v = unscaled_ / Pow10(scale_);
  if (v < 0 || v > UINT64_MAX) return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

}  // namespace strata::sql
