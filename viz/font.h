// Text for images: DejaVu Sans (Debian's fonts-dejavu-core) rasterised with stb_truetype
// (libstb-dev), anti-aliased onto a Raster.
#pragma once

#include <string>
#include <vector>

#include "ondisk/status.h"
#include "viz/raster.h"

namespace strata::viz {

class Font {
 public:
  // The system's DejaVu Sans; NotSupported naming the package when it is missing.
  static ondisk::Result<Font> Load();
  int Width(const std::string& text, int px) const;
  // Draws `text` with its top-left corner at (x, y).
  void Draw(Raster& r, int x, int y, const std::string& text, int px, Rgb color) const;

 private:
  std::vector<unsigned char> ttf_;
  std::shared_ptr<void> info_;  // stbtt_fontinfo
};

}  // namespace strata::viz
