// MariaDB 10.8+ redo records built by hand byte for byte from the format's rules
// (ondisk/mariadb_redo.h): varints at each length boundary, each record type, offsets relative
// to the previous record, file operations, and malformed input refused with where and why.
#include "ondisk/mariadb_redo.h"

#include <gtest/gtest.h>

#include <vector>

namespace strata::ondisk {
namespace {

Result<std::vector<MariaRedoRecord>> Parse(ConstBytes b) {
  std::vector<MariaRedoRecord> out;
  Status st = ParseMariaMtr(b, &out);
  if (!st.ok()) return st;
  return out;
}

std::vector<std::byte> Bytes(std::initializer_list<unsigned> v) {
  std::vector<std::byte> out;
  for (unsigned b : v) out.push_back(std::byte(b));
  return out;
}

TEST(MariaRedoTest, VarintsAtEveryLengthBoundary) {
  const std::pair<std::vector<std::byte>, std::uint32_t> cases[] = {
      {Bytes({0x00}), 0},
      {Bytes({0x7F}), 127},
      {Bytes({0x80, 0x00}), 128},
      {Bytes({0xBF, 0xFF}), 0x407F},
      {Bytes({0xC0, 0x00, 0x00}), 0x4080},
      {Bytes({0xE0, 0x00, 0x00, 0x00}), 0x204080},
      {Bytes({0xF0, 0x00, 0x00, 0x00, 0x00}), 0x10204080},
      {Bytes({0xF0, 0xEF, 0xDF, 0xBF, 0x7F}), 0xFFFFFFFF},
  };
  for (const auto& [bytes, value] : cases) {
    std::size_t at = 0;
    auto v = DecodeMariaVarint(bytes, &at);
    ASSERT_TRUE(v.ok()) << value;
    EXPECT_EQ(*v, value);
    EXPECT_EQ(at, bytes.size());
  }
  std::size_t at = 0;
  EXPECT_FALSE(DecodeMariaVarint(Bytes({0xF1}), &at).ok());
  EXPECT_FALSE(DecodeMariaVarint(Bytes({0xC0, 0x00}), &at).ok());                    // cut short
  EXPECT_FALSE(DecodeMariaVarint(Bytes({0xF0, 0xEF, 0xDF, 0xBF, 0x80}), &at).ok());  // past 32 bits
}

TEST(MariaRedoTest, RecordsOfOneMiniTransaction) {
  // INIT_PAGE 5:300 (page 300 = varint 0x80 0xAC); WRITE same page at 24+14=38, 2 bytes;
  // MEMSET same page at 40+2=42, 10 bytes of 0x00; FREE_PAGE 5:7; WRITE 6:1 at 8, a 17-byte
  // record (long form: nibble 0, varint 1 => 16 more bytes).
  const auto mtr =
      Bytes({0x13, 0x05, 0x80, 0xAC, 0xB3, 0x0E, 0xAA, 0xBB, 0xC3, 0x02, 0x0A, 0x00, 0x02, 0x05, 0x07, 0x30,
             0x01, 0x06, 0x01, 0x08, 1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12});
  auto r = Parse(mtr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 5u);
  EXPECT_STREQ((*r)[0].type, "INIT_PAGE");
  EXPECT_EQ((*r)[0].space, 5u);
  EXPECT_EQ((*r)[0].page, 300u);
  EXPECT_STREQ((*r)[1].type, "WRITE");
  EXPECT_EQ((*r)[1].page, 300u);
  EXPECT_EQ((*r)[1].offset, 38u);
  EXPECT_EQ((*r)[1].length, 2u);
  EXPECT_STREQ((*r)[2].type, "MEMSET");
  EXPECT_EQ((*r)[2].offset, 42u);
  EXPECT_EQ((*r)[2].length, 10u);
  EXPECT_STREQ((*r)[3].type, "FREE_PAGE");
  EXPECT_EQ((*r)[3].page, 7u);
  EXPECT_STREQ((*r)[4].type, "WRITE");
  EXPECT_EQ((*r)[4].space, 6u);
  EXPECT_EQ((*r)[4].offset, 8u);
  EXPECT_EQ((*r)[4].length, 12u);
  EXPECT_EQ((*r)[4].at, 15u);
}

TEST(MariaRedoTest, FileOperationsAndExtendedSubtypes) {
  // FILE_MODIFY 5:0 "t.ibd", then EXTENDED/UNDO_APPEND on 0:300 (subtype 3 and 3 bytes).
  const auto mtr = Bytes({0xB7, 0x05, 0x00, 't', '.', 'i', 'b', 'd', 0x27, 0x00, 0x80, 0xAC, 0x03, 1, 2, 3});
  auto r = Parse(mtr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_STREQ((*r)[0].type, "FILE_MODIFY");
  EXPECT_TRUE((*r)[0].file_op);
  EXPECT_FALSE((*r)[0].page_op);
  EXPECT_EQ((*r)[0].space, 5u);
  EXPECT_STREQ((*r)[1].type, "EXTENDED/UNDO_APPEND");
  EXPECT_EQ((*r)[1].page, 300u);
}

TEST(MariaRedoTest, MalformedRecordsAreRefusedWithWhere) {
  EXPECT_NE(Parse(Bytes({0xC3, 0x02, 0x0A, 0x00})).status().message().find("offset 0"), std::string::npos)
      << "a MEMSET of the same page with no page before it";
  EXPECT_FALSE(Parse(Bytes({0x35, 0x05, 0x07})).ok());              // length past the end
  EXPECT_FALSE(Parse(Bytes({0x63, 0x05, 0x07, 0x00})).ok());        // RESERVED
  EXPECT_FALSE(Parse(Bytes({0x23, 0x05, 0x07, 0x2A})).ok());        // unknown EXTENDED subtype
  EXPECT_FALSE(Parse(Bytes({0x12, 0x05, 0x07, 0x91, 0x00})).ok());  // INIT_PAGE on the "same page"
  EXPECT_FALSE(Parse(Bytes({0x01})).ok());
}

}  // namespace
}  // namespace strata::ondisk
