// Draws a MapModel as PNG or SVG: a title, the tablespaces on one scale (same pages per row
// and per cell, and with shared_scale the same LSN range) in a grid that wraps into rows to fit
// the width, each with its file name, size, records and leaf fill, page numbers down the left
// of each map, an LSN histogram and colour bar (oldest to newest, with the numbers) under LSN
// maps, and a legend with pages and percent per colour. Every text is measured before it is
// placed: nothing overlaps, names too long for their column end in "…" and are given in full
// in a key under the maps, and the picture is no wider than asked.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ondisk/status.h"
#include "viz/map_model.h"
#include "viz/raster.h"
#include "viz/scene.h"

namespace strata::viz {

// No text in a rendered map is smaller than this (font pixel height, ascender to descender).
inline constexpr int kSmallestTextPx = 13;

struct RenderOptions {
  int width = 1200;  // pixels; cells shrink (1..16 px) to fit the panels in it
};

// Where things were drawn, for tests and the viewer.
struct PanelBox {
  int map_x = 0, map_y = 0;  // top-left of the cell grid
  int cell = 0;              // cell size in pixels
  std::uint32_t rows = 0;
};

struct Layout {
  int width = 0, height = 0;
  int cell = 0;
  int columns = 0;  // panels per row of the grid
  std::vector<PanelBox> panels;
};

// The picture, laid out: what is drawn and where. Texts are measured with the font when it is
// installed, else estimated.
Scene LayOut(const MapModel& m, const RenderOptions& opt, Layout* layout = nullptr);
Layout ComputeLayout(const MapModel& m, const RenderOptions& opt);

// PNG needs the font (fonts-dejavu-core); SVG leaves text to the viewer.
ondisk::Result<Raster> RenderRaster(const MapModel& m, const RenderOptions& opt, Layout* layout = nullptr);
std::string RenderSvg(const MapModel& m, const RenderOptions& opt);

// By extension: .png or .svg.
ondisk::Status WriteMap(const MapModel& m, const RenderOptions& opt, const std::filesystem::path& out,
                        Layout* layout = nullptr);

}  // namespace strata::viz
