#include "inspect/colors.h"

#include <algorithm>
#include <array>

namespace strata::inspect {

Rgb Viridis(double t) {
  static constexpr std::array<Rgb, 5> stops = {
      {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
  t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(t), stops.size() - 2);
  const double f = t - static_cast<double>(i);
  auto mix = [&](int a, int b) { return static_cast<std::uint8_t>(a + (b - a) * f + 0.5); };
  return {mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g), mix(stops[i].b, stops[i + 1].b)};
}

Rgb CategoryColor(std::size_t i) {
  static constexpr std::array<Rgb, 8> kColors = {{{66, 135, 245},
                                                  {245, 130, 48},
                                                  {60, 180, 75},
                                                  {220, 60, 180},
                                                  {230, 190, 20},
                                                  {40, 200, 210},
                                                  {150, 110, 240},
                                                  {150, 90, 60}}};
  return kColors[i % kColors.size()];
}

Rgb Lighten(Rgb c, double amount) {
  amount = std::clamp(amount, 0.0, 1.0);
  auto mix = [&](int v) { return static_cast<std::uint8_t>(v + (255 - v) * amount + 0.5); };
  return {mix(c.r), mix(c.g), mix(c.b)};
}

}  // namespace strata::inspect
