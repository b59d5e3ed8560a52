// MySQL's binary JSON as Strata writes it: byte for byte what MySQL 8.0 and 8.4 wrote for the
// same text (found in their own tablespaces), read back by the inspector's decoder as MySQL
// prints it, and refused with the words and offsets of MySQL's parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ondisk/json_binary.h"
#include "ondisk/json_binary_writer.h"
#include "ondisk/json_text.h"
#include "tests/util/fixtures.h"

namespace strata::ondisk {
namespace {

std::string Binary(const std::string& text) {
  auto doc = ReadJsonText(text);
  if (auto* e = std::get_if<JsonTextError>(&doc)) return "error: " + e->what;
  return JsonToBinary(std::get<JsonNode>(doc)).value_or("error: not written");
}

std::string RoundTrip(const std::string& text) {
  const std::string b = Binary(text);
  auto back = JsonBinaryToText(AsBytes(b.data(), b.size()));
  return back.ok() ? *back : back.status().ToString();
}

// The documents ibdNinja's scripts inserted into MySQL's JSON columns (10_upgrade_8016.sql and
// 11_upgrade_8040.sql added value1 .. value14), and the tables they are in.
TEST(JsonBinaryWriterTest, BytesAreThoseMysqlWrote) {
  const std::pair<const char*, const char*> documents[] = {
      {"type_test.ibd", "{}"},
      {"type_test.ibd", R"({"nested": {"array": [1,2,3], "object": {"key": "max"}}, "string": "max", "number": 9999})"},
      {"data_types.ibd", R"({"key": "value", "number": 42})"},
      {"ddl_test.ibd", R"({"key": "value1"})"},
      {"ddl_test.ibd", R"({"key": "value2"})"},
  };
  std::vector<std::pair<std::string, std::string>> all(std::begin(documents), std::end(documents));
  for (int k = 3; k <= 14; ++k) all.emplace_back("ddl_test.ibd", R"({"key": "value)" + std::to_string(k) + "\"}");
  for (const char* version : {"8.0", "8.4"}) {
    for (const auto& [file, text] : all) {
      SCOPED_TRACE(std::string(version) + "/" + file + ": " + text);
      std::ifstream in(testing::SharedFixturesDir() / "external" / "ibdNinja" / version / file, std::ios::binary);
      ASSERT_TRUE(in) << "fixture missing";
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const std::string ours = Binary(text);
      ASSERT_GT(ours.size(), 1u);
      // `{}` is two bytes, found anywhere; the others only where MySQL put that document.
      EXPECT_NE(std::search(bytes.begin(), bytes.end(), ours.begin(), ours.end()), bytes.end());
      // A document MySQL was never given is not there: the search finds only what it wrote.
      const std::string absent = Binary(R"({"key": "not written"})");
      EXPECT_EQ(std::search(bytes.begin(), bytes.end(), absent.begin(), absent.end()), bytes.end());
    }
  }
}

TEST(JsonBinaryWriterTest, ReadsBackAsMysqlPrintsIt) {
  // Keys by length, then bytes; the last of a duplicate key; numbers as typed.
  EXPECT_EQ(RoundTrip(R"({"b": 1, "aa": {}, "a": [1, 2.5, "x\n\u00e9", null, true, false], "b": -3})"),
            R"({"a": [1, 2.5, "x\né", null, true, false], "b": -3, "aa": {}})");
  EXPECT_EQ(RoundTrip("[4294967295, 4294967296, -2147483649, 18446744073709551615, 1e2, -0]"),
            "[4294967295, 4294967296, -2147483649, 18446744073709551615, 100.0, 0]");
  EXPECT_EQ(RoundTrip("[-0.0, 0.0]"), "[-0.0, 0.0]");  // the sign of zero kept, as my_gcvt keeps it
  EXPECT_EQ(RoundTrip(R"("\ud83d\ude00")"), "\"\xF0\x9F\x98\x80\"");
  EXPECT_EQ(Binary("4294967296")[0], '\x0a');  // past 2^32 - 1: unsigned, as MySQL's parser has it
  EXPECT_EQ(Binary("-1")[0], '\x05');
  EXPECT_EQ(Binary("70000")[0], '\x07');
}

TEST(JsonBinaryWriterTest, LargeContainersWhenSmallOnesCannotHoldThem) {
  std::string big = "[";
  for (int i = 0; i < 30000; ++i) big += (i ? ",\"" : "\"") + std::to_string(i) + "\"";
  big += "]";
  const std::string b = Binary(big);
  EXPECT_EQ(b[0], '\x03');  // a large array: its strings take more than 65,535 bytes
  EXPECT_EQ(RoundTrip(big), [&] {
    std::string shown = big;
    std::string out;
    for (char c : shown) out += c == ',' ? std::string(", ") : std::string(1, c);
    return out;
  }());
  std::string nested = "{\"k\": " + big + ", \"small\": [1]}";
  EXPECT_EQ(Binary(nested)[0], '\x01');
  EXPECT_EQ(RoundTrip("[" + std::string(5000, ' ') + "{\"a\": 1}]"), "[{\"a\": 1}]");
}

TEST(JsonBinaryWriterTest, ErrorsNameWhatAndWhereAsMysqlDoes) {
  const std::pair<const char*, std::pair<const char*, std::size_t>> cases[] = {
      {"", {"The document is empty.", 0}},
      {"[1,]", {"Invalid value.", 3}},
      {R"({"a" 1})", {"Missing a colon after a name of object member.", 5}},
      {R"({"a": 1 "b": 2})", {"Missing a comma or '}' after an object member.", 8}},
      {"[1 2]", {"Missing a comma or ']' after an array element.", 3}},
      {R"({1: 2})", {"Missing a name for object member.", 1}},
      {R"({"a": 1} x)", {"The document root must not be followed by other values.", 9}},
      {"\"abc", {"Missing a closing quotation mark in string.", 0}},
      {R"("\x")", {"Invalid escape character in string.", 1}},
      {"1.", {"Miss fraction part in number.", 2}},
      {"1e", {"Miss exponent in number.", 2}},
      {"nul", {"Invalid value.", 0}},
  };
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    auto doc = ReadJsonText(text);
    auto* e = std::get_if<JsonTextError>(&doc);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->what, expected.first);
    EXPECT_EQ(e->at, expected.second);
  }
  // 100 levels are MySQL's most, a scalar inside counting as one; 100,000 would have overrun
  // the stack.
  for (std::size_t levels : {100u, 101u, 100000u}) {
    const std::string deep = std::string(levels, '[') + std::string(levels, ']');
    EXPECT_EQ(std::holds_alternative<JsonTextError>(ReadJsonText(deep)), levels > 100) << levels;
  }
  EXPECT_TRUE(std::holds_alternative<JsonTextError>(ReadJsonText(std::string(100, '[') + "1" + std::string(100, ']'))));
  // A key over 65,535 bytes cannot be written (it was, as a document no reader could read).
  const std::string longest = "{\"" + std::string(65535, 'k') + "\": 1}";
  EXPECT_EQ(RoundTrip(longest), longest);
  EXPECT_EQ(Binary("{\"" + std::string(65536, 'k') + "\": 1}"), "error: not written");
}

}  // namespace
}  // namespace strata::ondisk
