#include "viz/scene.h"

#include <fmt/format.h>

#include "viz/font.h"

namespace strata::viz {

namespace {

std::string Hex(Rgb c) { return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b); }

std::string Escaped(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return o;
}

// Bytes of the UTF-8 character starting at s[i] (1 for a stray byte).
std::size_t CharBytes(const std::string& s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  return i + n <= s.size() ? n : 1;
}

}  // namespace

TextMeasure EstimatedMeasure() {
  return [](const std::string& text, int px) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); i += CharBytes(text, i)) ++chars;
    return static_cast<int>(chars) * px * 2 / 3 + 1;  // DejaVu Sans averages ~0.6 em
  };
}

std::string Ellipsize(const std::string& text, int px, int max_width, const TextMeasure& measure, bool middle) {
  if (measure(text, px) <= max_width) return text;
  const std::string dots = "\xE2\x80\xA6";  // …
  std::vector<std::size_t> starts;          // where each character starts
  for (std::size_t i = 0; i < text.size(); i += CharBytes(text, i)) starts.push_back(i);
  const std::size_t n = starts.size();
  // `keep` characters of the text around the ellipsis: its head, or its head and tail.
  auto shortened = [&](std::size_t keep) {
    const std::size_t head = middle ? keep / 3 : keep, tail = keep - head;  // names differ most at their ends
    return text.substr(0, head < n ? starts[head] : text.size()) + dots + (tail ? text.substr(starts[n - tail]) : "");
  };
  // The most characters that fit (binary search: widths grow with length).
  std::size_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (measure(shortened(mid), px) <= max_width)
      lo = mid;
    else
      hi = mid - 1;
  }
  return shortened(lo);
}

Box Scene::Text(int x, int y, const std::string& text, int px, Rgb c, const TextMeasure& measure, bool right_aligned) {
  const int w = measure(text, px);
  texts.push_back({right_aligned ? x - w : x, y, px, c, text, w});
  return texts.back().box();
}

ondisk::Result<Raster> DrawRaster(const Scene& s) {
  auto font = Font::Load();
  if (!font.ok()) return font.status();
  Raster r(s.width, s.height, {255, 255, 255});
  for (const auto& x : s.rects) r.Fill(x.x, x.y, x.w, x.h, x.color);
  for (const auto& t : s.texts) font->Draw(r, t.x, t.y, t.text, t.px, t.color);
  return r;
}

std::string DrawSvg(const Scene& s) {
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "font-family=\"DejaVu Sans, sans-serif\" shape-rendering=\"crispEdges\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n<g>\n",
      s.width, s.height, s.width, s.height);
  // Runs of equal rectangles side by side in one row become one (big maps stay small).
  for (std::size_t i = 0; i < s.rects.size();) {
    const SceneRect& a = s.rects[i];
    std::size_t j = i + 1;
    int w = a.w;
    while (j < s.rects.size() && s.rects[j].y == a.y && s.rects[j].h == a.h && s.rects[j].x == a.x + w &&
           s.rects[j].color == a.color) {
      w += s.rects[j++].w;
    }
    if (w > 0 && a.h > 0) {
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", a.x, a.y, w, a.h,
                         Hex(a.color));
    }
    i = j;
  }
  out += "</g>\n";
  for (const auto& t : s.texts) {
    // The baseline sits at the size below the top, as the PNG's glyphs do; textLength keeps the
    // measured width whatever font the viewer has.
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" textLength=\"{}\" "
        "lengthAdjust=\"spacingAndGlyphs\">{}</text>\n",
        t.x, t.y + t.px, t.px, Hex(t.color), t.width, Escaped(t.text));
  }
  return out + "</svg>\n";
}

}  // namespace strata::viz
