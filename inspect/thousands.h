// Counts written one way everywhere a person reads them: 1,234,567.
#pragma once

#include <cstdint>
#include <string>

namespace strata::inspect {

inline std::string Thousands(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

}  // namespace strata::inspect
