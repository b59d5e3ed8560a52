// Line charts as PNG: one line per series over shared axes, with ticks, axis labels and a
// legend (the key experiment's cumulative insert time against rows inserted).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ondisk/status.h"
#include "viz/raster.h"

namespace strata::viz {

struct ChartSeries {
  std::string label;
  Rgb color;
  bool dashed = false;
  std::vector<std::pair<double, double>> points;  // (x, y), x ascending
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<ChartSeries> series;
  int width = 900, height = 520;
};

// Axes start at 0 and end at a round value above the largest point.
ondisk::Result<Raster> RenderLineChart(const LineChart& chart);

// "1.5M", "200k", "0.25": short tick labels.
std::string TickLabel(double v);

}  // namespace strata::viz
