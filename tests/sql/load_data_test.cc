// How LOAD DATA INFILE splits a file, on the shapes the server's manual describes: escapes,
// \N and NULL, enclosed fields with the enclosure doubled or a separator inside, LINES
// STARTING BY, IGNORE n LINES, \r\n lines and a last line without its terminator.
#include <gtest/gtest.h>

#include "sql/load_data.h"

namespace strata::sql {
namespace {

LoadedRow R(std::initializer_list<std::optional<std::string>> fields) { return fields; }

TEST(LoadDataTest, TabSeparatedWithEscapesAndNulls) {
  LoadData l;
  const auto rows = SplitLoadData("1\ta\\tb\t\\N\n2\t\\\\N\tNULL\n3\tx\\\nnew\n\n4", l);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], R({"1", "a\tb", std::nullopt}));
  EXPECT_EQ(rows[1], R({"2", "\\N", "NULL"}));  // an escaped backslash, and NULL as a word (no ENCLOSED BY)
  EXPECT_EQ(rows[2], R({"3", "x\nnew"}));       // an escaped newline is data
  EXPECT_EQ(rows[3], R({""}));                  // an empty line is one empty field
  EXPECT_EQ(rows[4], R({"4"}));                 // the last line needs no terminator
}

TEST(LoadDataTest, CsvWithEnclosuresPrefixesAndSkippedLines) {
  LoadData l;
  l.fields_terminated = ",", l.enclosed = "\"", l.lines_terminated = "\r\n", l.ignore_lines = 1;
  const auto rows = SplitLoadData("h1,h2\r\n\"a,b\",\"say \"\"hi\"\"\"\r\nNULL,\"NULL\"\r\n\"x\"y,\r\n", l);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], R({"a,b", "say \"hi\""}));
  EXPECT_EQ(rows[1], R({std::nullopt, "NULL"}));  // unenclosed NULL is NULL when ENCLOSED BY is given
  // A quote not before a separator is data, and the field goes on to its closing quote (here
  // none): one field, as MariaDB reads it ("Row 3 doesn't contain data for all columns").
  EXPECT_EQ(rows[2], R({"x\"y,\r\n"}));
  l.lines_starting = "ROW:", l.ignore_lines = 0;
  const auto prefixed = SplitLoadData("junk ROW:1,2\r\nno prefix here\r\nROW:3\r\n", l);
  ASSERT_EQ(prefixed.size(), 2u);  // as MariaDB reads it
  EXPECT_EQ(prefixed[0], R({"1", "2"}));
  EXPECT_EQ(prefixed[1], R({"3"}));  // the line without the prefix is skipped up to the next one
}

TEST(LoadDataTest, UnterminatedQuoteAndEmptyTextEndCleanly) {
  LoadData l;
  l.enclosed = "\"";
  EXPECT_TRUE(SplitLoadData("", l).empty());
  const auto rows = SplitLoadData("\"open\tstill", l);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], R({"open\tstill"}));
}

}  // namespace
}  // namespace strata::sql
