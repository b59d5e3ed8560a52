// `strata render` as a user runs it: a whole data directory into a grid no wider than asked,
// widths it cannot honour refused, and a damaged file drawn but said to be damaged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"
#include "viz/raster.h"

namespace {

using strata::testing::Strata;
using strata::testing::TempDir;
namespace fs = std::filesystem;

const fs::path kSakila = strata::testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila";

TEST(RenderCliTest, ADataDirectoryFitsTheWidthAsked) {
  TempDir tmp;
  for (const char* map : {"extents", "lsn", "types", "index"}) {
    const fs::path out = tmp.path() / (std::string(map) + ".png");
    const auto r = Strata(std::string("render ") + map + " " + kSakila.string() + " --width 1600 -o " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("25 files"), std::string::npos) << r.out;
    auto png = strata::viz::ReadPng(out);
    ASSERT_TRUE(png.ok()) << png.status().ToString();
    EXPECT_LE(png->width(), 1600) << map;
    EXPECT_GT(png->width(), 1200) << map << ": a grid uses the width";
  }
  EXPECT_EQ(Strata("render lsn --rank " + kSakila.string() + " -o " + (tmp.path() / "rank.svg").string()).exit_code, 0);
}

TEST(RenderCliTest, AWidthTooSmallToDrawIsAUsageError) {
  TempDir tmp;
  for (const char* width : {"100", "0", "-5"}) {
    const auto r = Strata(std::string("render extents --width ") + width + " " + (kSakila / "film.ibd").string() +
                          " -o " + (tmp.path() / "w.png").string());
    EXPECT_EQ(r.exit_code, 2) << width;
    EXPECT_NE(r.err.find("--width"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(tmp.path() / "w.png")) << width;
  }
}

TEST(RenderCliTest, ADamagedFileIsDrawnAndSaidToBeDamaged) {
  TempDir tmp;
  const fs::path copy = tmp.path() / "film.ibd";
  fs::copy_file(kSakila / "film.ibd", copy);
  strata::testing::OverwriteAt(copy, 6 * 16384 + 300, std::string(100, 'x'));
  const auto r = Strata("render extents " + copy.string() + " -o " + (tmp.path() / "bad.png").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(copy.string() + ": 1 page fails its checksum"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(tmp.path() / "bad.png")) << "the picture is still drawn";
}

}  // namespace
