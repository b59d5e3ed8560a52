// An RGB image in memory, drawn with filled rectangles and text, written as PNG (libpng).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "inspect/colors.h"
#include "ondisk/status.h"

namespace strata::viz {

using inspect::Rgb;

class Raster {
 public:
  Raster(int width, int height, Rgb background);
  int width() const { return w_; }
  int height() const { return h_; }
  void Fill(int x, int y, int w, int h, Rgb c);   // clipped to the image
  void Blend(int x, int y, Rgb c, double alpha);  // one pixel, alpha in [0, 1]
  Rgb At(int x, int y) const;
  const std::vector<std::uint8_t>& pixels() const { return px_; }  // RGB rows

 private:
  int w_, h_;
  std::vector<std::uint8_t> px_;
};

ondisk::Status WritePng(const Raster& r, const std::filesystem::path& path);
// Reads an 8-bit RGB or RGBA PNG (for tests and screenshot checks).
ondisk::Result<Raster> ReadPng(const std::filesystem::path& path);

}  // namespace strata::viz
