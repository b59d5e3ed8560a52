// Colour scales shared by the terminal pictures (inspect/illustrate) and the images
// (viz/render), so a page looks the same in both.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::inspect {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  constexpr bool operator==(const Rgb&) const = default;
};

// A perceptual dark-to-bright scale (after matplotlib's viridis), t in [0, 1].
Rgb Viridis(double t);

// Distinct colours for indexes (or any categories), cycling after eight.
Rgb CategoryColor(std::size_t i);

// Mixes `c` toward white: amount 0 keeps c, 1 gives white.
Rgb Lighten(Rgb c, double amount);

inline constexpr Rgb kFreeColor{225, 225, 225};       // free per the extent descriptor
inline constexpr Rgb kUnwrittenColor{175, 175, 175};  // allocated, never written
inline constexpr Rgb kOtherTypeColor{90, 90, 110};    // pages that are not B-tree pages
inline constexpr Rgb kBadColor{220, 20, 20};          // failed checksum

}  // namespace strata::inspect
