// MariaDB PAGE_COMPRESSED tables read by the inspector: every algorithm in both page formats
// (tests/data/mariadb-page-compressed, made by
// tests/data/mariadb-page-compressed/make.sh) prints what `mariadb -B` printed, checks
// clean, and a flipped byte in a compressed page is found on its page.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "inspect/check.h"
#include "inspect/page_view.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "ondisk/page_compressed.h"
#include "tests/util/fixtures.h"
#include "tests/util/frm_rows.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

namespace fs = std::filesystem;

struct Table {
  std::string name;
  fs::path ibd;
};

std::vector<Table> Unpack(const testing::TempDir& tmp) {
  std::vector<Table> out;
  for (const char* format : {"fcrc32", "crc32"}) {
    for (const char* a : {"zlib", "lz4", "lzo", "lzma", "bzip2", "snappy", "mixed"}) {
      const fs::path dir = testing::TestDataDir() / "mariadb-page-compressed" / format;
      const std::string name = std::string("pc_") + a;
      if (!fs::exists(dir / (name + ".ibd.gz"))) continue;
      fs::create_directories(tmp.path() / format);
      Table t{std::string(format) + "/" + name, tmp.path() / format / (name + ".ibd")};
      testing::Gunzip(dir / (name + ".ibd.gz"), t.ibd);
      testing::Gunzip(dir / (name + ".frm.gz"), tmp.path() / format / (name + ".frm"));
      out.push_back(t);
    }
  }
  return out;
}

CheckReport CheckFile(const fs::path& p) {
  auto f = SpaceFile::Open(p);
  EXPECT_TRUE(f.ok()) << p << ": " << f.status().ToString();
  return f.ok() ? CheckSpace(*f) : CheckReport{};
}

TEST(PageCompressedRowsTest, EveryAlgorithmInBothFormatsReadsAsTheServerPrints) {
  testing::TempDir tmp;
  const std::string truth = testing::ReadText(testing::TestDataDir() / "mariadb-page-compressed" / "rows.tsv");
  const auto tables = Unpack(tmp);
  ASSERT_EQ(tables.size(), 13u);
  for (const Table& t : tables) {
    SCOPED_TRACE(t.name);
    auto file = SpaceFile::Open(t.ibd);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(file->shape().page_compressed());
    EXPECT_GT(file->unpacked().compressed_pages.size(), 0u);
    EXPECT_EQ(testing::RowsByFrm(*file), truth);
    CheckReport r = CheckFile(t.ibd);
    EXPECT_TRUE(r.clean()) << ToText(r);
    EXPECT_GT(r.btree_pages, 5u);
  }
  // The older format names the algorithm on each page: the mixed file has two.
  auto mixed = SpaceFile::Open(tmp.path() / "crc32" / "pc_mixed.ibd");
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->unpacked().compressed_pages.size(), 2u);
  EXPECT_NE(ToText(Summarize(*mixed)).find("lz4"), std::string::npos);
  // page N shows how each page is stored, and the page it decompresses to.
  const std::string view = ToText(ViewPage(*mixed, 3, true));
  EXPECT_NE(view.find("page compression"), std::string::npos) << view;
  EXPECT_NE(view.find("this page's own"), std::string::npos) << view;
  EXPECT_NE(view.find("records ("), std::string::npos) << view;
}

// One flipped byte inside a compressed page's payload is found, on that page: by the stored
// CRC (full_crc32), or because the page no longer decompresses or fails its own checksum.
// (A flip that leaves the decompressed page as it was changes nothing and is not counted.)
TEST(PageCompressedRowsTest, FlippedBytesAreFoundOnTheirPage) {
  testing::TempDir tmp;
  std::mt19937 rng(17);
  std::size_t found = 0, tried = 0;
  for (const Table& t : Unpack(tmp)) {
    if (t.name != "fcrc32/pc_zlib" && t.name != "crc32/pc_lz4" && t.name != "fcrc32/pc_snappy") continue;
    const auto original = testing::ReadWholeFile(t.ibd);
    const bool full_crc32 = t.name.rfind("fcrc32", 0) == 0;
    std::vector<std::uint32_t> compressed;
    for (std::uint32_t p = 0; (p + 1) * 16384 <= original.size(); ++p) {
      if (ondisk::IsPageCompressed(ondisk::ConstBytes(original.data() + p * 16384, 16384), full_crc32))
        compressed.push_back(p);
    }
    ASSERT_GT(compressed.size(), 5u);
    for (int trial = 0; trial < 20; ++trial) {
      const std::uint32_t p = compressed[rng() % compressed.size()];
      auto bytes = original;
      const std::size_t at = std::size_t{p} * 16384 + 60 + rng() % 200;  // early in the payload
      bytes[at] ^= std::byte(1u << (rng() % 8));
      const fs::path copy = tmp.path() / "flipped.ibd";
      std::ofstream(copy, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      ++tried;
      CheckReport r = CheckFile(copy);
      bool on_page = false;
      for (const Finding& f : r.findings) on_page |= f.severity == Severity::kError && f.page == p;
      found += on_page;
      if (!on_page) {
        EXPECT_TRUE(r.clean()) << t.name << " page " << p << ":\n" << ToText(r);  // found elsewhere: wrong
      }
    }
  }
  EXPECT_EQ(tried, 60u);
  EXPECT_GE(found, 55u);  // all, but for flips that change nothing once decompressed
}

}  // namespace
}  // namespace strata::inspect
