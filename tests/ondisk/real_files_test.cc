// ondisk over files no one here wrote: MySQL 5.7/8.0 sakila and a MariaDB 10.11 set.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/index_page.h"
#include "ondisk/inode.h"
#include "ondisk/xdes.h"
#include "tests/util/fixtures.h"
#include "tests/util/tablespace_file.h"

namespace strata::ondisk {
namespace {

using testing::TablespaceFile;

std::vector<std::filesystem::path> AllRealFiles() {
  auto files = testing::IbdFilesUnder(testing::SharedFixturesDir() / "mysql-sakila");
  for (auto& f : testing::IbdFilesUnder(testing::TestDataDir() / "mariadb")) files.push_back(f);
  return files;
}

TEST(RealFilesTest, FspHeaderGivesTheFilesSizeAndSpaceId) {
  for (const auto& path : AllRealFiles()) {
    auto file = TablespaceFile::Load(path);
    auto fsp = FspHeader::Open(file.page(0));
    ASSERT_TRUE(fsp.ok()) << path << ": " << fsp.status().ToString();
    EXPECT_EQ(fsp->size(), file.n_pages()) << path;
    EXPECT_EQ(fsp->space_id(), FilHeader(file.page(0)).space_id()) << path;
    EXPECT_NE(fsp->space_id().value(), 0u) << path;
    EXPECT_TRUE(fsp->CheckLists().ok()) << path << ": " << fsp->CheckLists().ToString();
    EXPECT_GE(fsp->free_limit(), 64u) << path;
    for (std::size_t n = 0; n < file.n_pages(); ++n) {
      if (ValidatePage(file.page(n), file.full_crc32()).all_zero) continue;
      EXPECT_EQ(FilHeader(file.page(n)).space_id(), fsp->space_id()) << path << " page " << n;
    }
  }
}

TEST(RealFilesTest, FlagsDecodeAsTheServerWroteThem) {
  auto flags = [](const std::filesystem::path& p) {
    return *FspFlags::Decode(Load32(TablespaceFile::Load(p).page(0), FspHeader::kFlags));
  };
  auto f80 = flags(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/actor.ibd");
  EXPECT_EQ(f80.raw, 0x4021u);
  EXPECT_TRUE(f80.post_antelope && f80.atomic_blobs && f80.sdi && !f80.full_crc32);
  auto f57 = flags(testing::SharedFixturesDir() / "mysql-sakila/5.7/sakila/actor.ibd");
  EXPECT_EQ(f57.raw, 0x21u);
  EXPECT_FALSE(f57.sdi);
  auto maria = flags(testing::TestDataDir() / "mariadb/t_int.ibd");
  EXPECT_TRUE(maria.full_crc32);
  EXPECT_EQ(maria.page_size, 16384u);
  EXPECT_FALSE(flags(testing::TestDataDir() / "mariadb/t_crc32.ibd").full_crc32);
}

TEST(RealFilesTest, MySql80FilesNameTheirSdiRootOnPageZero) {
  for (const auto& path : testing::IbdFilesUnder(testing::SharedFixturesDir() / "mysql-sakila/8.0")) {
    auto file = TablespaceFile::Load(path);
    auto fsp = FspHeader::Open(file.page(0));
    ASSERT_TRUE(fsp.ok());
    EXPECT_EQ(fsp->sdi_version(), 1u) << path;
    EXPECT_EQ(fsp->sdi_root(), PageNo(3)) << path;
    EXPECT_EQ(FilHeader(file.page(3)).type(), PageType::kSdi) << path;
  }
}

TEST(RealFilesTest, EveryIndexPageWalksFromInfimumToSupremumWithNRecsRecords) {
  std::size_t index_pages = 0, records = 0;
  for (const auto& path : AllRealFiles()) {
    auto file = TablespaceFile::Load(path);
    for (std::size_t n = 0; n < file.n_pages(); ++n) {
      FilHeader fil(file.page(n));
      if (!IsBtreePage(fil.type(), Flavor::kMySql)) continue;
      auto page = IndexPage::Open(file.page(n));
      ASSERT_TRUE(page.ok()) << path << " page " << n << ": " << page.status().ToString();
      RecordWalker w(*page);
      std::size_t count = 0;
      while (w.Next()) ++count;
      ASSERT_TRUE(w.status().ok()) << path << " page " << n << ": " << w.status().ToString();
      EXPECT_EQ(count, page->n_recs()) << path << " page " << n;
      Status structure = page->CheckStructure();
      EXPECT_TRUE(structure.ok()) << path << " page " << n << ": " << structure.ToString();
      ++index_pages;
      records += count;
    }
  }
  EXPECT_GT(index_pages, 150u);
  EXPECT_GT(records, 10000u);
}

TEST(RealFilesTest, InodesAndExtentDescriptorsAreConsistent) {
  for (const auto& path : AllRealFiles()) {
    auto file = TablespaceFile::Load(path);
    PageSize ps(file.page_size);
    // Small files have one extent, described by entry 0 of page 0.
    XdesEntry e0(file.page(0), 0);
    EXPECT_TRUE(e0.Check().ok()) << path;
    EXPECT_FALSE(e0.is_free(0)) << path;  // page 0 is always in use
    auto fsp = FspHeader::Open(file.page(0));
    ASSERT_TRUE(fsp.ok());
    if (fsp->free_frag().length + fsp->full_frag().length == 1 && file.n_pages() <= 64) {
      EXPECT_EQ(e0.used_pages(), fsp->frag_n_used()) << path;
    }
    ASSERT_EQ(FilHeader(file.page(2)).type(), PageType::kInode) << path;
    std::uint32_t segments = 0;
    for (std::uint32_t i = 0; i < ps.inodes_per_page(); ++i) {
      InodeEntry inode(file.page(2), i);
      EXPECT_TRUE(inode.Check().ok()) << path << " inode " << i << ": " << inode.Check().ToString();
      if (!inode.in_use()) continue;
      ++segments;
      SegmentUsage u = inode.Usage();
      EXPECT_LE(u.used_pages, u.reserved_pages) << path;
      for (std::uint32_t s = 0; s < inode.frag_slots(); ++s) {
        PageNo p = inode.frag_page(s);
        if (p == kNullPage) continue;
        ASSERT_LT(p.value(), file.n_pages()) << path;
        auto loc = LocateXdes(p, ps);
        EXPECT_FALSE(XdesEntry(file.page(loc.descriptor_page.value()), loc.entry).is_free(loc.bit))
            << path << ": fragment page " << p.value() << " is marked free";
      }
    }
    EXPECT_GE(segments, 2u) << path;
    EXPECT_EQ(segments + 1, fsp->next_segment_id()) << path;
  }
}

TEST(RealFilesTest, RootPagesPointAtTheirSegments) {
  for (const auto& path : AllRealFiles()) {
    auto file = TablespaceFile::Load(path);
    PageSize ps(file.page_size);
    for (std::size_t n = 3; n < file.n_pages(); ++n) {
      if (!IsBtreePage(FilHeader(file.page(n)).type(), Flavor::kMySql)) continue;
      auto page = IndexPage::Open(file.page(n));
      ASSERT_TRUE(page.ok());
      if (!page->is_root()) continue;
      FsegHeader top = page->seg_top();
      ASSERT_TRUE(top.Check(ps, IndexPage::kSegTop).ok()) << path << " page " << n;
      ASSERT_TRUE(page->seg_leaf().Check(ps, IndexPage::kSegLeaf).ok()) << path << " page " << n;
      InodeEntry inode(file.page(top.page.value()), top.slot(ps));
      bool root_in_top = false;
      for (std::uint32_t s = 0; s < inode.frag_slots(); ++s) root_in_top |= inode.frag_page(s) == PageNo(n);
      EXPECT_TRUE(root_in_top) << path << ": root " << n << " missing from its top segment";
    }
  }
}

// The server's own report (information_schema.INNODB_BUFFER_PAGE, captured by
// tests/data/mariadb/make.sh) against what ondisk decodes from the same bytes.
TEST(RealFilesTest, MariaDbIndexPagesMatchTheServersRecordCountsAndDataSizes) {
  std::size_t compared = 0;
  for (const auto& path : testing::IbdFilesUnder(testing::TestDataDir() / "mariadb")) {
    auto file = TablespaceFile::Load(path);
    std::ifstream truth(testing::TestDataDir() / "mariadb/truth" / (path.stem().string() + ".pages.tsv"));
    ASSERT_TRUE(truth) << path;
    std::string line;
    std::getline(truth, line);  // header
    while (std::getline(truth, line)) {
      std::istringstream row(line);
      std::string space, page_no, type, n_recs, data_size;
      std::getline(row, space, '\t');
      std::getline(row, page_no, '\t');
      std::getline(row, type, '\t');
      std::getline(row, n_recs, '\t');
      std::getline(row, data_size, '\t');
      if (type != "INDEX") continue;
      auto page = IndexPage::Open(file.page(std::stoul(page_no)));
      ASSERT_TRUE(page.ok()) << path << " page " << page_no;
      EXPECT_EQ(page->n_recs(), std::stoul(n_recs)) << path << " page " << page_no;
      EXPECT_EQ(page->Space().data_size, std::stoul(data_size)) << path << " page " << page_no;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 38u);  // every INDEX page the server listed
}

}  // namespace
}  // namespace strata::ondisk
