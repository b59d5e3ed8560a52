// `strata bench insert` as a user runs it: a data directory the inspector then reads.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

using strata::testing::Strata;

TEST(BenchCliTest, InsertBuildsATableTheInspectorReads) {
  strata::testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  const auto tsv = tmp.path() / "rows.tsv";
  auto r = Strata("bench insert --datadir " + dir.string() + " --keys uuid --rows 3000 --batch 10 --json --rows-out " + tsv.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rows"], 3000);
  EXPECT_GT(j["rows_per_second"].get<double>(), 0);
  EXPECT_TRUE(std::filesystem::exists(dir / "bench" / "sbtest1.ibd"));
  std::ifstream in(tsv);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 3000);

  auto check = Strata("inspect check " + dir.string());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  auto index = Strata("inspect index " + (dir / "bench" / "sbtest1.ibd").string() + " --json");
  ASSERT_EQ(index.exit_code, 0) << index.err;
  EXPECT_NE(index.out.find("\"PRIMARY\""), std::string::npos);
  EXPECT_NE(index.out.find("\"k_1\""), std::string::npos);
}

TEST(BenchCliTest, InsertRefusesAnExistingTableAndBadOptions) {
  strata::testing::TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  ASSERT_EQ(Strata("bench insert --datadir " + dir + " --rows 10").exit_code, 0);
  auto again = Strata("bench insert --datadir " + dir + " --rows 10");
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;
  auto bad = Strata("bench insert --datadir " + dir + " --keys guid");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown key strategy 'guid'"), std::string::npos) << bad.err;
  EXPECT_EQ(Strata("bench insert --keys seq").exit_code, 2);  // no --datadir
  EXPECT_EQ(Strata("bench insert --help").exit_code, 0);
}

}  // namespace
