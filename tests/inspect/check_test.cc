// `inspect check` finds nothing on undamaged real files and finds every injected byte flip;
// damaged files give findings that name file, page and offset, and the rest is still read.
#include "inspect/check.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "inspect/page_info.h"
#include "inspect/summary.h"
#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/file_list.h"
#include "ondisk/fsp_header.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> RealFiles() {
  auto files = testing::IbdFilesUnder(testing::SharedFixturesDir() / "mysql-sakila");
  for (const char* dir : {"mariadb", "mariadb-history"}) {
    for (auto& f : testing::IbdFilesUnder(testing::TestDataDir() / dir)) files.push_back(f);
  }
  // MySQL 9.0's ROW_FORMAT=COMPRESSED (8 KiB pages, their own checksum) and MySQL 8.0's
  // ENCRYPTION='Y' (pages unreadable without the key): intact, so never called damaged.
  const fs::path external = testing::SharedFixturesDir() / "external";
  files.push_back(external / "idb-utils-mysql90" / "mysql90_compressed.ibd");
  files.push_back(external / "percona-parser" / "encrypted_test.ibd");
  return files;
}

CheckReport CheckFile(const fs::path& p) {
  auto f = SpaceFile::Open(p);
  EXPECT_TRUE(f.ok()) << p << ": " << f.status().ToString();
  return f.ok() ? CheckSpace(*f) : CheckReport{};
}

TEST(CheckTest, UndamagedRealFilesAreClean) {
  for (const auto& p : RealFiles()) {
    CheckReport r = CheckFile(p);
    EXPECT_TRUE(r.clean()) << p << ":\n" << ToText(r);
  }
  testing::TempDir tmp;
  const fs::path hist = testing::TestDataDir() / "mariadb-history";
  for (const char* f : {"ibdata1", "undo001", "undo002"}) {
    testing::Gunzip(hist / (std::string(f) + ".gz"), tmp.path() / f);
    CheckReport r = CheckFile(tmp.path() / f);
    EXPECT_TRUE(r.clean()) << f << ":\n" << ToText(r);
  }
}

// One flipped byte per copy, anywhere in the file: the page it hit is always reported.
TEST(CheckTest, FindsEveryInjectedByteFlip) {
  std::mt19937 rng(7);
  testing::TempDir tmp;
  int flips = 0;
  for (const fs::path& src :
       {testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd",
        testing::SharedFixturesDir() / "mysql-sakila/5.7/sakila/address.ibd",
        testing::TestDataDir() / "mariadb/t_int.ibd", testing::TestDataDir() / "mariadb/t_crc32.ibd"}) {
    const auto original = testing::ReadWholeFile(src);
    for (int trial = 0; trial < 60; ++trial, ++flips) {
      auto bytes = original;
      const std::size_t at = rng() % bytes.size();
      bytes[at] ^= std::byte(1u << (rng() % 8));
      const fs::path copy = tmp.path() / src.filename();
      testing::WriteWholeFile(copy, bytes);
      CheckReport r = CheckFile(copy);
      const std::uint32_t page = static_cast<std::uint32_t>(at / 16384);
      bool named = false;
      for (const auto& f : r.findings) named |= f.page == page;
      EXPECT_TRUE(named) << src.filename() << ": flip at byte " << at << " (page " << page << " offset " << at % 16384
                         << ") not reported:\n"
                         << ToText(r);
    }
  }
  EXPECT_EQ(flips, 240);
}

// ROW_FORMAT=COMPRESSED files as MariaDB writes them for every KEY_BLOCK_SIZE (1-16 KiB pages
// with the compressed-page checksum, no trailer, extents of 64 pages and a descriptor page
// every page-size pages): intact, they are clean, as innochecksum found them
// (tests/data/mariadb-compressed/innochecksum.txt).
TEST(CheckTest, CompressedFilesOfEveryPageSizeAreClean) {
  testing::TempDir tmp;
  for (const char* k : {"1", "2", "4", "8", "16"}) {
    const fs::path ibd = tmp.path() / ("zip" + std::string(k) + ".ibd");
    testing::Gunzip(testing::TestDataDir() / "mariadb-compressed" / ("zip" + std::string(k) + ".ibd.gz"), ibd);
    CheckReport r = CheckFile(ibd);
    EXPECT_TRUE(r.clean()) << ibd.filename() << ":\n" << ToText(r);
    EXPECT_GT(r.btree_pages, 10u) << ibd.filename();
    EXPECT_GT(r.lists_checked, 10u) << ibd.filename();
  }
}

// One flipped bit in a compressed file is always found on its page. (The compressed-page
// checksum leaves out the LSN, bytes 16-23, which nothing else holds a copy of: a flip there
// cannot be seen, so none is made.)
TEST(CheckTest, FindsEveryInjectedByteFlipInACompressedFile) {
  testing::TempDir tmp;
  testing::Gunzip(testing::TestDataDir() / "mariadb-compressed" / "zip1.ibd.gz", tmp.path() / "zip1.ibd");
  testing::Gunzip(testing::TestDataDir() / "mariadb-compressed" / "zip4.ibd.gz", tmp.path() / "zip4.ibd");
  std::mt19937 rng(11);
  for (const auto& [src, zip] :
       {std::pair{testing::SharedFixturesDir() / "external" / "idb-utils-mysql90" / "mysql90_compressed.ibd", 8192},
        std::pair{tmp.path() / "zip1.ibd", 1024}, std::pair{tmp.path() / "zip4.ibd", 4096}}) {
    const auto original = testing::ReadWholeFile(src);
    const std::size_t page_size = static_cast<std::size_t>(zip);
    for (int trial = 0; trial < 60; ++trial) {
      auto bytes = original;
      std::size_t at = rng() % bytes.size();
      if (at % page_size >= 16 && at % page_size < 24) at += 8;
      bytes[at] ^= std::byte(1u << (rng() % 8));
      const fs::path copy = tmp.path() / "flipped.ibd";
      testing::WriteWholeFile(copy, bytes);
      CheckReport r = CheckFile(copy);
      bool named = false;
      for (const auto& f : r.findings) named |= f.severity == Severity::kError && f.page == at / page_size;
      EXPECT_TRUE(named) << src.filename() << ": flip at byte " << at << " (page " << at / page_size << " offset "
                         << at % page_size << ") not reported:\n"
                         << ToText(r);
    }
  }
}

// An encrypted tablespace without its key: page 0 is in clear and checked as ever; the
// encrypted pages are said to be encrypted, once, and not followed.
TEST(CheckTest, EncryptedPagesAreSaidNotCalledDamaged) {
  const fs::path src = testing::SharedFixturesDir() / "external" / "percona-parser" / "encrypted_test.ibd";
  CheckReport r = CheckFile(src);
  ASSERT_TRUE(r.clean()) << ToText(r);
  ASSERT_EQ(r.findings.size(), 1u) << ToText(r);
  EXPECT_EQ(r.findings[0].what, "encrypted pages");
  EXPECT_NE(r.findings[0].detail.find("4 pages are encrypted"), std::string::npos) << r.findings[0].detail;
  auto f = SpaceFile::Open(src);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(Summarize(*f).encrypted_pages, 4u);
  EXPECT_EQ(Summarize(*f).checksum_failures, 0u);
  // What each page was before encryption stays in clear: the SDI root, then the table's root.
  EXPECT_EQ(PageTypeName(AnalyzePage(*f, 3), f->flavor()), "ENCRYPTED (SDI)");
  EXPECT_EQ(PageTypeName(AnalyzePage(*f, 4), f->flavor()), "ENCRYPTED (INDEX)");

  testing::TempDir tmp;
  auto bytes = testing::ReadWholeFile(src);
  bytes[200] ^= std::byte{0x10};  // page 0, the clear one
  testing::WriteWholeFile(tmp.path() / "e.ibd", bytes);
  r = CheckFile(tmp.path() / "e.ibd");
  EXPECT_FALSE(r.clean()) << ToText(r);
}

// A zero-filled SDI root or index root is damage (the server cannot open the table), though
// every page around it still verifies: all-zero pages pass the checksum check.
TEST(CheckTest, ZeroFilledRootPagesAreDamage) {
  for (const std::uint32_t root : {3u, 4u}) {
    testing::TempDir tmp;
    auto bytes = testing::ReadWholeFile(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd");
    std::fill(bytes.begin() + root * 16384, bytes.begin() + (root + 1) * 16384, std::byte{0});
    testing::WriteWholeFile(tmp.path() / "film.ibd", bytes);
    auto f = SpaceFile::Open(tmp.path() / "film.ibd");
    ASSERT_TRUE(f.ok());
    CheckReport r = CheckSpace(*f);
    EXPECT_FALSE(r.clean()) << ToText(r);
    bool named = false;
    for (const auto& x : r.findings) named |= x.what == "root page is all zeros" && x.page == root;
    EXPECT_TRUE(named) << ToText(r);
  }
}

// A zeroed leaf has no root to point at it, only its extent descriptor and its siblings: the
// descriptor marks it in use, so the check names it whether or not its siblings are readable.
TEST(CheckTest, ZeroFilledPagesInUseAreDamage) {
  const std::pair<fs::path, std::uint32_t> cases[] = {
      {testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd", 12},  // a leaf of PRIMARY
      {testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd", 17},  // the last leaf of an index
      {testing::TestDataDir() / "mariadb/t_uuid.ibd", 6},                       // MariaDB, full_crc32
  };
  for (const auto& [src, page] : cases) {
    testing::TempDir tmp;
    auto bytes = testing::ReadWholeFile(src);
    std::fill(bytes.begin() + page * 16384, bytes.begin() + (page + 1) * 16384, std::byte{0});
    testing::WriteWholeFile(tmp.path() / "t.ibd", bytes);
    auto f = SpaceFile::Open(tmp.path() / "t.ibd");
    ASSERT_TRUE(f.ok());
    CheckReport r = CheckSpace(*f);
    bool named = false;
    for (const auto& x : r.findings) named |= x.what == "page in use is all zeros" && x.page == page;
    EXPECT_TRUE(named) << src << " page " << page << "\n" << ToText(r);
  }
}

TEST(CheckTest, TruncatedFileIsReportedAndTheRestStillChecked) {
  testing::TempDir tmp;
  auto bytes = testing::ReadWholeFile(testing::TestDataDir() / "mariadb/t_int.ibd");
  bytes.resize(bytes.size() - 16384 - 1000);  // lose the last page and part of another
  testing::WriteWholeFile(tmp.path() / "t.ibd", bytes);
  auto f = SpaceFile::Open(tmp.path() / "t.ibd");
  ASSERT_TRUE(f.ok());
  CheckReport r = CheckSpace(*f);
  bool truncated = false, size = false;
  for (const auto& x : r.findings) {
    truncated |= x.what == "truncated file" && x.offset == std::size_t{16} * 16384;
    size |= x.what == "size mismatch" && x.page == 0u;
  }
  EXPECT_TRUE(truncated) << ToText(r);
  EXPECT_TRUE(size) << ToText(r);
  EXPECT_EQ(r.pages_checked, 16u);
}

TEST(CheckTest, ZeroedPageZeroStillReadsTheRest) {
  testing::TempDir tmp;
  auto bytes = testing::ReadWholeFile(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd");
  std::fill(bytes.begin(), bytes.begin() + 16384, std::byte{0});
  testing::WriteWholeFile(tmp.path() / "film.ibd", bytes);
  auto f = SpaceFile::Open(tmp.path() / "film.ibd");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->page_size(), 16384u);  // inferred from the other pages' numbers
  ASSERT_FALSE(f->findings().empty());
  EXPECT_EQ(f->findings()[0].what, "page 0 unreadable");
  EXPECT_EQ(f->findings()[0].page, 0u);
  EXPECT_NE(f->findings()[0].detail.find("all zeros"), std::string::npos);
  EXPECT_EQ(f->space_id().value(),
            ondisk::FilHeader(ondisk::ConstBytes(bytes.data() + 16384, 16384)).space_id().value())
      << "the space id comes from the other pages";
  SpaceSummary s = Summarize(*f);
  EXPECT_GT(s.type_counts["INDEX"], 10u);  // every B-tree page is still found
  EXPECT_EQ(s.misplaced_pages, 0u);
  CheckReport r = CheckSpace(*f);
  for (const auto& x : r.findings) EXPECT_NE(x.what, "misplaced page") << ToText(r);
}

// Where full_crc32 encryption or page compression hides the space id field, the other pages
// name no common space id: it is unknown, and no page is called misplaced for it.
TEST(CheckTest, ZeroedPageZeroOfAHiddenSpaceIdCallsNoPageMisplaced) {
  for (const char* gz : {"mariadb-page-compressed/fcrc32/pc_zlib.ibd.gz", "mariadb-encrypted/fcrc32/enc.ibd.gz",
                         "mariadb-encrypted/ctr/enc.ibd.gz"}) {
    testing::TempDir tmp;
    testing::Gunzip(testing::TestDataDir() / gz, tmp.path() / "t.ibd");
    testing::OverwriteAt(tmp.path() / "t.ibd", 0, std::string(16384, '\0'));
    auto f = SpaceFile::Open(tmp.path() / "t.ibd");
    ASSERT_TRUE(f.ok()) << gz;
    CheckReport r = CheckSpace(*f);
    for (const auto& x : r.findings) EXPECT_NE(x.what, "misplaced page") << gz << "\n" << ToText(r);
    EXPECT_EQ(Summarize(*f).misplaced_pages, 0u) << gz;
  }
}

TEST(CheckTest, FlagsNamingTheWrongPageSizeAreOverruled) {
  testing::TempDir tmp;
  auto bytes = testing::ReadWholeFile(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd");
  ondisk::MutableBytes page0(bytes.data(), 16384);
  ondisk::Store32(page0, ondisk::FspHeader::kFlags, 0x4021 | (4 << 6));  // claims 8 KiB pages
  testing::WriteWholeFile(tmp.path() / "film.ibd", bytes);
  auto f = SpaceFile::Open(tmp.path() / "film.ibd");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->page_size(), 16384u);
  ASSERT_FALSE(f->findings().empty());
  EXPECT_EQ(f->findings()[0].what, "page 0 unreadable");
  CheckReport r = CheckSpace(*f);
  EXPECT_FALSE(r.clean());
  EXPECT_GT(r.btree_pages, 10u);  // the rest of the file is still checked
}

TEST(CheckTest, RandomBytesGiveFindingsNotCrashes) {
  testing::TempDir tmp;
  std::mt19937 rng(3);
  std::vector<std::byte> bytes(16384 * 5 + 123);
  for (auto& b : bytes) b = std::byte(rng());
  testing::WriteWholeFile(tmp.path() / "noise.ibd", bytes);
  auto f = SpaceFile::Open(tmp.path() / "noise.ibd");
  ASSERT_TRUE(f.ok());
  CheckReport r = CheckSpace(*f);
  EXPECT_FALSE(r.clean());
  for (const auto& x : r.findings) EXPECT_FALSE(x.ToString().empty());
  (void)Summarize(*f);
}

TEST(CheckTest, LoopingExtentListIsFound) {
  testing::TempDir tmp;
  auto bytes = testing::ReadWholeFile(testing::SharedFixturesDir() / "mysql-sakila/8.0/sakila/film.ibd");
  // Make XDES entry 0's list node point at itself and re-stamp page 0 so only the list is wrong.
  ondisk::MutableBytes page0(bytes.data(), 16384);
  ondisk::FileAddr self{ondisk::PageNo(0), 150 + 8};
  self.EncodeTo(page0, 150 + 8 + 6);  // next
  ondisk::StampChecksum(page0, ondisk::ChecksumAlgorithm::kCrc32);
  testing::WriteWholeFile(tmp.path() / "film.ibd", bytes);
  CheckReport r = CheckFile(tmp.path() / "film.ibd");
  bool loop = false;
  for (const auto& x : r.findings) loop |= x.what == "broken extent list";
  EXPECT_TRUE(loop) << ToText(r);
}

TEST(CheckTest, TooSmallFileIsRefusedWithItsSize) {
  testing::TempDir tmp;
  testing::WriteWholeFile(tmp.path() / "tiny.ibd", std::vector<std::byte>(100));
  auto f = SpaceFile::Open(tmp.path() / "tiny.ibd");
  EXPECT_TRUE(f.status().IsCorruption());
  EXPECT_NE(f.status().message().find("100 bytes"), std::string::npos);
}

}  // namespace
}  // namespace strata::inspect
