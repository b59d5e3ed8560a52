// Where a page's bytes go (inspect/page_regions.h), on files real servers wrote: every page of
// every kind, in every page size and format, is cut into regions that follow one another from
// its first byte to its last; and on a B-tree page the records' bytes, less the page's
// garbage, are the DATA_SIZE MariaDB itself reported for that page.
#include "inspect/page_regions.h"

#include <gtest/gtest.h>

#include <map>

#include "inspect/space_file.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

// The region list holds together: no gap, no overlap, nothing past the page.
void ExpectContiguous(const SpaceFile& f, std::uint32_t n, const std::string& where) {
  const ondisk::ConstBytes page = f.page(n);
  const std::vector<PageRegion> regions = PageRegions(f, page);
  ASSERT_FALSE(regions.empty()) << where;
  std::size_t at = 0;
  for (const PageRegion& r : regions) {
    EXPECT_FALSE(r.name.empty()) << where;
    EXPECT_EQ(r.from, at) << where << ": " << r.name;
    EXPECT_LE(r.from, r.to) << where << ": " << r.name;
    at = r.to;
  }
  EXPECT_EQ(at, page.size()) << where;
}

std::size_t Bytes(const std::vector<PageRegion>& regions, const std::string& name) {
  for (const PageRegion& r : regions) {
    if (r.name == name) return r.to - r.from;
  }
  ADD_FAILURE() << "no region " << name;
  return 0;
}

TEST(PageRegionsTest, EveryPageOfRealFilesIsCutWithoutGapOrOverlap) {
  testing::TempDir unpacked;
  std::vector<fs::path> files = testing::IbdFilesUnder(testing::TestDataDir() / "mariadb");
  for (const auto& f : testing::IbdFilesUnder(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila"))
    files.push_back(f);
  // Gzipped fixtures: 32 and 64 KiB pages, ROW_FORMAT=COMPRESSED at each KEY_BLOCK_SIZE,
  // PAGE_COMPRESSED in both checksum formats, and encrypted pages read without their key.
  std::vector<fs::path> gz = {testing::TestDataDir() / "mariadb-large-pages/32k/t_pages.ibd.gz",
                              testing::TestDataDir() / "mariadb-large-pages/64k/t_pages.ibd.gz",
                              testing::TestDataDir() / "mariadb-page-compressed/crc32/pc_mixed.ibd.gz",
                              testing::TestDataDir() / "mariadb-page-compressed/fcrc32/pc_lz4.ibd.gz",
                              testing::TestDataDir() / "mariadb-encrypted/fcrc32/enc.ibd.gz"};
  for (const char* k : {"1", "2", "4", "8", "16"}) {
    gz.push_back(testing::TestDataDir() / (std::string("mariadb-compressed/zip") + k + ".ibd.gz"));
  }
  for (const fs::path& z : gz) {
    const fs::path out = unpacked.path() / (z.parent_path().filename().string() + "-" + z.stem().string());
    testing::Gunzip(z, out);
    files.push_back(out);
  }
  std::size_t pages = 0;
  std::map<std::string, std::size_t> seen;  // region names met, to show each kind was reached
  for (const fs::path& path : files) {
    auto f = SpaceFile::Open(path);
    ASSERT_TRUE(f.ok()) << path << ": " << f.status().ToString();
    for (std::uint32_t n = 0; n < f->n_pages(); ++n, ++pages) {
      ExpectContiguous(*f, n, path.filename().string() + " page " + std::to_string(n));
      for (const PageRegion& r : PageRegions(*f, f->page(n))) ++seen[r.name];
    }
  }
  EXPECT_GT(pages, 1000u);
  for (const char* name :
       {"records", "directory", "FIL trailer", "zlib stream", "modification log", "dense directory", "body"}) {
    EXPECT_GT(seen[name], 0u) << name;
  }
}

TEST(PageRegionsTest, RecordBytesLessGarbageAreTheServersDataSize) {
  std::size_t checked = 0;
  for (const fs::path& ibd : testing::IbdFilesUnder(testing::TestDataDir() / "mariadb")) {
    auto f = SpaceFile::Open(ibd);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    const fs::path truth = testing::TestDataDir() / "mariadb/truth" / (ibd.stem().string() + ".pages.tsv");
    for (const auto& row : testing::ReadTsv(truth)) {
      if (row.at("PAGE_TYPE") != "INDEX") continue;
      const auto n = static_cast<std::uint32_t>(std::stoul(row.at("PAGE_NUMBER")));
      const std::string where = ibd.filename().string() + " page " + std::to_string(n);
      auto ip = ondisk::IndexPage::Open(f->page(n));
      ASSERT_TRUE(ip.ok()) << where;
      const std::vector<PageRegion> regions = PageRegions(*f, f->page(n));
      EXPECT_EQ(Bytes(regions, "records") - ip->garbage(), std::stoul(row.at("DATA_SIZE"))) << where;
      EXPECT_EQ(Bytes(regions, "directory"), ondisk::kDirSlotSize * ip->n_dir_slots()) << where;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20u);
}

}  // namespace
}  // namespace strata::inspect
