// The column codec's rules that no fixture row happens to show: which collation ids print as
// what, and malformed bytes refused with a reason rather than printed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>

#include "ondisk/column_format.h"

namespace strata::ondisk {
namespace {

ConstBytes Bytes(const std::string& s) { return {reinterpret_cast<const std::byte*>(s.data()), s.size()}; }

TEST(ColumnFormatTest, CollationIdsMapToTheCharacterSetsTheyBelongTo) {
  EXPECT_EQ(CharsetOfCollation(63), Charset::kBinary);
  EXPECT_EQ(CharsetOfCollation(8), Charset::kLatin1);     // latin1_swedish_ci
  EXPECT_EQ(CharsetOfCollation(1032), Charset::kLatin1);  // MariaDB latin1_swedish_nopad_ci
  EXPECT_EQ(CharsetOfCollation(45), Charset::kUtf8);      // utf8mb4_general_ci
  EXPECT_EQ(CharsetOfCollation(255), Charset::kUtf8);     // utf8mb4_0900_ai_ci
  EXPECT_EQ(CharsetOfCollation(1069), Charset::kUtf8);    // MariaDB utf8mb4_general_nopad_ci
  EXPECT_EQ(CharsetOfCollation(2304), Charset::kUtf8);    // MariaDB utf8mb4_uca1400_ai_ci
  EXPECT_EQ(CharsetOfCollation(35), Charset::kOther);     // ucs2: not converted, so said unknown
  EXPECT_EQ(CharsetOfCollation(1125), Charset::kOther);   // MariaDB utf16_unicode_nopad_ci
  EXPECT_EQ(CharsetOfCollation(2816), Charset::kOther);   // a UCA 14.0 utf16 collation
}

TEST(ColumnFormatTest, BytesThatCannotBeAValueAreRefusedWithTheReason) {
  ColumnFormat date;
  date.type = ColumnType::kDate;
  date.name = "date";
  EXPECT_FALSE(ColumnText(date, Bytes(std::string("\x80\x0f\xff", 3))).ok());  // month 15
  EXPECT_FALSE(ColumnText(date, Bytes("ab")).ok());                            // two bytes, not three
  ColumnFormat dec;
  dec.type = ColumnType::kDecimal;
  dec.precision = 9;
  dec.scale = 0;
  dec.name = "decimal(9,0)";
  auto over = ColumnText(dec, Bytes(std::string("\xbf\xff\xff\xff", 4)));  // a group over 999,999,999
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("over its range"), std::string::npos);
  ColumnFormat ucs2;
  ucs2.type = ColumnType::kVarchar;
  ucs2.collation = 35;
  EXPECT_EQ(*ColumnText(ucs2, Bytes(std::string("\0a\x04\x1f", 4))), "a\xd0\x9f");  // "aП", converted by iconv
  EXPECT_FALSE(ColumnText(ucs2, Bytes(std::string("\0a\0", 3))).ok());              // half a character
  EXPECT_EQ(*ColumnText(ucs2, Bytes("")), "");  // the empty string is the same in every set
  ColumnFormat utf16 = ucs2;
  utf16.collation = 54;
  EXPECT_FALSE(ColumnText(utf16, Bytes(std::string("\xd8\0\0a", 4))).ok());  // a high surrogate alone
  ColumnFormat dec8 = ucs2;
  dec8.collation = 3;  // a character set not converted: said so
  auto dec8_text = ColumnText(dec8, Bytes("x"));
  ASSERT_FALSE(dec8_text.ok());
  EXPECT_NE(dec8_text.status().message().find("collation 3"), std::string::npos);
}

TEST(ColumnFormatTest, FloatsPrintAsTheServerAndRestoreExactly) {
  EXPECT_EQ(DoubleText(123456.703125, FloatDigits::kFloatShown), "123457");
  EXPECT_EQ(DoubleText(123456.703125, FloatDigits::kFloatExact), "123456.7");
  EXPECT_EQ(DoubleText(1e15, FloatDigits::kDouble), "1e15");
  EXPECT_EQ(DoubleText(1e14, FloatDigits::kDouble), "100000000000000");
  EXPECT_EQ(DoubleText(1.5e-15, FloatDigits::kDouble), "0.0000000000000015");
  EXPECT_EQ(DoubleText(1e-16, FloatDigits::kDouble), "1e-16");
  // Exponent 15: fixed when digits follow the point, as MariaDB printed them.
  EXPECT_EQ(DoubleText(1234567890123456.8, FloatDigits::kDouble), "1234567890123456.8");
  EXPECT_EQ(DoubleText(-3308632707510732.5, FloatDigits::kDouble), "-3308632707510732.5");
  EXPECT_EQ(DoubleText(1000000000000000.1, FloatDigits::kDouble), "1000000000000000.1");
  EXPECT_EQ(DoubleText(1234567890123456.0, FloatDigits::kDouble), "1.234567890123456e15");
  EXPECT_EQ(DoubleText(1.2345678901234568e16, FloatDigits::kDouble), "1.2345678901234568e16");
  // FLOAT's largest value restores as itself, not as a literal above FLT_MAX.
  const float most = std::numeric_limits<float>::max();
  const std::string literal = DoubleText(most, FloatDigits::kFloatExact);
  EXPECT_LE(std::strtod(literal.c_str(), nullptr), static_cast<double>(most)) << literal;
  EXPECT_EQ(std::strtof(literal.c_str(), nullptr), most) << literal;
  EXPECT_EQ(DoubleText(-most, FloatDigits::kFloatExact), "-" + literal);
}

// The escaper scans sixteen bytes at a time: every special byte at every position of a block,
// and values shorter than, equal to and longer than a block, must escape as byte by byte.
TEST(ColumnFormatTest, BatchEscapingMatchesTheClientAtEveryPosition) {
  auto by_byte = [](std::string_view v) {
    std::string out;
    for (char c : v) {
      if (c == '\t')
        out += "\\t";
      else if (c == '\n')
        out += "\\n";
      else if (c == '\\')
        out += "\\\\";
      else if (c == '\0')
        out += "\\0";
      else
        out += c;
    }
    return out;
  };
  for (std::size_t size : {0, 1, 15, 16, 17, 31, 32, 33, 100}) {
    for (std::size_t at = 0; at < size; ++at) {
      for (char special : {'\t', '\n', '\\', '\0'}) {
        std::string v(size, 'x');
        v[at] = special;
        if (at + 3 < size) v[at + 3] = '\t';  // a second one after the first, in the same block
        std::string out = "prefix:";
        AppendBatchEscaped(out, v);
        EXPECT_EQ(out, "prefix:" + by_byte(v)) << "size " << size << " at " << at;
      }
    }
    std::string out;
    AppendBatchEscaped(out, std::string(size, 'y'));
    EXPECT_EQ(out, std::string(size, 'y'));
  }
  std::string out;
  AppendBatchEscaped(out, std::string("a\tb\nc\\d\0e", 9));
  EXPECT_EQ(out, "a\\tb\\nc\\\\d\\0e");
}

}  // namespace
}  // namespace strata::ondisk
