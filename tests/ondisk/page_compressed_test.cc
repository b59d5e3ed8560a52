// MariaDB PAGE_COMPRESSED pages of every algorithm, in both page formats, written by a real
// MariaDB 10.11 (tests/data/mariadb-page-compressed): each decompresses to the page it was,
// and a damaged one is never taken for intact.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "ondisk/checksum.h"
#include "ondisk/fil_header.h"
#include "ondisk/fsp_header.h"
#include "ondisk/page_compressed.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::ondisk {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kPage = 16384;

struct Fixture {
  std::string name;
  bool full_crc32;
  std::vector<std::byte> bytes;
  PageCompression algorithm;  // the tablespace's (full_crc32)
};

std::vector<Fixture> Fixtures(const testing::TempDir& tmp) {
  std::vector<Fixture> out;
  for (const char* format : {"fcrc32", "crc32"}) {
    for (const char* a : {"zlib", "lz4", "lzo", "lzma", "bzip2", "snappy", "mixed"}) {
      const fs::path gz =
          testing::TestDataDir() / "mariadb-page-compressed" / format / (std::string("pc_") + a + ".ibd.gz");
      if (!fs::exists(gz)) continue;  // pc_mixed is crc32 only
      const fs::path ibd = tmp.path() / (std::string(format) + "-" + a + ".ibd");
      testing::Gunzip(gz, ibd);
      Fixture f{std::string(format) + "/" + a, std::string(format) == "fcrc32", testing::ReadWholeFile(ibd),
                PageCompression::kNone};
      auto flags = FspFlags::Decode(Load32(ConstBytes(f.bytes).first(kPage), FspHeader::kFlags));
      EXPECT_TRUE(flags.ok());
      if (flags.ok()) f.algorithm = static_cast<PageCompression>(flags->compression_algorithm);
      out.push_back(std::move(f));
    }
  }
  return out;
}

TEST(PageCompressedTest, EveryAlgorithmInBothFormatsDecompressesToIntactPages) {
  testing::TempDir tmp;
  std::vector<std::byte> out(kPage);
  std::map<std::string, int> algorithms_seen;
  const auto fixtures = Fixtures(tmp);
  ASSERT_EQ(fixtures.size(), 13u);
  for (const Fixture& f : fixtures) {
    std::size_t compressed = 0;
    for (std::size_t at = 0; at + kPage <= f.bytes.size(); at += kPage) {
      ConstBytes page(f.bytes.data() + at, kPage);
      if (!IsPageCompressed(page, f.full_crc32)) continue;
      ++compressed;
      auto c = ReadCompressedPage(page, f.full_crc32, f.algorithm);
      ASSERT_TRUE(c.ok()) << f.name << " page " << at / kPage << ": " << c.status().ToString();
      ++algorithms_seen[f.name.substr(0, f.name.find('/')) + " " + ToString(c->algorithm)];
      if (f.full_crc32) {
        EXPECT_TRUE(CompressedPageCrcHolds(page, *c)) << f.name << " page " << at / kPage;
      }
      const Status st = DecompressPage(page, *c, out);
      ASSERT_TRUE(st.ok()) << f.name << " page " << at / kPage << ": " << st.ToString();
      // The page it was: its own number, and (older format) its own checksum.
      EXPECT_EQ(Load32(out, FilHeader::kPageNo), at / kPage) << f.name;
      if (!f.full_crc32) {
        EXPECT_TRUE(ValidatePage(out, false).valid) << f.name << " page " << at / kPage;
      }
    }
    EXPECT_GT(compressed, 10u) << f.name;
  }
  // Six algorithms in each format; the mixed file holds zlib and lz4 pages.
  for (const char* format : {"fcrc32", "crc32"}) {
    for (const char* a : {"zlib", "lz4", "lzo", "lzma", "bzip2", "snappy"}) {
      EXPECT_GT(algorithms_seen[std::string(format) + " " + a], 10) << format << " " << a;
    }
  }
}

// A flipped payload byte: the full_crc32 CRC fails; in the older format (no checksum of the
// stored bytes) the page does not decompress or what it gives fails its own checksum.
TEST(PageCompressedTest, DamagedPayloadIsNeverTakenForIntact) {
  testing::TempDir tmp;
  std::mt19937 rng(3);
  std::vector<std::byte> out(kPage);
  std::size_t tried = 0;
  for (const Fixture& f : Fixtures(tmp)) {
    for (std::size_t at = 0; at + kPage <= f.bytes.size(); at += kPage) {
      ConstBytes page(f.bytes.data() + at, kPage);
      if (!IsPageCompressed(page, f.full_crc32)) continue;
      auto c = ReadCompressedPage(page, f.full_crc32, f.algorithm);
      ASSERT_TRUE(c.ok());
      std::vector<std::byte> copy(page.begin(), page.end());
      const std::size_t flip = c->payload + rng() % (c->payload_end - c->payload);
      copy[flip] ^= std::byte(1u << (rng() % 8));
      ++tried;
      auto damaged = ReadCompressedPage(copy, f.full_crc32, f.algorithm);
      ASSERT_TRUE(damaged.ok());
      if (f.full_crc32) {
        EXPECT_FALSE(CompressedPageCrcHolds(copy, *damaged)) << f.name << " page " << at / kPage;
      } else if (DecompressPage(copy, *damaged, out).ok()) {
        // Some flips change nothing (a back-reference to equal bytes, bits no decoder reads):
        // the page is then what it was. Any other change fails the page's own checksum.
        std::vector<std::byte> intact(kPage);
        ASSERT_TRUE(DecompressPage(page, *c, intact).ok());
        if (out != intact) {
          EXPECT_FALSE(ValidatePage(out, false).valid) << f.name << " page " << at / kPage << " byte " << flip;
        }
      }
    }
  }
  EXPECT_GT(tried, 200u);
}

}  // namespace
}  // namespace strata::ondisk
