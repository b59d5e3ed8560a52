// strata-viz under Xvfb with Mesa's software OpenGL: it opens real files and draws their maps.
#include <gtest/gtest.h>

#include <fstream>

#include <map>

#include "inspect/colors.h"
#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"
#include "viz/raster.h"

namespace strata::viz {
namespace {

// A path it cannot read is an error on stderr and exit 1, before any window opens.
TEST(ViewerTest, APathThatCannotBeReadIsRefused) {
  testing::TempDir tmp;
  auto missing = testing::RunCommand(std::string(STRATA_VIZ_BINARY) + " " + (tmp.path() / "nope.ibd").string());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nope.ibd: not found"), std::string::npos) << missing.err;
  std::ofstream(tmp.path() / "empty.ibd");
  auto empty = testing::RunCommand(std::string(STRATA_VIZ_BINARY) + " " + (tmp.path() / "empty.ibd").string());
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.err.find("empty.ibd"), std::string::npos) << empty.err;
}

TEST(ViewerTest, ScreenshotUnderXvfbShowsTheMapColours) {
  testing::TempDir tmp;
  const auto shot = tmp.path() / "shot.png";
  const auto hist = testing::TestDataDir() / "mariadb-history/hist";
  // LeakSanitizer would report Mesa's own allocations in the sanitizer build.
  auto r =
      testing::RunCommand("ASAN_OPTIONS=detect_leaks=0 xvfb-run -a -s '-screen 0 1280x800x24' " +
                          std::string(STRATA_VIZ_BINARY) + " " + (hist / "t_sec.ibd").string() + " " +
                          (hist / "t_uuid.ibd").string() + " --map index --frames 3 --screenshot " + shot.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto png = ReadPng(shot);
  ASSERT_TRUE(png.ok()) << png.status().ToString();
  EXPECT_EQ(png->width(), 1280);
  EXPECT_EQ(png->height(), 800);
  std::map<std::tuple<int, int, int>, std::uint64_t> colors;
  for (int y = 0; y < png->height(); ++y) {
    for (int x = 0; x < png->width(); ++x) {
      Rgb c = png->At(x, y);
      colors[std::make_tuple(c.r, c.g, c.b)]++;
    }
  }
  EXPECT_GT(colors.size(), 20u) << "the screenshot is blank";
  // The index map: t_sec's three indexes, each in a colour of its own, cover cells of the map.
  int index_colours = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    const Rgb c = inspect::CategoryColor(i);
    index_colours += colors[std::make_tuple(c.r, c.g, c.b)] > 6u * 6u * 5u;
  }
  EXPECT_GE(index_colours, 3);
}

// --page opens the page panel; a ROW_FORMAT=COMPRESSED page shows the parts of the stored
// page in their colours: the zlib stream, the modification log, the dense directory.
TEST(ViewerTest, CompressedPageShowsItsStreamLogAndDirectory) {
  testing::TempDir tmp;
  const auto shot = tmp.path() / "shot.png";
  testing::Gunzip(testing::TestDataDir() / "mariadb-compressed" / "zip2.ibd.gz", tmp.path() / "zip2.ibd");
  auto r = testing::RunCommand("ASAN_OPTIONS=detect_leaks=0 xvfb-run -a -s '-screen 0 1280x800x24' " +
                               std::string(STRATA_VIZ_BINARY) + " " + (tmp.path() / "zip2.ibd").string() +
                               " --page 3 --frames 3 --screenshot " + shot.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto png = ReadPng(shot);
  ASSERT_TRUE(png.ok()) << png.status().ToString();
  std::map<std::tuple<int, int, int>, std::uint64_t> colors;
  for (int y = 0; y < png->height(); ++y) {
    for (int x = 0; x < png->width(); ++x) {
      Rgb c = png->At(x, y);
      colors[std::make_tuple(c.r, c.g, c.b)]++;
    }
  }
  // The band is 24 pixels high; each part at least one column wide, plus its legend swatch.
  EXPECT_GT((colors[std::make_tuple(66, 135, 245)]), 24u) << "zlib stream";
  EXPECT_GT((colors[std::make_tuple(70, 190, 190)]), 24u) << "modification log";
  EXPECT_GT((colors[std::make_tuple(245, 130, 48)]), 24u) << "dense directory";
  EXPECT_EQ(
      testing::RunCommand(std::string(STRATA_VIZ_BINARY) + " --page x " + (tmp.path() / "zip2.ibd").string()).exit_code,
      2);
}

TEST(ViewerTest, BadArgumentsExitTwo) {
  EXPECT_EQ(testing::RunCommand(std::string(STRATA_VIZ_BINARY)).exit_code, 2);
  EXPECT_EQ(testing::RunCommand(std::string(STRATA_VIZ_BINARY) + " --map nope x.ibd").exit_code, 2);
  EXPECT_EQ(testing::RunCommand(std::string(STRATA_VIZ_BINARY) + " --help").exit_code, 0);
}

// A killed server's directory: the undo panel's history length is the files' as they are,
// and the viewer says so (on stderr too) as inspect undo does; it showed the stale figure alone.
TEST(ViewerTest, AStaleHistoryLengthIsSaidToBeStale) {
  testing::TempDir tmp;
  for (const char* f : {"ibdata1", "ib_logfile0"})
    testing::Gunzip(testing::TestDataDir() / "mariadb-stale" / (std::string(f) + ".gz"), tmp.path() / f);
  const auto shot = tmp.path() / "shot.png";
  auto r = testing::RunCommand("ASAN_OPTIONS=detect_leaks=0 xvfb-run -a -s '-screen 0 1280x800x24' " +
                               std::string(STRATA_VIZ_BINARY) + " " + (tmp.path() / "ibdata1").string() +
                               " --frames 3 --screenshot " + shot.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("strata-viz: warning: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stale"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strata::viz
