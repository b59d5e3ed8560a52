#include "viz/chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "viz/font.h"

namespace strata::viz {

namespace {

constexpr Rgb kWhite{255, 255, 255}, kInk{40, 40, 40}, kGrid{228, 228, 228};

// The smallest "nice" step (1, 2 or 5 times a power of ten) that splits [0, max] into at
// most `ticks` intervals.
double NiceStep(double max, int ticks) {
  if (max <= 0) return 1;
  const double raw = max / ticks;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

// A line three pixels wide: a disc stamped along the segment, anti-aliased at its edge.
void DrawSegment(Raster& r, double x0, double y0, double x1, double y1, Rgb c, bool dashed, double& travelled) {
  const double length = std::hypot(x1 - x0, y1 - y0);
  const int steps = std::max(1, static_cast<int>(length * 2));
  for (int i = 0; i <= steps; ++i) {
    const double t = static_cast<double>(i) / steps;
    const double along = travelled + t * length;
    if (dashed && std::fmod(along, 12.0) >= 7.0) continue;
    const double x = x0 + (x1 - x0) * t, y = y0 + (y1 - y0) * t;
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2; dx <= 2; ++dx) {
        const int px = static_cast<int>(std::floor(x)) + dx, py = static_cast<int>(std::floor(y)) + dy;
        const double d = std::hypot(px + 0.5 - x, py + 0.5 - y);
        r.Blend(px, py, c, std::clamp(2.0 - d, 0.0, 1.0));
      }
    }
  }
  travelled += length;
}

}  // namespace

std::string TickLabel(double v) {
  auto trim = [](std::string s) {
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    return s;
  };
  const double a = std::fabs(v);
  if (a >= 1e6) return trim(fmt::format("{:.2f}", v / 1e6)) + "M";
  if (a >= 1e3) return trim(fmt::format("{:.2f}", v / 1e3)) + "k";
  return trim(fmt::format("{:.3f}", v));
}

ondisk::Result<Raster> RenderLineChart(const LineChart& chart) {
  auto font = Font::Load();
  if (!font.ok()) return font.status();
  double max_x = 0, max_y = 0;
  for (const auto& s : chart.series) {
    for (auto [x, y] : s.points) max_x = std::max(max_x, x), max_y = std::max(max_y, y);
  }
  const double step_x = NiceStep(max_x, 8), step_y = NiceStep(max_y, 6);
  const double top_x = std::max(step_x, std::ceil(max_x / step_x) * step_x);
  const double top_y = std::max(step_y, std::ceil(max_y / step_y) * step_y);

  Raster r(chart.width, chart.height, kWhite);
  constexpr int kText = 13, kTitle = 16;
  const int left = 70, right = 190, top = 48, bottom = 56;  // the legend sits right of the plot
  const int pw = chart.width - left - right, ph = chart.height - top - bottom;
  auto px = [&](double x) { return left + x / top_x * pw; };
  auto py = [&](double y) { return top + ph - y / top_y * ph; };

  font->Draw(r, left, 10, chart.title, kTitle, kInk);
  for (double x = 0; x <= top_x + step_x / 2; x += step_x) {
    const int X = static_cast<int>(std::lround(px(x)));
    r.Fill(X, top, 1, ph, kGrid);
    const std::string label = TickLabel(x);
    font->Draw(r, X - font->Width(label, kText) / 2, top + ph + 6, label, kText, kInk);
  }
  for (double y = 0; y <= top_y + step_y / 2; y += step_y) {
    const int Y = static_cast<int>(std::lround(py(y)));
    r.Fill(left, Y, pw, 1, kGrid);
    const std::string label = TickLabel(y);
    font->Draw(r, left - 8 - font->Width(label, kText), Y - kText / 2 - 2, label, kText, kInk);
  }
  r.Fill(left, top, 1, ph + 1, kInk);
  r.Fill(left, top + ph, pw + 1, 1, kInk);
  font->Draw(r, left + pw / 2 - font->Width(chart.x_label, kText) / 2, top + ph + 28, chart.x_label, kText, kInk);
  font->Draw(r, 8, 28, chart.y_label, kText, kInk);

  int legend_y = top;
  for (const auto& s : chart.series) {
    double travelled = 0;
    for (std::size_t i = 0; i + 1 < s.points.size(); ++i) {
      DrawSegment(r, px(s.points[i].first), py(s.points[i].second), px(s.points[i + 1].first),
                  py(s.points[i + 1].second), s.color, s.dashed, travelled);
    }
    if (s.points.size() == 1)
      DrawSegment(r, px(s.points[0].first), py(s.points[0].second), px(s.points[0].first), py(s.points[0].second),
                  s.color, false, travelled);
    double key = 0;
    DrawSegment(r, left + pw + 16, legend_y + 8, left + pw + 44, legend_y + 8, s.color, s.dashed, key);
    font->Draw(r, left + pw + 52, legend_y, s.label, kText, kInk);
    legend_y += 22;
  }
  return r;
}

}  // namespace strata::viz
