// What a picture is made of, in pixels, before it is drawn: filled rectangles and lines of
// text whose width was measured with the font that draws them. The layout (render.h) places
// everything once; the PNG and SVG writers draw the same scene, so what a test checks of the
// scene (no two texts overlap, nothing wider than asked) holds for both.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ondisk/status.h"
#include "viz/raster.h"

namespace strata::viz {

struct Box {
  int x = 0, y = 0, w = 0, h = 0;
  bool Overlaps(const Box& o) const { return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h; }
};

struct SceneRect {
  int x = 0, y = 0, w = 0, h = 0;
  Rgb color;
};

struct SceneText {
  int x = 0, y = 0;  // top-left corner
  int px = 11;       // font size
  Rgb color;
  std::string text;
  int width = 0;                                          // measured
  Box box() const { return {x, y, width, px + px / 3}; }  // the line, descenders included
};

// A text's width in pixels at a size: the font's own measure, or (without the font) an
// estimate on the generous side.
using TextMeasure = std::function<int(const std::string& text, int px)>;
TextMeasure EstimatedMeasure();

// `text` shortened with "…" to fit `max_width` (at its end, or in its middle, which keeps the
// ends that tell similar names apart); as it is when it fits.
std::string Ellipsize(const std::string& text, int px, int max_width, const TextMeasure& measure, bool middle = false);

struct Scene {
  int width = 0, height = 0;
  std::vector<SceneRect> rects;
  std::vector<SceneText> texts;

  void Rect(int x, int y, int w, int h, Rgb c) { rects.push_back({x, y, w, h, c}); }
  // Adds a text at (x, y), or ending at x when `right_aligned`; returns its box.
  Box Text(int x, int y, const std::string& text, int px, Rgb c, const TextMeasure& measure,
           bool right_aligned = false);
};

// PNG needs the font (fonts-dejavu-core); SVG leaves drawing text to the viewer.
ondisk::Result<Raster> DrawRaster(const Scene& s);
std::string DrawSvg(const Scene& s);

}  // namespace strata::viz
