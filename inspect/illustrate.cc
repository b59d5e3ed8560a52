#include "inspect/illustrate.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "ondisk/index_page.h"
#include "inspect/colors.h"
#include "ondisk/page_type.h"

namespace strata::inspect {

namespace {

constexpr Rgb kGrey{110, 110, 110};
constexpr Rgb kOther{190, 190, 190};

class Painter {
 public:
  explicit Painter(const IllustrateOptions& o) : o_(o) {}
  std::string Cell(const std::string& glyph, Rgb c) const {
    if (!o_.color) return glyph;
    if (o_.truecolor) return fmt::format("\x1b[38;2;{};{};{}m{}\x1b[0m", c.r, c.g, c.b, glyph);
    auto q = [](int v) { return (v * 5 + 127) / 255; };  // 6x6x6 colour cube
    return fmt::format("\x1b[38;5;{}m{}\x1b[0m", 16 + 36 * q(c.r) + 6 * q(c.g) + q(c.b), glyph);
  }

 private:
  IllustrateOptions o_;
};

const char* FillGlyph(double fill) {
  static const char* kBlocks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  return kBlocks[std::clamp(static_cast<int>(fill * 8), 0, 7)];
}

std::string Pct(std::uint64_t n, std::uint64_t total) {
  return fmt::format("{:>5.1f}%", total ? 100.0 * n / total : 0.0);
}

}  // namespace

std::string IllustrateExtents(const ExtentsReport& r, const Dictionary& names, const IllustrateOptions& opt) {
  Painter paint(opt);
  std::map<std::uint64_t, std::size_t> color_of;  // index id -> palette slot
  std::map<std::uint64_t, std::uint64_t> index_pages;
  std::map<std::uint64_t, double> index_fill;
  std::uint64_t free = 0, unwritten = 0, other = 0, total = 0;
  std::string rows;
  for (const auto& e : r.extents) {
    rows += fmt::format("  {:>8} │", e.first_page);
    for (const auto& p : e.pages) {
      ++total;
      if (p.free) {
        ++free;
        rows += paint.Cell("·", kGrey);
      } else if (p.never_written) {
        ++unwritten;
        rows += paint.Cell("░", kGrey);
      } else if (p.index_id) {
        auto [it, added] = color_of.emplace(*p.index_id, color_of.size());
        ++index_pages[*p.index_id];
        index_fill[*p.index_id] += p.fill;
        rows += paint.Cell(FillGlyph(p.fill), CategoryColor(it->second));
      } else {
        ++other;
        rows += paint.Cell("▒", kOther);
      }
    }
    rows += "│\n";
  }
  std::string out =
      fmt::format("{}\n  one row per extent ({} pages), first page on the left; cell height = page fill\n\n", r.file,
                  r.pages_per_extent);
  out += rows + "\n  legend\n";
  for (const auto& [id, slot] : color_of) {
    std::string name = id == ondisk::kSdiIndexId ? "SDI" : fmt::format("index {}", id);
    if (const IndexDef* def = names.FindIndex(id)) name = def->name + " (" + def->table + ")";
    const double fill = index_fill[id];
    out +=
        fmt::format("    {} {:<36} {:>8} pages {}  avg fill {:>5.1f}%\n", paint.Cell("█", CategoryColor(slot)), name,
                    index_pages[id], Pct(index_pages[id], total), index_pages[id] ? 100 * fill / index_pages[id] : 0.0);
  }
  out += fmt::format("    {} {:<36} {:>8} pages {}\n", paint.Cell("▒", kOther), "other page types", other,
                     Pct(other, total));
  out += fmt::format("    {} {:<36} {:>8} pages {}\n", paint.Cell("░", kGrey), "allocated, never written", unwritten,
                     Pct(unwritten, total));
  out += fmt::format("    {} {:<36} {:>8} pages {}\n", paint.Cell("·", kGrey), "free", free, Pct(free, total));
  return out;
}

std::string IllustrateLsn(const LsnReport& r, std::uint32_t pages_per_extent, const IllustrateOptions& opt) {
  Painter paint(opt);
  // In colour a block in its age's colour; without, the age's tenth as a digit, 0 the oldest.
  auto age = [&](double rank) {
    return opt.color ? paint.Cell("█", Viridis(rank))
                     : std::string(1, static_cast<char>('0' + std::min(9, static_cast<int>(rank * 10))));
  };
  std::string out = fmt::format(
      "{}\n  one row per extent ({} pages); {}\n\n", r.file, pages_per_extent,
      opt.color ? "colour = LSN age, oldest dark, newest bright" : "0-9 = LSN age in tenths, 0 oldest, 9 newest");
  for (std::size_t i = 0; i < r.pages.size(); ++i) {
    if (i % pages_per_extent == 0) out += fmt::format("{}  {:>8} │", i ? "│\n" : "", i);
    const LsnPage& p = r.pages[i];
    if (p.state == LsnState::kNeverWritten)
      out += paint.Cell("░", kGrey);
    else if (p.state == LsnState::kFree)
      out += paint.Cell("·", kGrey);
    else if (p.state == LsnState::kDamaged)
      out += paint.Cell("X", kBadColor);
    else
      out += age(p.age_rank);
  }
  if (!r.pages.empty()) out += "│\n";
  std::string scale;
  for (int i = 0; i < (opt.color ? 32 : 10); ++i) scale += age(opt.color ? i / 31.0 : i / 9.0);
  out += fmt::format("\n  legend\n    {} oldest LSN {} … newest LSN {}\n", scale, r.min_lsn, r.max_lsn);
  const std::uint64_t total = r.pages.size();
  out += fmt::format("    written {:>8} pages {}\n", r.written, Pct(r.written, total));
  out += fmt::format("    {} never written {:>8} pages {}\n", paint.Cell("░", kGrey), r.never_written,
                     Pct(r.never_written, total));
  out += fmt::format("    {} free {:>8} pages {}\n", paint.Cell("·", kGrey), r.free, Pct(r.free, total));
  if (r.damaged)
    out += fmt::format("    {} damaged {:>8} pages {}\n", paint.Cell("X", kBadColor), r.damaged, Pct(r.damaged, total));
  // The histogram: written pages per LSN bucket, oldest left.
  const std::uint64_t peak = r.histogram.empty() ? 0 : *std::max_element(r.histogram.begin(), r.histogram.end());
  std::string spark;
  for (std::size_t b = 0; b < r.histogram.size(); ++b) {
    const double t = r.histogram.size() > 1 ? static_cast<double>(b) / (r.histogram.size() - 1) : 1.0;
    spark += r.histogram[b] == 0
                 ? " "
                 : paint.Cell(FillGlyph(peak ? static_cast<double>(r.histogram[b]) / peak - 1e-9 : 0), Viridis(t));
  }
  out += fmt::format("\n  LSN histogram ({} buckets, peak {} pages)\n    │{}│\n    {:<{}}{}\n", r.histogram.size(),
                     peak, spark, r.min_lsn, r.histogram.size(), r.max_lsn);
  return out;
}

}  // namespace strata::inspect
