#include "ondisk/checksum.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ondisk/crc32c.h"
#include "ondisk/fil_header.h"
#include "tests/util/fixtures.h"

namespace strata::ondisk {
namespace {

ConstBytes Text(const char* s) { return AsBytes(s, std::strlen(s)); }

TEST(Crc32cTest, KnownAnswers) {
  EXPECT_EQ(Crc32c(Text("123456789")), 0xE3069283u);
  EXPECT_EQ(Crc32c(Text("")), 0x00000000u);
  // RFC 3720 B.4: 32 bytes of zeros, and of 0xFF.
  std::vector<std::byte> zeros(32, std::byte{0}), ones(32, std::byte{0xFF});
  EXPECT_EQ(Crc32c(zeros), 0x8A9136AAu);
  EXPECT_EQ(Crc32c(ones), 0x62A8AB43u);
}

TEST(Crc32cTest, HardwareAndPortableAgreeOnEveryLengthAndAlignment) {
  std::vector<std::byte> data(300);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = std::byte(i * 131 + 7);
  for (std::size_t start = 0; start < 9; ++start) {
    for (std::size_t len = 0; start + len <= data.size(); len += 7) {
      ConstBytes s(data.data() + start, len);
      ASSERT_EQ(Crc32cPortable(0, s), Crc32cHardware(0, s)) << start << "+" << len;
    }
  }
}

TEST(Crc32cTest, ParallelLanesAgreeWithTheTableOnLongInputs) {
  std::vector<std::byte> data(70000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = std::byte((i * 2654435761u) >> 13);
  for (std::size_t len = 700; len < data.size(); len = len * 5 / 4 + 13) {
    for (std::size_t start : {0ul, 3ul}) {
      ConstBytes s(data.data() + start, len);
      ASSERT_EQ(Crc32cPortable(0x12345678, s), Crc32cHardware(0x12345678, s)) << start << "+" << len;
    }
  }
}

TEST(Crc32cTest, ExtendEqualsWhole) {
  auto all = Text("The quick brown fox jumps over the lazy dog");
  EXPECT_EQ(Crc32cExtend(Crc32c(all.first(10)), all.subspan(10)), Crc32c(all));
}

TEST(InnodbFoldTest, KnownAnswer) { EXPECT_EQ(InnodbFold(Text("123456789")), 0xBFC5157Cu); }

std::vector<std::byte> SamplePage(std::size_t size = 16384) {
  std::vector<std::byte> page(size);
  for (std::size_t i = 0; i < size; ++i) page[i] = std::byte((i * 2654435761u) >> 24);
  FilHeaderWriter w(page);
  w.set_page_no(PageNo(7));
  w.set_lsn(Lsn(0x123456789ABull));
  w.set_type(PageType::kIndex);
  w.set_space_id(SpaceId(42));
  return page;
}

class StampTest : public ::testing::TestWithParam<ChecksumAlgorithm> {};

TEST_P(StampTest, StampedPageValidatesWithThatAlgorithm) {
  for (std::size_t size : {4096u, 8192u, 16384u, 32768u, 65536u}) {
    auto page = SamplePage(size);
    StampChecksum(page, GetParam());
    bool full = GetParam() == ChecksumAlgorithm::kFullCrc32;
    PageCheck c = ValidatePage(page, full);
    EXPECT_TRUE(c.valid) << size;
    ASSERT_TRUE(c.algorithm.has_value());
    EXPECT_EQ(*c.algorithm, GetParam());
    EXPECT_FALSE(c.lsn_mismatch);
  }
}

TEST_P(StampTest, FlippedBodyByteIsDetected) {
  auto page = SamplePage();
  StampChecksum(page, GetParam());
  page[5000] ^= std::byte{0x01};
  bool valid = ValidatePage(page, GetParam() == ChecksumAlgorithm::kFullCrc32).valid;
  // 'none' protects nothing by design: the magic still matches.
  EXPECT_EQ(valid, GetParam() == ChecksumAlgorithm::kNone);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, StampTest,
                         ::testing::Values(ChecksumAlgorithm::kCrc32, ChecksumAlgorithm::kInnodb,
                                           ChecksumAlgorithm::kNone, ChecksumAlgorithm::kFullCrc32),
                         [](const auto& info) { return ToString(info.param); });

TEST(ChecksumTest, TornPageIsReportedAsLsnMismatch) {
  auto page = SamplePage();
  StampChecksum(page, ChecksumAlgorithm::kCrc32);
  page[16384 - 1] ^= std::byte{0xFF};  // trailer LSN copy, outside the CRC ranges
  PageCheck c = ValidatePage(page, false);
  EXPECT_FALSE(c.valid);
  EXPECT_TRUE(c.lsn_mismatch);
}

TEST(ChecksumTest, AllZeroPageIsValidButZeroChecksumsOnDataAreNot) {
  std::vector<std::byte> page(16384);
  EXPECT_TRUE(ValidatePage(page, false).all_zero);
  EXPECT_TRUE(ValidatePage(page, true).all_zero);
  page[26] = std::byte{1};  // flush LSN bytes are ignored by the zero test
  EXPECT_TRUE(ValidatePage(page, false).valid);
  page[200] = std::byte{1};  // zero checksums and LSN over non-zero data: corrupt
  EXPECT_FALSE(ValidatePage(page, false).valid);
}

TEST(ChecksumTest, FullCrc32CompressedPageUsesStoredSize) {
  auto page = SamplePage();
  Store16(page, FilHeader::kType, 0x8000 | (4096 >> 8));  // stored size 4096
  StampChecksum(page, ChecksumAlgorithm::kFullCrc32);
  EXPECT_EQ(Load32(page, 4096 - 8), Load32(SamplePage(), 4096 - 8));  // no LSN copy in compressed data
  page[10000] ^= std::byte{0xFF};                                     // beyond the stored size: not covered
  PageCheck c = ValidatePage(page, true);
  EXPECT_TRUE(c.valid);
  Store16(page, FilHeader::kType, 0x8000 | 0x7FFF);  // claims more than the page
  EXPECT_FALSE(ValidatePage(page, true).valid);
}

TEST(ChecksumTest, MisplacedPageIsReported) {
  auto page = SamplePage();
  EXPECT_FALSE(CheckPlacement(page, PageNo(7), SpaceId(42)).any());
  EXPECT_TRUE(CheckPlacement(page, PageNo(8), SpaceId(42)).page_no_differs);
  EXPECT_TRUE(CheckPlacement(page, PageNo(7), SpaceId(43)).space_id_differs);
}

// Every page MySQL 5.7 and 8.0 wrote validates, with the crc32 algorithm they default to.
TEST(ChecksumFixtureTest, EverySakilaPageValidatesAsMySqlWroteIt) {
  std::size_t pages = 0, written = 0;
  for (const auto& file : testing::IbdFilesUnder(testing::SharedFixturesDir() / "mysql-sakila")) {
    auto data = testing::ReadWholeFile(file);
    ASSERT_EQ(data.size() % 16384, 0u) << file;
    for (std::size_t off = 0; off < data.size(); off += 16384, ++pages) {
      ConstBytes page(data.data() + off, 16384);
      PageCheck c = ValidatePage(page, false);
      ASSERT_TRUE(c.valid) << file << " page " << off / 16384 << " stored " << c.stored << " computed " << c.computed;
      if (c.all_zero) continue;
      ++written;
      ASSERT_EQ(c.algorithm, ChecksumAlgorithm::kCrc32) << file << " page " << off / 16384;
      ConstBytes page0(data.data(), 16384);
      EXPECT_FALSE(CheckPlacement(page, PageNo(off / 16384), FilHeader(page0).space_id()).any())
          << file << " page " << off / 16384;
    }
  }
  EXPECT_GT(written, 300u);
  EXPECT_GE(pages, written);
}

}  // namespace
}  // namespace strata::ondisk
