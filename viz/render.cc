#include "viz/render.h"

#include <fmt/format.h>

#include <algorithm>

#include "viz/font.h"
#include "viz/output_file.h"

namespace strata::viz {

using inspect::Viridis;

namespace {

constexpr int kMargin = 20;
constexpr int kGap = 28;
constexpr int kTitleH = 34;
constexpr int kHeaderH = 42;
constexpr int kAxisW = 70;
constexpr int kHistH = 60;
constexpr int kHistLabelH = 16;
constexpr int kLegendRowH = 18;
constexpr int kNoteH = 20;
constexpr Rgb kBg{255, 255, 255};
constexpr Rgb kInk{30, 30, 30};
constexpr Rgb kFaint{110, 110, 110};

std::size_t MaxLegend(const MapModel& m) {
  std::size_t n = 0;
  for (const auto& p : m.panels) n = std::max(n, p.legend.size());
  return n;
}

std::string LegendText(const LegendEntry& e) {
  return fmt::format("{}: {} pages ({:.1f}%)", e.label, e.pages, e.percent);
}

std::string Note(const MapModel& m) {
  std::string s = fmt::format("{} map; one row = {} pages", ToString(m.kind), m.pages_per_row * m.pages_per_cell);
  if (m.pages_per_cell > 1) s += fmt::format("; downsampled: each cell shows {} pages (the most common kind)", m.pages_per_cell);
  if (m.kind == MapKind::kLsn) {
    s += m.shared_scale         ? "; colour = LSN on one range for all files"
         : m.linear_within_file ? "; colour = LSN between each file's oldest and newest page"
                                : "; colour = LSN rank within each file";
  }
  if (m.kind == MapKind::kExtents) s += "; bar height = page fill";
  return s;
}

// Rows that get a page-number label: every row when cells are tall enough, else fewer.
int LabelEvery(int cell) { return std::max(1, (14 + cell - 1) / cell); }

}  // namespace

Layout ComputeLayout(const MapModel& m, const RenderOptions& opt) {
  Layout l;
  const int n = std::max<int>(1, static_cast<int>(m.panels.size()));
  const int avail = opt.width - 2 * kMargin - (n - 1) * kGap;
  l.cell = std::clamp((avail / n - kAxisW) / static_cast<int>(m.cells_per_row), 1, 16);
  const int panel_w = kAxisW + l.cell * static_cast<int>(m.cells_per_row);
  const int top = kMargin + (m.title.empty() ? 0 : kTitleH) + kHeaderH;
  for (int i = 0; i < static_cast<int>(m.panels.size()); ++i) {
    l.panels.push_back({kMargin + i * (panel_w + kGap) + kAxisW, top, l.cell, m.RowsOf(m.panels[i])});
  }
  l.width = std::max(opt.width, 2 * kMargin + n * panel_w + (n - 1) * kGap);
  const int map_h = static_cast<int>(m.rows) * l.cell;
  const int hist_h = m.kind == MapKind::kLsn ? kHistH + kHistLabelH + 10 : 0;
  l.height = top + map_h + 12 + hist_h + static_cast<int>(MaxLegend(m)) * kLegendRowH + 8 + kNoteH + kMargin;
  return l;
}

ondisk::Result<Raster> RenderRaster(const MapModel& m, const RenderOptions& opt, Layout* out_layout) {
  auto font = Font::Load();
  if (!font.ok()) return font.status();
  const Layout l = ComputeLayout(m, opt);
  Raster r(l.width, l.height, kBg);
  if (!m.title.empty()) font->Draw(r, kMargin, kMargin, m.title, 20, kInk);
  for (std::size_t i = 0; i < m.panels.size(); ++i) {
    const Panel& p = m.panels[i];
    const PanelBox& b = l.panels[i];
    const int left = b.map_x - kAxisW;
    font->Draw(r, left, b.map_y - kHeaderH + 2, p.title, 15, kInk);
    font->Draw(r, left, b.map_y - kHeaderH + 22, p.subtitle, 11, kFaint);
    // Cells.
    for (std::size_t c = 0; c < p.cells.size(); ++c) {
      const int x = b.map_x + static_cast<int>(c % m.cells_per_row) * b.cell;
      const int y = b.map_y + static_cast<int>(c / m.cells_per_row) * b.cell;
      if (!p.bar_height.empty()) {
        r.Fill(x, y, b.cell, b.cell, p.bar_background[c]);
        const int h = static_cast<int>(p.bar_height[c] * b.cell + 0.5f);
        r.Fill(x, y + b.cell - h, b.cell, h, p.cells[c]);
      } else {
        r.Fill(x, y, b.cell, b.cell, p.cells[c]);
      }
    }
    // Page numbers down the left.
    const int every = LabelEvery(b.cell);
    for (std::uint32_t row = 0; row < b.rows; row += every) {
      const std::string label = std::to_string(std::uint64_t{row} * m.pages_per_row * m.pages_per_cell);
      font->Draw(r, b.map_x - 6 - font->Width(label, 10), b.map_y + static_cast<int>(row) * b.cell, label, 10, kFaint);
    }
    int y = b.map_y + static_cast<int>(m.rows) * b.cell + 12;
    // LSN histogram.
    if (m.kind == MapKind::kLsn && !p.histogram.empty()) {
      const std::uint64_t peak = *std::max_element(p.histogram.begin(), p.histogram.end());
      const int map_w = b.cell * static_cast<int>(m.cells_per_row);
      const int bw = std::max(1, map_w / static_cast<int>(p.histogram.size()));
      for (std::size_t k = 0; k < p.histogram.size(); ++k) {
        const int h = peak ? static_cast<int>(kHistH * double(p.histogram[k]) / double(peak) + 0.5) : 0;
        r.Fill(b.map_x + static_cast<int>(k) * bw, y + kHistH - h, bw - (bw > 2 ? 1 : 0), h,
               Viridis(double(k) / (p.histogram.size() - 1)));
      }
      font->Draw(r, b.map_x, y + kHistH + 2, fmt::format("LSN {}", p.lsn_min), 10, kFaint);
      const std::string hi = fmt::format("{}", p.lsn_max);
      font->Draw(r, b.map_x + map_w - font->Width(hi, 10), y + kHistH + 2, hi, 10, kFaint);
      font->Draw(r, b.map_x - kAxisW, y + kHistH / 2 - 6, "pages", 10, kFaint);
      y += kHistH + kHistLabelH + 10;
    }
    // Legend.
    for (const auto& e : p.legend) {
      r.Fill(left, y + 3, 12, 12, e.color);
      font->Draw(r, left + 18, y + 2, LegendText(e), 11, kInk);
      y += kLegendRowH;
    }
  }
  font->Draw(r, kMargin, l.height - kMargin - 12, Note(m), 11, kFaint);
  if (out_layout) *out_layout = l;
  return r;
}

std::string RenderSvg(const MapModel& m, const RenderOptions& opt) {
  const Layout l = ComputeLayout(m, opt);
  auto hex = [](Rgb c) { return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b); };
  auto esc = [](const std::string& s) {
    std::string o;
    for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    return o;
  };
  auto text = [&](int x, int y, int px, Rgb c, const std::string& s, const char* anchor = "start") {
    return fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" text-anchor=\"{}\">{}</text>\n", x, y + px, px,
                       hex(c), anchor, esc(s));
  };
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"DejaVu Sans, sans-serif\" "
      "shape-rendering=\"crispEdges\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
      l.width, l.height);
  if (!m.title.empty()) out += text(kMargin, kMargin, 20, kInk, m.title);
  for (std::size_t i = 0; i < m.panels.size(); ++i) {
    const Panel& p = m.panels[i];
    const PanelBox& b = l.panels[i];
    const int left = b.map_x - kAxisW;
    out += text(left, b.map_y - kHeaderH + 2, 15, kInk, p.title);
    out += text(left, b.map_y - kHeaderH + 22, 11, kFaint, p.subtitle);
    out += "<g>\n";
    // One rect per run of equal cells in a row keeps big maps small.
    for (std::size_t c = 0; c < p.cells.size();) {
      const std::size_t row_end = std::min(p.cells.size(), (c / m.cells_per_row + 1) * m.cells_per_row);
      const int x = b.map_x + static_cast<int>(c % m.cells_per_row) * b.cell;
      const int y = b.map_y + static_cast<int>(c / m.cells_per_row) * b.cell;
      if (!p.bar_height.empty()) {
        const int h = static_cast<int>(p.bar_height[c] * b.cell + 0.5f);
        out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>", x, y, b.cell, b.cell, hex(p.bar_background[c]));
        if (h) out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", x, y + b.cell - h, b.cell, h, hex(p.cells[c]));
        ++c;
        continue;
      }
      std::size_t run = c + 1;
      while (run < row_end && p.cells[run] == p.cells[c]) ++run;
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", x, y,
                         b.cell * static_cast<int>(run - c), b.cell, hex(p.cells[c]));
      c = run;
    }
    out += "</g>\n";
    const int every = LabelEvery(b.cell);
    for (std::uint32_t row = 0; row < b.rows; row += every) {
      out += text(b.map_x - 6, b.map_y + static_cast<int>(row) * b.cell, 10, kFaint,
                  std::to_string(std::uint64_t{row} * m.pages_per_row * m.pages_per_cell), "end");
    }
    int y = b.map_y + static_cast<int>(m.rows) * b.cell + 12;
    if (m.kind == MapKind::kLsn && !p.histogram.empty()) {
      const std::uint64_t peak = *std::max_element(p.histogram.begin(), p.histogram.end());
      const int map_w = b.cell * static_cast<int>(m.cells_per_row);
      const int bw = std::max(1, map_w / static_cast<int>(p.histogram.size()));
      for (std::size_t k = 0; k < p.histogram.size(); ++k) {
        const int h = peak ? static_cast<int>(kHistH * double(p.histogram[k]) / double(peak) + 0.5) : 0;
        out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", b.map_x + int(k) * bw,
                           y + kHistH - h, std::max(1, bw - 1), h, hex(Viridis(double(k) / (p.histogram.size() - 1))));
      }
      out += text(b.map_x, y + kHistH + 2, 10, kFaint, fmt::format("LSN {}", p.lsn_min));
      out += text(b.map_x + map_w, y + kHistH + 2, 10, kFaint, std::to_string(p.lsn_max), "end");
      y += kHistH + kHistLabelH + 10;
    }
    for (const auto& e : p.legend) {
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", left, y + 3, hex(e.color));
      out += text(left + 18, y + 2, 11, kInk, LegendText(e));
      y += kLegendRowH;
    }
  }
  out += text(kMargin, l.height - kMargin - 12, 11, kFaint, Note(m));
  return out + "</svg>\n";
}

ondisk::Status WriteMap(const MapModel& m, const RenderOptions& opt, const std::filesystem::path& out) {
  const std::string ext = out.extension().string();
  if (ext == ".svg") {
    return WriteFileAtomically(out, RenderSvg(m, opt));
  }
  if (ext != ".png") return ondisk::Status::InvalidArgument(out.string() + ": the output must end in .png or .svg");
  auto r = RenderRaster(m, opt);
  if (!r.ok()) return r.status();
  return WritePng(*r, out);
}

}  // namespace strata::viz
