#include "viz/font.h"

#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb/stb_truetype.h>

namespace strata::viz {

namespace {
constexpr const char* kFontPaths[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                      "/usr/share/fonts/dejavu/DejaVuSans.ttf"};
const stbtt_fontinfo* Info(const std::shared_ptr<void>& p) { return static_cast<const stbtt_fontinfo*>(p.get()); }

// The code points of UTF-8 `text` (a stray byte stands for itself: Latin-1).
std::vector<int> CodePoints(const std::string& text) {
  std::vector<int> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    if (n == 1 || i + n > text.size()) {
      out.push_back(b);
      ++i;
      continue;
    }
    int cp = b & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    out.push_back(cp);
    i += n;
  }
  return out;
}
}  // namespace

ondisk::Result<Font> Font::Load() {
  Font f;
  for (const char* path : kFontPaths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    f.ttf_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    auto info = std::make_shared<stbtt_fontinfo>();
    if (stbtt_InitFont(info.get(), f.ttf_.data(), stbtt_GetFontOffsetForIndex(f.ttf_.data(), 0))) {
      f.info_ = info;
      return f;
    }
  }
  return ondisk::Status::NotSupported("no DejaVu Sans font: install Debian's fonts-dejavu-core");
}

int Font::Width(const std::string& text, int px) const {
  const float scale = stbtt_ScaleForPixelHeight(Info(info_), static_cast<float>(px));
  int width = 0;
  for (int c : CodePoints(text)) {
    int advance, lsb;
    stbtt_GetCodepointHMetrics(Info(info_), c, &advance, &lsb);
    width += static_cast<int>(advance * scale + 0.5f);
  }
  return width;
}

void Font::Draw(Raster& r, int x, int y, const std::string& text, int px, Rgb color) const {
  const stbtt_fontinfo* info = Info(info_);
  const float scale = stbtt_ScaleForPixelHeight(info, static_cast<float>(px));
  int ascent, descent, gap;
  stbtt_GetFontVMetrics(info, &ascent, &descent, &gap);
  const int baseline = y + static_cast<int>(ascent * scale + 0.5f);
  float pen = static_cast<float>(x);
  for (int c : CodePoints(text)) {
    int advance, lsb, x0, y0, x1, y1;
    stbtt_GetCodepointHMetrics(info, c, &advance, &lsb);
    stbtt_GetCodepointBitmapBox(info, c, scale, scale, &x0, &y0, &x1, &y1);
    const int w = x1 - x0, h = y1 - y0;
    if (w > 0 && h > 0) {
      std::vector<unsigned char> glyph(static_cast<std::size_t>(w) * h);
      stbtt_MakeCodepointBitmap(info, glyph.data(), w, h, w, scale, scale, c);
      const int gx = static_cast<int>(pen) + x0, gy = baseline + y0;
      for (int yy = 0; yy < h; ++yy) {
        for (int xx = 0; xx < w; ++xx) r.Blend(gx + xx, gy + yy, color, glyph[yy * w + xx] / 255.0);
      }
    }
    pen += advance * scale;
  }
}

}  // namespace strata::viz
