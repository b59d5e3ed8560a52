// ROW_FORMAT=COMPRESSED tables read row by row: the files a private MariaDB 10.11 wrote with
// every KEY_BLOCK_SIZE (tests/data/mariadb-compressed, made by
// tests/data/mariadb-compressed/make.sh) print exactly what its `mariadb -B` printed,
// off-page values and rows changed after the load (the pages' modification logs) included.
#include <gtest/gtest.h>

#include <fstream>

#include "inspect/create_table.h"
#include "inspect/frm.h"
#include "inspect/index_report.h"
#include "inspect/row_output.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/page_type.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

struct ZipTable {
  fs::path ibd;
  TableDef def;
};

// zip<k>.ibd and its .frm, unpacked into tmp; the definition read from the .frm.
ZipTable Unpack(const testing::TempDir& tmp, int k) {
  const fs::path dir = testing::TestDataDir() / "mariadb-compressed";
  const std::string name = "zip" + std::to_string(k);
  ZipTable t{tmp.path() / (name + ".ibd"), {}};
  testing::Gunzip(dir / (name + ".ibd.gz"), t.ibd);
  testing::Gunzip(dir / (name + ".frm.gz"), tmp.path() / (name + ".frm"));
  const std::string frm = testing::ReadText(tmp.path() / (name + ".frm"));
  auto def = TableFromFrm({reinterpret_cast<const std::byte*>(frm.data()), frm.size()}, name);
  EXPECT_TRUE(def.ok()) << def.status().ToString();
  if (def.ok()) t.def = std::move(*def);
  return t;
}

std::string Truth(int k) {
  return testing::ReadText(testing::TestDataDir() / "mariadb-compressed" / (k == 1 ? "zip1.tsv" : "zip.tsv"));
}

TEST(CompressedRowsTest, EveryKeyBlockSizeReadsAsTheServerPrints) {
  testing::TempDir tmp;
  for (int k : {1, 2, 4, 8, 16}) {
    SCOPED_TRACE("KEY_BLOCK_SIZE=" + std::to_string(k));
    ZipTable t = Unpack(tmp, k);
    auto file = SpaceFile::Open(t.ibd);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(file->shape().compressed());
    ASSERT_TRUE(PlaceInFile(t.def, *file).ok());
    std::string ours = TsvHeader(RowColumns(t.def, *t.def.Clustered()), false);
    RowScan scan = ScanRows(*file, t.def, *t.def.Clustered(), false, [&](const Row& r) { ours += TsvLine(r, false); });
    EXPECT_TRUE(scan.findings.empty()) << scan.findings[0].ToString();
    EXPECT_EQ(scan.unknown_cells, 0u);
    EXPECT_EQ(ours, Truth(k));
    // The secondary index holds one entry per row. (Made with the table, its root is page 4;
    // the .frm does not say where it is, the server's ibdata1 would.)
    for (IndexDef& ix : t.def.indexes) {
      if (ix.clustered) continue;
      ix.root_page = 4;
      ix.id = ondisk::Load64(file->page(4), ondisk::IndexPage::kIndexId);
      std::size_t entries = 0;
      RowScan s = ScanRows(*file, t.def, ix, false, [&](const Row&) { ++entries; });
      EXPECT_TRUE(s.findings.empty());
      EXPECT_EQ(entries, 1030u) << ix.name;
    }
  }
}

// `inspect index` gives each level's fill twice: of the logical pages (as for any table) and
// of the stored compressed pages, which a modification log fills up before the page is
// recompressed or split.
TEST(CompressedRowsTest, IndexFillIsGivenAsStoredAndAsUnpacked) {
  testing::TempDir tmp;
  ZipTable t = Unpack(tmp, 2);
  auto file = SpaceFile::Open(t.ibd);
  ASSERT_TRUE(file.ok());
  IndexesReport r = AnalyzeIndexes(*file);
  ASSERT_EQ(r.indexes.size(), 2u);
  for (const IndexReport& ix : r.indexes) {
    for (const LevelStats& l : ix.levels) {
      EXPECT_EQ(l.stored_pages, l.pages);
      EXPECT_GT(l.stored_fill_min, 0.0);
      EXPECT_LE(l.stored_fill_max, 1.0);
      // 2 KiB pages that unpack to 16 KiB: the stored pages are far fuller than the logical ones.
      if (l.level == 0) {
        EXPECT_GT(l.stored_fill_avg, 2 * l.fill_avg);
      }
    }
  }
  EXPECT_NE(ToText(r).find("as stored (compressed pages)"), std::string::npos);
}

// MySQL 9.0's compressed file: its rows, through the dictionary (SDI) its compressed pages hold.
TEST(CompressedRowsTest, MySqlCompressedFileReadsThroughItsOwnDictionary) {
  auto file =
      SpaceFile::Open(testing::SharedFixturesDir() / "external" / "idb-utils-mysql90" / "mysql90_compressed.ibd");
  ASSERT_TRUE(file.ok());
  Dictionary dict = ReadDictionary(*file);
  EXPECT_TRUE(dict.findings.empty()) << dict.findings[0].ToString();
  ASSERT_EQ(dict.tables.size(), 1u);
  const TableDef& t = dict.tables[0];
  std::string ours;
  RowScan scan = ScanRows(*file, t, *t.Clustered(), false, [&](const Row& r) { ours += TsvLine(r, false); });
  EXPECT_TRUE(scan.findings.empty());
  EXPECT_EQ(ours, "1\tcompressed row 1\n2\tcompressed row 2\n");
}

// Damage inside a compressed leaf: its rows are lost or marked, never invented, and the scan
// says where; the other leaves' rows are all there.
TEST(CompressedRowsTest, DamagedLeafIsSaidAndTheOthersRead) {
  testing::TempDir tmp;
  ZipTable t = Unpack(tmp, 4);
  std::uint32_t leaf = 0;
  std::size_t on_leaf = 0;
  {
    auto file = SpaceFile::Open(t.ibd);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(PlaceInFile(t.def, *file).ok());
    ScanRows(*file, t.def, *t.def.Clustered(), false, [&](const Row& r) { leaf = std::max(leaf, r.page); });
    ScanRows(*file, t.def, *t.def.Clustered(), false, [&](const Row& r) { on_leaf += r.page == leaf; });
  }
  ASSERT_GT(on_leaf, 0u);
  testing::FlipBitsAt(t.ibd, std::uint64_t{leaf} * 4096 + 300, 0x10);  // the middle of the leaf's zlib stream
  auto file = SpaceFile::Open(t.ibd);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(PlaceInFile(t.def, *file).ok());
  const std::string truth = Truth(4);
  std::size_t rows = 0, marked = 0, not_in_truth = 0;
  RowScan scan = ScanRows(*file, t.def, *t.def.Clustered(), false, [&](const Row& r) {
    ++rows;
    if (r.page_damaged)
      ++marked;
    else if (truth.find(TsvLine(r, false)) == std::string::npos)
      ++not_in_truth;
  });
  EXPECT_EQ(not_in_truth, 0u);  // an unmarked row is a true row
  EXPECT_GE(rows, 1030u - on_leaf);
  ASSERT_FALSE(scan.findings.empty());
  EXPECT_EQ(scan.findings[0].page, std::optional<std::uint32_t>(leaf));
}

// A compressed BLOB page that fails its checksum marks the rows whose values it holds.
TEST(CompressedRowsTest, ValueFromADamagedCompressedBlobPageSaysSo) {
  testing::TempDir tmp;
  ZipTable t = Unpack(tmp, 2);
  std::uint32_t zblob = 0;
  {
    auto file = SpaceFile::Open(t.ibd);
    ASSERT_TRUE(file.ok());
    for (std::uint32_t p = 0; p < file->n_pages() && !zblob; ++p) {
      if (ondisk::FilHeader(file->page(p)).type() == ondisk::PageType::kZBlob && !file->allocation().IsFree(p))
        zblob = p;
    }
  }
  ASSERT_NE(zblob, 0u);
  // a byte past the end of the zlib stream: the value still inflates, the checksum fails
  testing::OverwriteAt(t.ibd, std::uint64_t{zblob} * 2048 + 2040, "\x5a");
  auto file = SpaceFile::Open(t.ibd);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(PlaceInFile(t.def, *file).ok());
  std::size_t damaged = 0;
  RowScan scan = ScanRows(*file, t.def, *t.def.Clustered(), false, [&](const Row& r) { damaged += r.page_damaged; });
  EXPECT_EQ(damaged, 1u);
  ASSERT_EQ(scan.findings.size(), 1u);
  EXPECT_EQ(scan.findings[0].page, std::optional<std::uint32_t>(zblob));
}

}  // namespace
}  // namespace strata::inspect
