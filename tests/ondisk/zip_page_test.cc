// ROW_FORMAT=COMPRESSED pages written by a real MariaDB (tests/data/mariadb-compressed, every
// KEY_BLOCK_SIZE) and MySQL 9.0 (the shared idb-utils fixture) unpack to B-tree pages whose
// structure holds and whose records are all there.
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <vector>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/index_page.h"
#include "ondisk/page_type.h"
#include "ondisk/zip_page.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::ondisk {
namespace {

namespace fs = std::filesystem;

struct Unpacked {
  std::size_t index_pages = 0, leaf_records = 0, log_records = 0, blobs = 0;
};

ConstBytes PageOf(const std::vector<std::byte>& file, std::size_t physical, std::uint32_t n) {
  return {file.data() + std::size_t{n} * physical, physical};
}

// Unpacks every INDEX page of a file with `physical`-byte pages into `logical`-byte ones and
// checks each one's structure; then counts the records of the index rooted at `root` by
// descending to its leftmost leaf and following the leaf chain (freed pages keep old records).
Unpacked UnpackAll(const std::vector<std::byte>& file, std::size_t physical, std::size_t logical, std::uint32_t root,
                   const std::string& name) {
  Unpacked u;
  std::vector<std::byte> out(logical);
  for (std::uint32_t p = 0; (p + 1) * physical <= file.size(); ++p) {
    ConstBytes zip = PageOf(file, physical, p);
    if (FilHeader(zip).type() != PageType::kIndex) continue;
    ++u.index_pages;
    auto parts = DecompressIndexPage(zip, out);
    EXPECT_TRUE(parts.ok()) << name << " page " << p << ": " << parts.status().ToString();
    if (!parts.ok()) continue;
    auto ip = IndexPage::Open(out);
    EXPECT_TRUE(ip.ok()) << name << " page " << p << ": " << ip.status().ToString();
    if (!ip.ok()) continue;
    const Status st = ip->CheckStructure();
    EXPECT_TRUE(st.ok()) << name << " page " << p << ": " << st.ToString();
    u.log_records += parts->log_records;
    u.blobs += parts->n_blobs;
  }
  std::uint32_t p = root;
  for (int depth = 0; depth < 10; ++depth) {
    auto parts = DecompressIndexPage(PageOf(file, physical, p), out);
    if (!parts.ok()) return u;
    auto ip = IndexPage::Open(out);
    if (!ip.ok() || ip->is_leaf()) break;
    RecordWalker w(*ip);
    if (!w.Next()) return u;
    auto fields = DecodeCompactFields(out, w.origin(), parts->layout);
    if (!fields.ok()) return u;
    p = Load32(out, fields->back().offset);
  }
  for (int n = 0; p != kFilNull && n < 100000; ++n) {
    auto parts = DecompressIndexPage(PageOf(file, physical, p), out);
    if (!parts.ok()) break;
    auto ip = IndexPage::Open(out);
    if (!ip.ok()) break;
    u.leaf_records += ip->n_recs();
    p = Load32(out, FilHeader::kNext);
  }
  return u;
}

TEST(ZipPageTest, EveryMariaDbKeyBlockSizeUnpacksToWholeBTreePages) {
  testing::TempDir tmp;
  Unpacked total;
  for (std::size_t k : {1, 2, 4, 8, 16}) {
    const std::string name = "zip" + std::to_string(k);
    testing::Gunzip(testing::TestDataDir() / "mariadb-compressed" / (name + ".ibd.gz"), tmp.path() / (name + ".ibd"));
    const auto file = testing::ReadWholeFile(tmp.path() / (name + ".ibd"));
    const std::size_t physical = k * 1024;
    const Unpacked u = UnpackAll(file, physical, 16384, 3, name);
    EXPECT_GT(u.index_pages, 1u) << name;
    // The server's SELECT * returned 1,030 rows for each table.
    EXPECT_EQ(u.leaf_records, 1030u) << name;
    total.log_records += u.log_records;
    total.blobs += u.blobs;
  }
  // The fixture's deletes and updates after the load leave records in the modification logs,
  // and its long values off-page references in the trailers: both paths were taken.
  EXPECT_GT(total.log_records, 0u);
  EXPECT_GT(total.blobs, 0u);
}

TEST(ZipPageTest, MySqlCompressedPagesUnpack) {
  const fs::path path = testing::SharedFixturesDir() / "external" / "idb-utils-mysql90" / "mysql90_compressed.ibd";
  const auto file = testing::ReadWholeFile(path);
  // MySQL 8.0+ file-per-table: page 3 is the SDI's root, page 4 the clustered index's.
  const Unpacked u = UnpackAll(file, 8192, 16384, 4, "mysql90_compressed");
  EXPECT_GT(u.index_pages, 0u);
  EXPECT_GT(u.leaf_records, 0u);
  std::cout << u.index_pages << " pages, " << u.leaf_records << " records\n";
}

// A page whose stream holds no record: every record is in the modification log.
TEST(ZipPageTest, PageWhoseRecordsAreAllInTheLogUnpacks) {
  const auto page = testing::ReadWholeFile(testing::TestDataDir() / "mariadb-compressed" / "root-by-log.page");
  ASSERT_EQ(page.size(), 8192u);
  std::vector<std::byte> out(16384);
  auto parts = DecompressIndexPage(page, out);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ(parts->stream_end, 110u);  // 94 + the 16 bytes of the index description
  EXPECT_EQ(parts->log_records, 6u);
  auto ip = IndexPage::Open(out);
  ASSERT_TRUE(ip.ok());
  EXPECT_TRUE(ip->CheckStructure().ok());
  EXPECT_EQ(ip->n_recs(), 6u);
  EXPECT_FALSE(ip->is_leaf());
  // Each node pointer's child is an INDEX page of the level below, in ascending key order.
  RecordWalker w(*ip);
  std::size_t n = 0;
  while (w.Next()) {
    auto fields = DecodeCompactFields(out, w.origin(), parts->layout);
    ASSERT_TRUE(fields.ok());
    EXPECT_GT(Load32(out, fields->back().offset), 3u);
    ++n;
  }
  EXPECT_EQ(n, 6u);
}

// Damaged compressed pages are refused with a reason, never read past their bounds.
TEST(ZipPageTest, DamagedPagesAreRefusedNotOverrun) {
  testing::TempDir tmp;
  testing::Gunzip(testing::TestDataDir() / "mariadb-compressed" / "zip2.ibd.gz", tmp.path() / "zip2.ibd");
  const auto file = testing::ReadWholeFile(tmp.path() / "zip2.ibd");
  std::mt19937 rng(5);
  std::vector<std::byte> out(16384);
  std::size_t refused = 0, tried = 0;
  for (std::size_t p = 0; p + 2048 <= file.size(); p += 2048) {
    ConstBytes zip(file.data() + p, 2048);
    if (FilHeader(zip).type() != PageType::kIndex) continue;
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<std::byte> copy(zip.begin(), zip.end());
      const std::size_t at = kPageHeader + rng() % (copy.size() - kPageHeader);
      copy[at] ^= std::byte(1u << (rng() % 8));
      ++tried;
      auto parts = DecompressIndexPage(copy, out);
      if (!parts.ok()) {
        ++refused;
        EXPECT_FALSE(parts.status().message().empty());
      }
    }
  }
  EXPECT_GT(tried, 100u);
  EXPECT_GT(refused, 0u);
}

}  // namespace
}  // namespace strata::ondisk
