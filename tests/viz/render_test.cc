// Maps: colour scales, layout, legend numbers, and the pixels of rendered images counted back
// against the pages they stand for.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "inspect/colors.h"
#include "inspect/lsn_report.h"
#include "inspect/schema.h"
#include "inspect/summary.h"
#include "viz/map_model.h"
#include "viz/output_file.h"
#include "viz/render.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::viz {
namespace {

using inspect::Rgb;
using inspect::SpaceFile;
using ondisk::Status;

SpaceFile Open(const std::filesystem::path& p) {
  auto f = SpaceFile::Open(p);
  EXPECT_TRUE(f.ok()) << p;
  return std::move(*f);
}

TEST(ColorTest, ViridisRunsDarkToBrightThroughItsStops) {
  EXPECT_EQ(inspect::Viridis(0), (Rgb{68, 1, 84}));
  EXPECT_EQ(inspect::Viridis(1), (Rgb{253, 231, 37}));
  EXPECT_EQ(inspect::Viridis(-3), inspect::Viridis(0));  // clamped
  // Perceived brightness rises monotonically along the scale.
  double last = -1;
  for (int i = 0; i <= 100; ++i) {
    Rgb c = inspect::Viridis(i / 100.0);
    const double luma = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
    EXPECT_GE(luma, last - 0.5) << i;
    last = luma;
  }
}

TEST(ColorTest, CategoryColorsAreDistinctAndLightenGoesToWhite) {
  for (std::size_t a = 0; a < 8; ++a) {
    for (std::size_t b = a + 1; b < 8; ++b) EXPECT_NE(inspect::CategoryColor(a), inspect::CategoryColor(b));
  }
  EXPECT_EQ(inspect::CategoryColor(8), inspect::CategoryColor(0));
  EXPECT_EQ(inspect::Lighten({10, 20, 30}, 1), (Rgb{255, 255, 255}));
  EXPECT_EQ(inspect::Lighten({10, 20, 30}, 0), (Rgb{10, 20, 30}));
}

TEST(ModelTest, LegendCountsEqualTheSummarysPageCounts) {
  auto f = Open(testing::TestDataDir() / "mariadb/t_int.ibd");
  MapModel m = BuildModel({{&f, nullptr}}, {MapKind::kIndex, false, 1024, ""});
  inspect::SpaceSummary s = inspect::Summarize(f);
  ASSERT_EQ(m.panels.size(), 1u);
  std::map<std::string, std::uint64_t> legend;
  std::uint64_t total = 0;
  for (const auto& e : m.panels[0].legend) legend[e.label] = e.pages, total += e.pages;
  EXPECT_EQ(total, f.n_pages());
  for (const auto& ix : s.indexes) {
    EXPECT_EQ(legend["index " + std::to_string(ix.index_id)], ix.leaf_pages + ix.nonleaf_pages);
  }
}

TEST(ModelTest, PanelsShareOneLayoutAndBigFilesAreDownsampled) {
  auto small = Open(testing::TestDataDir() / "mariadb/t_int.ibd");
  auto film = Open(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd");
  MapModel m = BuildModel({{&small, nullptr}, {&film, nullptr}}, {MapKind::kTypes, false, 1024, ""});
  EXPECT_EQ(m.pages_per_row, 64u);
  EXPECT_EQ(m.pages_per_cell, 1u);
  EXPECT_EQ(m.panels[0].cells.size(), small.n_pages());
  // Forced to at most 1 row: every cell stands for several pages, and the legend still counts pages.
  MapModel tight = BuildModel({{&small, nullptr}, {&film, nullptr}}, {MapKind::kTypes, false, 1, ""});
  EXPECT_EQ(tight.pages_per_cell, 1u);  // 22 pages fit one 64-page row
  MapModel squeezed = BuildModel({{&film, nullptr}}, {MapKind::kTypes, false, 1, ""});
  EXPECT_EQ(squeezed.rows, 1u);
  std::uint64_t total = 0;
  for (const auto& e : squeezed.panels[0].legend) total += e.pages;
  EXPECT_EQ(total, film.n_pages());
}

TEST(ModelTest, SharedScaleUsesOneLsnRangeForAllFiles) {
  auto a = Open(testing::TestDataDir() / "mariadb-history/hist/t_uuid.ibd");
  auto b = Open(testing::TestDataDir() / "mariadb-history/hist/t_autoinc.ibd");
  MapModel shared = BuildModel({{&a, nullptr}, {&b, nullptr}}, {MapKind::kLsn, true, 1024, ""});
  EXPECT_EQ(shared.panels[0].lsn_min, shared.panels[1].lsn_min);
  EXPECT_EQ(shared.panels[0].lsn_max, shared.panels[1].lsn_max);
  MapModel own = BuildModel({{&a, nullptr}, {&b, nullptr}}, {MapKind::kLsn, false, 1024, ""});
  EXPECT_NE(own.panels[0].lsn_min, own.panels[1].lsn_min);
}

// Golden statistics: in the rendered PNG, each legend colour covers exactly its page count of
// cells inside the map (index and types maps draw one flat colour per page; an LSN map's written
// pages, the scale's colours).
void ExpectPixelsMatchLegend(const std::filesystem::path& file, MapKind kind) {
  auto f = Open(file);
  MapModel m = BuildModel({{&f, nullptr}}, {kind, false, 1024, ""});
  testing::TempDir tmp;
  ASSERT_TRUE(WriteMap(m, {}, tmp.path() / "map.png").ok());
  auto png = ReadPng(tmp.path() / "map.png");
  ASSERT_TRUE(png.ok()) << png.status().ToString();
  const Layout l = ComputeLayout(m, {});
  ASSERT_EQ(png->width(), l.width);
  ASSERT_EQ(png->height(), l.height);
  const PanelBox& b = l.panels[0];
  std::map<std::tuple<int, int, int>, std::uint64_t> pixels;
  for (int y = b.map_y; y < b.map_y + static_cast<int>(b.rows) * b.cell; ++y) {
    for (int x = b.map_x; x < b.map_x + static_cast<int>(m.cells_per_row) * b.cell; ++x) {
      Rgb c = png->At(x, y);
      pixels[std::make_tuple(c.r, c.g, c.b)]++;
    }
  }
  // An LSN map's written pages take the scale's colours: they are the pixels of no flat legend
  // colour and not the background.
  std::uint64_t unexplained = 0;
  for (const auto& [c, n] : pixels) {
    bool flat = c == std::make_tuple(255, 255, 255);
    for (const auto& e : m.panels[0].legend)
      flat |= !e.lsn_scale && c == std::make_tuple(e.color.r, e.color.g, e.color.b);
    if (!flat) unexplained += n;
  }
  for (const auto& e : m.panels[0].legend) {
    const std::uint64_t covered = e.lsn_scale ? unexplained : pixels[std::make_tuple(e.color.r, e.color.g, e.color.b)];
    EXPECT_EQ(covered, e.pages * b.cell * b.cell) << file << ": " << e.label;
  }
}

TEST(RenderTest, PngPixelsMatchTheLegendOnAMariaDbFile) {
  ExpectPixelsMatchLegend(testing::TestDataDir() / "mariadb-history/hist/t_sec.ibd", MapKind::kIndex);
  ExpectPixelsMatchLegend(testing::TestDataDir() / "mariadb-history/hist/t_sec.ibd", MapKind::kTypes);
  ExpectPixelsMatchLegend(testing::TestDataDir() / "mariadb-history/hist/t_uuid.ibd", MapKind::kLsn);
}

TEST(RenderTest, PngPixelsMatchTheLegendOnASakilaFile) {
  ExpectPixelsMatchLegend(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd", MapKind::kIndex);
  ExpectPixelsMatchLegend(testing::SharedFixturesDir() / "mysql-sakila/5.7/sakila/inventory.ibd", MapKind::kTypes);
  ExpectPixelsMatchLegend(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd", MapKind::kLsn);
}

TEST(RenderTest, SvgHasACellForEveryPageAndTheLegendNumbers) {
  auto f = Open(testing::TestDataDir() / "mariadb/t_uuid.ibd");
  MapModel m = BuildModel({{&f, nullptr}}, {MapKind::kLsn, false, 1024, "t"});
  const std::string svg = RenderSvg(m, {});
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  for (const auto& e : m.panels[0].legend) {
    EXPECT_NE(svg.find(Thousands(e.pages) + (e.pages == 1 ? " page" : " pages")), std::string::npos) << e.label;
  }
  EXPECT_NE(svg.find("LSN "), std::string::npos);  // the histogram's axis
}

// The layout's golden statistics: no two texts overlap, none is smaller than legible, nothing is
// wider than asked, texts stay in the picture, and many files wrap into a grid rather than a
// strip: the 25 files of sakila at 1600 px (the width the old renderer ignored), a data
// directory's LSN maps, a narrow page.
void ExpectTidyLayout(const MapModel& m, int width) {
  Layout l;
  const Scene s = LayOut(m, {width}, &l);
  EXPECT_LE(s.width, width);
  EXPECT_EQ(s.width, l.width);
  for (std::size_t i = 0; i < s.texts.size(); ++i) {
    const Box a = s.texts[i].box();
    EXPECT_GE(a.x, 0) << s.texts[i].text;
    EXPECT_LE(a.x + a.w, s.width) << s.texts[i].text;
    EXPECT_LE(a.y + a.h, s.height) << s.texts[i].text;
    EXPECT_GE(s.texts[i].px, kSmallestTextPx) << s.texts[i].text;
    for (std::size_t j = i + 1; j < s.texts.size(); ++j) {
      EXPECT_FALSE(a.Overlaps(s.texts[j].box())) << "'" << s.texts[i].text << "' and '" << s.texts[j].text << "'";
    }
  }
  for (const auto& r : s.rects) {
    const Box cell{r.x, r.y, r.w, r.h};
    for (const auto& t : s.texts) EXPECT_FALSE(cell.Overlaps(t.box())) << "a cell under '" << t.text << "'";
  }
}

TEST(RenderTest, ManyFilesWrapIntoAGridWhereNoTextOverlaps) {
  std::vector<SpaceFile> files;
  for (const auto& e : std::filesystem::directory_iterator(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila")) {
    if (e.path().extension() == ".ibd") files.push_back(Open(e.path()));
  }
  ASSERT_EQ(files.size(), 25u);
  std::vector<MapInput> inputs;
  for (const auto& f : files) inputs.push_back({&f, nullptr});
  for (MapKind kind : {MapKind::kExtents, MapKind::kTypes, MapKind::kLsn}) {
    const MapModel m = BuildModel(inputs, {kind, false, 1024, "sakila, every file"});
    ExpectTidyLayout(m, 1600);
    ExpectTidyLayout(m, 640);
    Layout l;
    LayOut(m, {1600}, &l);
    EXPECT_GE(l.columns, 3) << "a grid, not a strip";
    EXPECT_LE(l.columns, 6);
  }
  auto a = Open(testing::TestDataDir() / "mariadb-history/hist/t_uuid.ibd");
  auto b = Open(testing::TestDataDir() / "mariadb-history/hist/t_autoinc.ibd");
  ExpectTidyLayout(
      BuildModel({{&a, nullptr}, {&b, nullptr}}, {MapKind::kLsn, true, 1024,
                                                  "a title far too long to fit "
                                                  "a narrow picture of two maps side by side, so it is cut"}),
      300);
}

// One colour per index name in every panel: the 25 sakila files, named by their dictionaries,
// give PRIMARY one colour throughout, and no two indexes of one file the same colour.
TEST(ModelTest, AnIndexNameHasOneColourInEveryPanel) {
  std::vector<SpaceFile> files;
  for (const auto& e : std::filesystem::directory_iterator(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila")) {
    if (e.path().extension() == ".ibd") files.push_back(Open(e.path()));
  }
  std::vector<inspect::Dictionary> names;
  for (const auto& f : files) names.push_back(inspect::ReadDictionary(f));
  std::vector<MapInput> inputs;
  for (std::size_t i = 0; i < files.size(); ++i) inputs.push_back({&files[i], &names[i]});
  const MapModel m = BuildModel(inputs, {MapKind::kIndex, false, 1024, ""});
  std::map<std::string, std::tuple<int, int, int>> colour_of;
  int primaries = 0;
  for (const auto& p : m.panels) {
    std::set<std::tuple<int, int, int>> in_panel;
    for (const auto& e : p.legend) {
      const auto c = std::make_tuple(e.color.r, e.color.g, e.color.b);
      const auto [it, added] = colour_of.emplace(e.label, c);
      EXPECT_EQ(it->second, c) << e.label << " in " << p.title;
      EXPECT_TRUE(in_panel.insert(c).second) << e.label << " shares its colour in " << p.title;
      primaries += e.label == "PRIMARY";
    }
  }
  EXPECT_GE(primaries, 10);
}

// A name too long for its column ends in "…" and is given whole in the key under the maps.
TEST(RenderTest, ShortenedNamesAreGivenInFull) {
  auto f = Open(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/fts_0000000000000451_being_deleted_cache.ibd");
  const MapModel m = BuildModel({{&f, nullptr}}, {MapKind::kTypes, false, 1024, ""});
  const Scene s = LayOut(m, {200});
  bool shortened = false;
  std::string all;  // every text in order: a name broken over lines reads whole
  for (const auto& t : s.texts) {
    shortened |= t.text.find("\xE2\x80\xA6") != std::string::npos && t.text.rfind("fts_", 0) == 0 &&
                 t.text.ends_with(".ibd");  // the ends kept: similar names stay apart
    all += t.text;
  }
  EXPECT_TRUE(shortened);
  std::string joined = all;  // lines break at spaces
  std::erase(joined, ' ');
  EXPECT_NE(joined.find("=fts_0000000000000451_being_deleted_cache.ibd"), std::string::npos) << all;
  for (const auto& e : m.panels[0].legend) {  // counts never cut off, however narrow
    EXPECT_NE(all.find(Thousands(e.pages) + (e.pages == 1 ? " page" : " pages")), std::string::npos) << e.label;
  }
}

// The same table written by two engines has one file name: each panel is titled by as much of
// its path as tells it from the other.
TEST(ModelTest, FilesOfOneNameAreToldApartByTheirPaths) {
  testing::TempDir tmp;
  for (const char* dir : {"strata-uuid/test", "mariadb-uuid/data/test"}) {
    std::filesystem::create_directories(tmp.path() / dir);
    std::filesystem::copy_file(testing::TestDataDir() / "mariadb/t_uuid.ibd", tmp.path() / dir / "t.ibd");
  }
  auto a = Open(tmp.path() / "strata-uuid/test/t.ibd");
  auto b = Open(tmp.path() / "mariadb-uuid/data/test/t.ibd");
  auto c = Open(testing::TestDataDir() / "mariadb/t_uuid.ibd");
  const MapModel m = BuildModel({{&a, nullptr}, {&b, nullptr}, {&c, nullptr}}, {MapKind::kTypes, false, 1024, ""});
  EXPECT_EQ(m.panels[0].title, "strata-uuid/test/t.ibd");
  EXPECT_EQ(m.panels[1].title, "mariadb-uuid/data/test/t.ibd");
  EXPECT_EQ(m.panels[2].title, "t_uuid.ibd") << "a name of its own stays short";
}

// Ranked LSN colours are `inspect lsn`'s age ranks: pages of one LSN share a colour.
TEST(ModelTest, RankedLsnColoursAreInspectLsnsAgeRanks) {
  auto f = Open(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/actor.ibd");
  ModelOptions o{MapKind::kLsn, false, 1024, ""};
  o.rank_within_file = true;
  const MapModel m = BuildModel({{&f, nullptr}}, o);
  const inspect::LsnReport r = inspect::AnalyzeLsn(f, inspect::BuildSpaceMap(f));
  int ties = 0;
  for (const auto& p : r.pages) {
    if (p.state != inspect::LsnState::kWritten) continue;
    EXPECT_EQ(m.panels[0].cells[p.page], inspect::Viridis(p.age_rank)) << "page " << p.page;
    for (const auto& q : r.pages) ties += q.page > p.page && q.state == inspect::LsnState::kWritten && q.lsn == p.lsn;
  }
  EXPECT_GT(ties, 0) << "actor.ibd has pages of one LSN";
}

// A page that fails its checksum is drawn as damaged in every map, never as what its bytes
// claim; its LSN stays out of the LSN map's range.
TEST(ModelTest, APageThatFailsItsChecksumIsDrawnAsDamaged) {
  testing::TempDir tmp;
  const auto path = tmp.path() / "film.ibd";
  std::filesystem::copy_file(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd", path);
  auto intact = Open(path);
  const std::uint64_t intact_max_lsn =
      BuildModel({{&intact, nullptr}}, {MapKind::kLsn, false, 1024, ""}).panels[0].lsn_max;
  // page 6's FIL_PAGE_LSN: a huge LSN, and the checksum no longer holds
  testing::OverwriteAt(path, 6 * 16384 + 16, std::string(8, '\xff'));
  auto damaged = Open(path);
  for (MapKind kind : {MapKind::kExtents, MapKind::kLsn, MapKind::kTypes, MapKind::kIndex}) {
    const MapModel m = BuildModel({{&damaged, nullptr}}, {kind, false, 1024, ""});
    const Panel& p = m.panels[0];
    EXPECT_EQ(p.damaged_pages, 1u) << ToString(kind);
    bool listed = false;
    for (const auto& e : p.legend) {
      if (e.label.rfind("damaged", 0) == 0) listed = e.pages == 1 && e.color == inspect::kBadColor;
    }
    EXPECT_TRUE(listed) << ToString(kind);
    EXPECT_EQ(p.cells[6], inspect::kBadColor) << ToString(kind);
    if (kind == MapKind::kLsn) {
      EXPECT_EQ(p.lsn_max, intact_max_lsn) << "the damaged page's LSN is not believed";
    }
  }
}

TEST(RenderTest, OutputMustBePngOrSvg) {
  auto f = Open(testing::TestDataDir() / "mariadb/t_uuid.ibd");
  MapModel m = BuildModel({{&f, nullptr}}, {MapKind::kTypes, false, 1024, ""});
  EXPECT_FALSE(WriteMap(m, {}, "/tmp/map.jpg").ok());
  EXPECT_FALSE(WriteMap(m, {}, "/no/such/dir/map.png").ok());
}

// A picture replaces the old one whole: a symlink at the destination is replaced, not written
// through; a failed write leaves the old picture as it was, not truncated.
TEST(RenderTest, OutputReplacesTheOldFileWholeOrNotAtAll) {
  auto f = Open(testing::TestDataDir() / "mariadb/t_uuid.ibd");
  MapModel m = BuildModel({{&f, nullptr}}, {MapKind::kTypes, false, 1024, ""});
  testing::TempDir tmp;
  const auto target = tmp.path() / "precious.txt";
  std::ofstream(target) << "not a picture";
  const auto link = tmp.path() / "map.png";
  std::filesystem::create_symlink(target, link);
  ASSERT_TRUE(WriteMap(m, {}, link).ok());
  EXPECT_FALSE(std::filesystem::is_symlink(link));
  EXPECT_EQ(testing::ReadWholeFile(target).size(), 13u) << "written through the symlink";
  EXPECT_TRUE(ReadPng(link).ok());
  // A private picture stays private when it is redrawn.
  std::filesystem::permissions(link, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  ASSERT_TRUE(WriteMap(m, {}, link).ok());
  EXPECT_EQ(std::filesystem::status(link).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  // A write that fails half way (as on a full disk) leaves the old picture and no temporary.
  const auto before = testing::ReadWholeFile(link);
  Status failed = WriteFileAtomically(link, [](std::FILE* out) {
    std::fputs("half a picture", out);
    return Status::IoError("No space left on device");
  });
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(testing::ReadWholeFile(link), before);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tmp.path()), {}), 2) << "a temporary file was left";
}

}  // namespace
}  // namespace strata::viz
