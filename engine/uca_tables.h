// The primary weights of MariaDB's Unicode collations, measured from the server
// (scripts/mariadb/uca_tables.py writes uca400_table.cc, uca520_table.cc and uca1400_table.cc):
// utf8mb4_unicode_ci is UCA 4.0.0, utf8mb4_unicode_520_ci UCA 5.2.0 and utf8mb4_uca1400_ai_ci
// UCA 14.0.0, each with its own order of letters (æ is a letter of its own in 4.0.0, the same as
// "ae" in 14.0.0) and its own implicit weights for ideographs and unassigned code points.
#pragma once

#include <cstdint>
#include <span>

namespace strata::engine {

// Code points first..first+count-1 weigh weights[offset..offset+n), the last weight plus
// step * (code point - first). Runs cover every code point, in order.
struct UcaRun {
  char32_t first;
  std::uint32_t count;
  std::uint32_t offset;
  std::uint8_t n;
  std::uint8_t step;
};

// A sequence that weighs as one (UCA 14.0.0: 'l' + U+00B7, Cyrillic letters written with a
// combining breve); `length` code points of `code_points`, sorted.
struct UcaContraction {
  char32_t code_points[3];
  std::uint8_t length;
  std::uint32_t offset;
  std::uint8_t n;
};

struct UcaTable {
  std::span<const UcaRun> runs;
  std::span<const std::uint16_t> weights;
  std::span<const UcaContraction> contractions;
  std::span<const std::uint16_t> contraction_weights;
  std::uint16_t space;  // the weight of ' '
};

const UcaTable& Uca400Table();
const UcaTable& Uca520Table();
const UcaTable& Uca1400Table();

}  // namespace strata::engine
