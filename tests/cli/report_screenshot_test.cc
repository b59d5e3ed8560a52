// report.html as a reader sees it: Debian's chromium, headless, draws the key experiment's report
// in a 1,280-px window, and the screenshot is checked for what a reader needs: the figure table
// whole (every row and column inside the window) and every picture shown at a size where its
// smallest text is still legible, and showing the picture the report wrote.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"
#include "viz/raster.h"
#include "viz/render.h"

namespace {

using strata::testing::RunCommand;
using strata::testing::Strata;
using strata::testing::TempDir;
using strata::viz::Raster;
using strata::viz::ReadPng;
namespace fs = std::filesystem;

constexpr int kWindowWidth = 1280;
// The smallest text a reader is asked to read, in screen pixels from ascender to descender
// (about 10 CSS px of DejaVu Sans).
constexpr double kLegiblePx = 12;

bool Is(const Raster& r, int x, int y, int grey) {
  const auto c = r.At(x, y);
  return c.r == grey && c.g == grey && c.b == grey;
}

// A picture's place on screen: its 1-px #ddd frame (report.html's style for img), found as two
// columns of that grey with the same top and bottom.
struct Frame {
  int left, top, right, bottom;  // the frame's own pixels
  int width() const { return right - left - 1; }
  int height() const { return bottom - top - 1; }
};

std::vector<Frame> PictureFrames(const Raster& shot) {
  std::map<std::pair<int, int>, std::vector<int>> columns;  // (top, bottom) -> x of each edge
  for (int x = 0; x < shot.width(); ++x) {
    for (int y = 0; y < shot.height();) {
      if (!Is(shot, x, y, 0xdd)) {
        ++y;
        continue;
      }
      int end = y;
      while (end + 1 < shot.height() && Is(shot, x, end + 1, 0xdd)) ++end;
      if (end - y >= 40) columns[{y, end}].push_back(x);
      y = end + 1;
    }
  }
  std::vector<Frame> frames;
  for (const auto& [span, xs] : columns) {
    if (xs.size() == 2) frames.push_back({xs[0], span.first, xs[1], span.second});
  }
  std::sort(frames.begin(), frames.end(), [](const Frame& a, const Frame& b) { return a.top < b.top; });
  return frames;
}

// The figure table's grid (#ccc borders): the rows of its horizontal lines and the columns of
// its vertical ones.
struct Grid {
  std::vector<int> ys, xs;
};

Grid TableGrid(const Raster& shot) {
  Grid g;
  for (int y = 0; y < shot.height(); ++y) {
    int run = 0, longest = 0;
    for (int x = 0; x < shot.width(); ++x) {
      run = Is(shot, x, y, 0xcc) ? run + 1 : 0;
      longest = std::max(longest, run);
    }
    if (longest >= 300) g.ys.push_back(y);
  }
  if (g.ys.size() < 2) return g;
  for (int x = 0; x < shot.width(); ++x) {
    int n = 0;
    for (int y = g.ys.front(); y <= g.ys.back(); ++y) n += Is(shot, x, y, 0xcc);
    if (n == g.ys.back() - g.ys.front() + 1) g.xs.push_back(x);
  }
  return g;
}

TEST(ReportScreenshotTest, TheReportReadsWholeInA1280PxWindow) {
  TempDir tmp;
  const fs::path out = tmp.path() / "report";
  const auto run = Strata(
      "experiment keys --rows 10000 --batch 100 --strategies autoinc,uuid,ulid --buffer-pool 8M --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;

  const fs::path shot_path = tmp.path() / "shot.png";
  // Root needs --no-sandbox; the profile stays in the temporary directory; a container's small
  // /dev/shm and a missing crash reporter must not stop it.
  const auto browser = RunCommand(
      "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run "
      "--disable-dev-shm-usage --disable-breakpad "
      "--force-device-scale-factor=1 --window-size=" +
      std::to_string(kWindowWidth) + ",6000 --user-data-dir=" + (tmp.path() / "profile").string() +
      " --screenshot=" + shot_path.string() + " file://" + (out / "report.html").string() + " 2>&1");
  ASSERT_EQ(browser.exit_code, 0) << "chromium (scripts/install-deps.sh installs it): " << browser.out;
  auto shot = ReadPng(shot_path);
  ASSERT_TRUE(shot.ok()) << shot.status().ToString();
  ASSERT_EQ(shot->width(), kWindowWidth);

  // The table: a header and one row per table, every column inside the window.
  std::ifstream md(out / "report.md");
  std::string header;
  while (std::getline(md, header) && header.rfind("| strategy", 0) != 0) {
  }
  const auto columns = std::count(header.begin(), header.end(), '|') - 1;
  ASSERT_GT(columns, 10) << header;
  const Grid grid = TableGrid(*shot);
  EXPECT_EQ(grid.ys.size(), 1 + 3 + 1u) << "the table's horizontal lines";
  EXPECT_EQ(static_cast<long>(grid.xs.size()), columns + 1) << "the table's vertical lines, all inside the window";

  // The pictures, in the report's order, each shown at a size where its smallest text is legible,
  // and showing what the file holds.
  const std::vector<std::string> pictures{"insert_time.png", "extents.png", "lsn.png", "index.png"};
  const auto frames = PictureFrames(*shot);
  ASSERT_EQ(frames.size(), pictures.size());
  for (std::size_t i = 0; i < pictures.size(); ++i) {
    auto png = ReadPng(out / pictures[i]);
    ASSERT_TRUE(png.ok()) << pictures[i];
    const Frame& f = frames[i];
    EXPECT_LT(f.right, kWindowWidth) << pictures[i];
    const double scale = double(f.width()) / png->width();
    EXPECT_NEAR(double(f.height()) / png->height(), scale, 0.01) << pictures[i] << ": not distorted";
    EXPECT_GE(strata::viz::kSmallestTextPx * scale, kLegiblePx)
        << pictures[i] << " is shown at " << scale << " of its size";
    if (f.width() != png->width() || f.height() != png->height()) continue;
    int differing = 0;  // shown at its own size: the screen holds the file's pixels
    for (int y = 0; y < png->height(); ++y) {
      for (int x = 0; x < png->width(); ++x) {
        const auto a = png->At(x, y), b = shot->At(f.left + 1 + x, f.top + 1 + y);
        differing += std::abs(a.r - b.r) > 8 || std::abs(a.g - b.g) > 8 || std::abs(a.b - b.b) > 8;
      }
    }
    EXPECT_EQ(differing, 0) << pictures[i];
  }
}

}  // namespace
