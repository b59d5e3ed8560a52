// The key generators of the key-strategy experiments: format, uniqueness, and the ordering
// that decides how B-tree pages fill (time-ordered keys sort as generated, UUIDv4 does not).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "datasets/keys.h"

namespace strata::datasets {
namespace {

std::vector<std::string> Generate(KeyStrategy s, std::size_t n) {
  KeyGenerator g(s, 7);
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < n; ++i) keys.push_back(g.Next());
  return keys;
}

// The fraction of neighbours already in ascending order (1.0: sorted; ~0.5: random).
double AscendingFraction(const std::vector<std::string>& keys) {
  std::size_t up = 0;
  for (std::size_t i = 1; i < keys.size(); ++i) up += keys[i - 1] < keys[i];
  return static_cast<double>(up) / static_cast<double>(keys.size() - 1);
}

TEST(KeysTest, NamesRoundTrip) {
  for (KeyStrategy s : AllKeyStrategies()) EXPECT_EQ(ParseKeyStrategy(ToString(s)), s);
  EXPECT_EQ(ParseKeyStrategy("uuid9"), std::nullopt);
}

TEST(KeysTest, FormatsAreThoseOfTheirColumns) {
  const std::regex v4("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  const std::regex v7("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  const std::regex ulid("[0-9A-HJKMNP-TV-Z]{26}");
  for (const auto& k : Generate(KeyStrategy::kUuid, 200)) EXPECT_TRUE(std::regex_match(k, v4)) << k;
  for (const auto& k : Generate(KeyStrategy::kUuid7, 200)) EXPECT_TRUE(std::regex_match(k, v7)) << k;
  for (const auto& k : Generate(KeyStrategy::kUlid, 200)) EXPECT_TRUE(std::regex_match(k, ulid)) << k;
  for (KeyStrategy s : {KeyStrategy::kUuidBin, KeyStrategy::kUuid7Bin, KeyStrategy::kUuid1SwapBin}) {
    EXPECT_TRUE(KeyGenerator::IsBinary(s));
    for (const auto& k : Generate(s, 200)) {
      ASSERT_EQ(k.size(), 16u);
      const auto b6 = static_cast<unsigned char>(k[6]), b0 = static_cast<unsigned char>(k[0]);
      const auto b8 = static_cast<unsigned char>(k[8]);
      EXPECT_EQ(b8 & 0xC0, 0x80) << ToString(s) << ": RFC variant";
      const int version = s == KeyStrategy::kUuid1SwapBin ? b0 >> 4 : b6 >> 4;  // swapped: time_hi (with it) first
      EXPECT_EQ(version, s == KeyStrategy::kUuidBin ? 4 : s == KeyStrategy::kUuid7Bin ? 7 : 1) << ToString(s);
    }
  }
  const auto seq = Generate(KeyStrategy::kSeq, 3);
  EXPECT_EQ(seq, (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(Generate(KeyStrategy::kAutoinc, 1)[0], "");
}

TEST(KeysTest, KeysAreUnique) {
  for (KeyStrategy s : AllKeyStrategies()) {
    if (s == KeyStrategy::kAutoinc) continue;
    const auto keys = Generate(s, 100000);
    EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size()) << ToString(s);
  }
}

// ULID, UUIDv7 and the swapped UUIDv1 sort in the order they were made (monotonic within one
// clock tick), so an index on them grows at its right edge; UUIDv4 lands anywhere.
TEST(KeysTest, TimeOrderedKeysSortAsGeneratedAndV4DoesNot) {
  for (KeyStrategy s : {KeyStrategy::kUlid, KeyStrategy::kUuid7, KeyStrategy::kUuid7Bin, KeyStrategy::kUuid1SwapBin}) {
    const auto keys = Generate(s, 50000);
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end())) << ToString(s);
  }
  for (KeyStrategy s : {KeyStrategy::kUuid, KeyStrategy::kUuidBin}) {
    const double f = AscendingFraction(Generate(s, 50000));
    EXPECT_GT(f, 0.45) << ToString(s);
    EXPECT_LT(f, 0.55) << ToString(s);
  }
}

TEST(KeysTest, SameSeedSameRandomKeys) {
  EXPECT_EQ(Generate(KeyStrategy::kUuid, 50), Generate(KeyStrategy::kUuid, 50));
  EXPECT_NE(Generate(KeyStrategy::kUuid, 50), [] {
    KeyGenerator g(KeyStrategy::kUuid, 8);
    std::vector<std::string> keys;
    for (int i = 0; i < 50; ++i) keys.push_back(g.Next());
    return keys;
  }());
}

TEST(KeysTest, SbtestRowsLookLikeSysbenchs) {
  SbtestRowGenerator g(1000, 3);
  // sysbench's templates: 10 and 5 groups of 11 digits, 119 and 59 characters.
  const std::regex c("([0-9]{11}-){9}[0-9]{11}"), pad("([0-9]{11}-){4}[0-9]{11}");
  for (int i = 0; i < 100; ++i) {
    const SbtestRow r = g.Next();
    EXPECT_GE(r.k, 1u);
    EXPECT_LE(r.k, 1000u);
    EXPECT_TRUE(std::regex_match(r.c, c)) << r.c;
    EXPECT_TRUE(std::regex_match(r.pad, pad)) << r.pad;
  }
}

}  // namespace
}  // namespace strata::datasets
