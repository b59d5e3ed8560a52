#include "viz/render.h"

#include <fmt/format.h>

#include <algorithm>

#include "viz/font.h"
#include "viz/output_file.h"

namespace strata::viz {

using inspect::Viridis;

namespace {

constexpr int kMargin = 20;
constexpr int kGap = 28;  // between panels, across and down
// Sizes are font pixel heights (ascender to descender; DejaVu's em is 0.86 of it). The smallest,
// kAxisPx, is kSmallestTextPx: legible when the picture is shown at its own size.
constexpr int kTitlePx = 22, kPanelTitlePx = 17, kSmallPx = 14, kAxisPx = kSmallestTextPx;
constexpr int kTitleH = 38;
constexpr int kHeaderH = 50;
constexpr int kAxisW = 78;
constexpr int kHistH = 60;
constexpr int kBarH = 10;  // the LSN colour bar
constexpr int kLegendRowH = 21;
constexpr int kSwatch = 14;
constexpr int kLineH = 19;   // a line of small text
constexpr int kMinCell = 6;  // panels wrap into more rows before cells get smaller than this
constexpr Rgb kInk{30, 30, 30};
constexpr Rgb kFaint{110, 110, 110};

std::string LegendCounts(const LegendEntry& e) {
  return fmt::format("{} page{} ({:.1f}%)", Thousands(e.pages), e.pages == 1 ? "" : "s", e.percent);
}

std::string LegendText(const LegendEntry& e) { return e.label + ": " + LegendCounts(e); }

std::string Note(const MapModel& m) {
  std::string s = fmt::format("{} map; one cell = {} page{}, one row = {} pages", ToString(m.kind),
                              Thousands(m.pages_per_cell), m.pages_per_cell == 1 ? "" : "s (the most common kind)",
                              Thousands(std::uint64_t{m.cells_per_row} * m.pages_per_cell));
  if (m.kind == MapKind::kLsn) {
    s += m.shared_scale ? "; colour = LSN on one range for all files, dark = oldest"
         : m.rank_within_file
             ? "; colour = the page's rank by LSN among its file's pages (not the LSN itself: the bar is "
               "ranks, oldest page to newest), dark = oldest"
             : "; colour = LSN between each file's oldest and newest page, dark = oldest";
    s += "; bars = written pages per LSN range";
  }
  if (m.kind == MapKind::kExtents) s += "; bar height = how full the page is";
  return s;
}

// Rows that get a page-number label: every row when cells are tall enough, else fewer.
int LabelEvery(int cell) { return std::max(1, (kAxisPx + 4 + cell - 1) / cell); }

// `text` in lines no wider than `width`: broken between words, and a word wider than a line
// broken where it must (a file name is given whole, over two lines, rather than cut).
std::vector<std::string> Wrap(const std::string& text, int px, int width, const TextMeasure& measure) {
  std::vector<std::string> lines;
  std::string line;
  auto fits = [&](const std::string& s) { return measure(s, px) <= width; };
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t space = text.find(' ', at);
    std::string word = text.substr(at, space == std::string::npos ? std::string::npos : space - at);
    at = space == std::string::npos ? text.size() : space + 1;
    if (!line.empty() && fits(line + " " + word)) {
      line += " " + word;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    while (!fits(word)) {  // the longest head of the word that fits, on a line of its own
      std::size_t n = 1;
      while (n < word.size() && fits(word.substr(0, n + 1))) ++n;
      while (n < word.size() && (static_cast<unsigned char>(word[n]) & 0xC0) == 0x80) --n;  // whole UTF-8 characters
      if (n == 0) n = 1;
      lines.push_back(word.substr(0, n));
      word.erase(0, n);
    }
    line = word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

TextMeasure MeasureWithFont() {
  auto font = Font::Load();
  if (!font.ok()) return EstimatedMeasure();
  auto shared = std::make_shared<Font>(std::move(*font));
  return [shared](const std::string& text, int px) { return shared->Width(text, px); };
}

// A legend entry's lines in a column `col_w` wide: its counts are never cut off nor broken
// apart from their unit, on the label's last line when they fit there, else on their own.
std::vector<std::string> LegendLines(const LegendEntry& e, int col_w, const TextMeasure& measure) {
  const int width = col_w - kSwatch - 6;
  if (measure(LegendText(e), kSmallPx) <= width) return {LegendText(e)};
  std::vector<std::string> lines = Wrap(e.label + ":", kSmallPx, width, measure);
  const std::string counts = LegendCounts(e);
  if (!lines.empty() && measure(lines.back() + " " + counts, kSmallPx) <= width) {
    lines.back() += " " + counts;
  } else {
    for (auto& l : Wrap(counts, kSmallPx, width, measure)) lines.push_back(std::move(l));
  }
  return lines;
}

// What one panel needs below its map: the histogram and colour bar of an LSN map, the legend.
int BelowMap(const MapModel& m, const Panel& p, int col_w, const TextMeasure& measure) {
  int h = 12;
  if (m.kind == MapKind::kLsn && !p.histogram.empty()) h += kHistH + 2 + kBarH + 2 + 2 * kLineH + 6;
  for (const auto& e : p.legend)
    h += kLegendRowH + (static_cast<int>(LegendLines(e, col_w, measure).size()) - 1) * kLineH;
  return h;
}

// The page cells (a flat colour, or a bar of the page's fill over its background) and the
// page numbers down the left.
void DrawCells(Scene& s, const MapModel& m, const Panel& p, const PanelBox& b, const TextMeasure& measure) {
  for (std::size_t c = 0; c < p.cells.size(); ++c) {
    const int x = b.map_x + static_cast<int>(c % m.cells_per_row) * b.cell;
    const int cy = b.map_y + static_cast<int>(c / m.cells_per_row) * b.cell;
    if (p.bar_height.empty()) {
      s.Rect(x, cy, b.cell, b.cell, p.cells[c]);
      continue;
    }
    const int h = static_cast<int>(p.bar_height[c] * b.cell + 0.5f);
    s.Rect(x, cy, b.cell, b.cell - h, p.bar_background[c]);
    s.Rect(x, cy + b.cell - h, b.cell, h, p.cells[c]);
  }
  const int every = LabelEvery(b.cell);
  for (std::uint32_t row = 0; row < b.rows; row += every) {
    s.Text(b.map_x - 6, b.map_y + static_cast<int>(row) * b.cell,
           Thousands(std::uint64_t{row} * m.cells_per_row * m.pages_per_cell), kAxisPx, kFaint, measure, true);
  }
}

// An LSN map's histogram and colour bar from `py` on; returns where the legend goes.
int DrawLsnScale(Scene& s, const MapModel& m, const Panel& p, const PanelBox& b, int left, int py,
                 const TextMeasure& measure) {
  const int map_w = b.cell * static_cast<int>(m.cells_per_row);
  // Written pages per LSN range, each bar in its range's colour; the colour bar under it
  // is the scale, oldest (dark) on the left, newest on the right, with the numbers.
  const std::uint64_t peak = *std::max_element(p.histogram.begin(), p.histogram.end());
  const int k = static_cast<int>(p.histogram.size());
  for (int j = 0; j < k; ++j) {
    const int x0 = b.map_x + j * map_w / k, x1 = b.map_x + (j + 1) * map_w / k;
    const int h = peak ? static_cast<int>(kHistH * double(p.histogram[j]) / double(peak) + 0.5) : 0;
    // Ranked colours are not LSNs: the bars, which are LSN ranges, stay neutral then.
    const Rgb bar = m.rank_within_file ? kFaint : Viridis(k > 1 ? double(j) / (k - 1) : 1);
    s.Rect(x0, py + kHistH - h, std::max(1, x1 - x0 - (x1 - x0 > 2 ? 1 : 0)), h, bar);
  }
  s.Text(left, py + kHistH / 2 - kAxisPx / 2, "pages", kAxisPx, kFaint, measure);
  py += kHistH + 2;
  for (int x = 0; x < map_w; ++x) s.Rect(b.map_x + x, py, 1, kBarH, Viridis(map_w > 1 ? double(x) / (map_w - 1) : 1));
  py += kBarH + 2;
  const char* end = m.rank_within_file ? " page" : "";  // ranked: the bar runs from page to page, not LSN to LSN
  const std::string oldest = fmt::format("oldest{}: LSN {}", end, Thousands(p.lsn_min));
  const std::string newest = fmt::format("newest{}: LSN {}", end, Thousands(p.lsn_max));
  const Box lo = s.Text(b.map_x, py, Ellipsize(oldest, kAxisPx, map_w, measure), kAxisPx, kFaint, measure);
  const int newest_w = measure(newest, kAxisPx);
  if (lo.x + lo.w + 8 <= b.map_x + map_w - newest_w) {
    s.Text(b.map_x + map_w, py, newest, kAxisPx, kFaint, measure, true);  // on the same line
  } else {
    s.Text(b.map_x + map_w, py + kLineH, Ellipsize(newest, kAxisPx, map_w, measure), kAxisPx, kFaint, measure, true);
  }
  py += 2 * kLineH + 6;
  return py;
}

// The legend from `py` on: a swatch and the category's lines.
void DrawLegend(Scene& s, const Panel& p, int left, int py, int col_w, const TextMeasure& measure) {
  for (const auto& e : p.legend) {
    if (e.lsn_scale) {  // its colours are the scale's
      for (int x = 0; x < kSwatch; ++x) s.Rect(left + x, py + 3, 1, kSwatch, Viridis(double(x) / (kSwatch - 1)));
    } else {
      s.Rect(left, py + 3, kSwatch, kSwatch, e.color);
    }
    const auto lines = LegendLines(e, col_w, measure);
    for (std::size_t k = 0; k < lines.size(); ++k) {
      s.Text(left + kSwatch + 6, py + 2 + static_cast<int>(k) * kLineH, lines[k], kSmallPx, kInk, measure);
    }
    py += kLegendRowH + (static_cast<int>(lines.size()) - 1) * kLineH;
  }
}

}  // namespace

Scene LayOut(const MapModel& m, const RenderOptions& opt, Layout* out_layout) {
  const TextMeasure measure = MeasureWithFont();
  Scene s;
  Layout l;
  const int width = std::max(opt.width, 200);
  const int inner = width - 2 * kMargin;
  const int cpr = static_cast<int>(m.cells_per_row);
  const int n = std::max<int>(1, static_cast<int>(m.panels.size()));
  // A panel's column is as wide as its map or its widest legend line, whichever is wider.
  int legend_w = 0;
  for (const auto& p : m.panels) {
    for (const auto& e : p.legend) legend_w = std::max(legend_w, kSwatch + 6 + measure(LegendText(e), kSmallPx));
  }
  legend_w = std::min(legend_w, inner);
  // The most panels per row whose cells stay at least kMinCell (or as big as one column allows).
  auto cell_for = [&](int k) {
    const int col = (inner - (k - 1) * kGap) / k;
    return col < legend_w ? 0 : std::clamp((col - kAxisW) / cpr, 0, 16);
  };
  const int best_cell = std::max(1, cell_for(1));
  int columns = 1;
  for (int k = n; k >= 1; --k) {
    if (cell_for(k) >= std::min(kMinCell, best_cell)) {
      columns = k;
      break;
    }
  }
  l.cell = std::max(1, cell_for(columns));
  l.columns = columns;
  const int col_w = std::max(kAxisW + l.cell * cpr, legend_w);

  int y = kMargin;
  if (!m.title.empty()) {
    s.Text(kMargin, y, Ellipsize(m.title, kTitlePx, inner, measure), kTitlePx, kInk, measure);
    y += kTitleH;
  }
  std::vector<std::pair<std::string, std::string>> key;  // shortened name -> full name
  for (int first = 0; first < static_cast<int>(m.panels.size()); first += columns) {
    const int last = std::min<int>(first + columns, static_cast<int>(m.panels.size()));
    std::uint32_t rows = 0;
    int below = 0, header = kHeaderH;  // a subtitle too long for its column wraps: no figure is cut
    for (int i = first; i < last; ++i) {
      rows = std::max(rows, m.RowsOf(m.panels[i]));
      below = std::max(below, BelowMap(m, m.panels[i], col_w, measure));
      const int lines = static_cast<int>(Wrap(m.panels[i].subtitle, kSmallPx, col_w, measure).size());
      header = std::max(header, kHeaderH + (lines - 1) * kLineH);
    }
    for (int i = first; i < last; ++i) {
      const Panel& p = m.panels[i];
      const int left = kMargin + (i - first) * (col_w + kGap);
      const PanelBox b{left + kAxisW, y + header, l.cell, m.RowsOf(p)};
      l.panels.push_back(b);
      const std::string title = Ellipsize(p.title, kPanelTitlePx, col_w, measure, true);
      if (title != p.title) key.emplace_back(title, p.title);
      s.Text(left, y + 2, title, kPanelTitlePx, kInk, measure);
      int sy = y + 26;
      for (const auto& line : Wrap(p.subtitle, kSmallPx, col_w, measure)) {
        s.Text(left, sy, line, kSmallPx, kFaint, measure);
        sy += kLineH;
      }
      DrawCells(s, m, p, b, measure);
      int py = b.map_y + static_cast<int>(rows) * b.cell + 12;
      if (m.kind == MapKind::kLsn && !p.histogram.empty()) py = DrawLsnScale(s, m, p, b, left, py, measure);
      DrawLegend(s, p, left, py, col_w, measure);
    }
    y += header + static_cast<int>(rows) * l.cell + below + kGap;
  }
  // The names shortened above, in full.
  for (const auto& [shown, full] : key) {
    for (const auto& line : Wrap(shown + " = " + full, kSmallPx, inner, measure)) {
      s.Text(kMargin, y, line, kSmallPx, kInk, measure);
      y += kLineH;
    }
  }
  for (const auto& line : Wrap(Note(m), kSmallPx, inner, measure)) {
    s.Text(kMargin, y, line, kSmallPx, kFaint, measure);
    y += kLineH;
  }
  int right = 0;  // the columns in use, whole, and anything wider
  for (const auto& b : l.panels) right = std::max(right, b.map_x - kAxisW + col_w);
  for (const auto& r : s.rects) right = std::max(right, r.x + r.w);
  for (const auto& t : s.texts) right = std::max(right, t.x + t.width);
  s.width = l.width = std::min(width, right + kMargin);
  s.height = l.height = y + kMargin;
  if (out_layout) *out_layout = std::move(l);
  return s;
}

Layout ComputeLayout(const MapModel& m, const RenderOptions& opt) {
  Layout l;
  LayOut(m, opt, &l);
  return l;
}

ondisk::Result<Raster> RenderRaster(const MapModel& m, const RenderOptions& opt, Layout* layout) {
  return DrawRaster(LayOut(m, opt, layout));
}

std::string RenderSvg(const MapModel& m, const RenderOptions& opt) { return DrawSvg(LayOut(m, opt)); }

ondisk::Status WriteMap(const MapModel& m, const RenderOptions& opt, const std::filesystem::path& out, Layout* layout) {
  const std::string ext = out.extension().string();
  if (ext == ".svg") return WriteFileAtomically(out, DrawSvg(LayOut(m, opt, layout)));
  if (ext != ".png") return ondisk::Status::InvalidArgument(out.string() + ": the output must end in .png or .svg");
  auto r = RenderRaster(m, opt, layout);
  if (!r.ok()) return r.status();
  return WritePng(*r, out);
}

}  // namespace strata::viz
