// `strata bench insert` as a user runs it: a data directory the inspector then reads; and the
// hot-row and async-commit benches, whose own checks (k, rows present) must hold in every mode.
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
  auto r = Strata("bench insert --datadir " + dir.string() + " --keys uuid --rows 3000 --batch 10 --json --rows-out " +
                  tsv.string());
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

// The hot-row bench in each mode, with a 2 ms sync: k grows by exactly threads x updates, the
// default mode (and early release allowed no dependents) commits once per log flush, early
// release puts several commits behind one, and group commit batches statements into commits.
TEST(BenchCliTest, HotRowCountsEveryUpdateInEachMode) {
  strata::testing::TempDir tmp;
  int runs = 0;
  auto run = [&](const std::string& mode, const std::string& extra = "") {
    const auto dir = tmp.path() / ("d" + std::to_string(++runs));
    auto r = Strata("bench hotrow --datadir " + dir.string() +
                    " --threads 8 --updates 40 --fsync-latency-us 2000 --json --mode " + mode + extra);
    EXPECT_EQ(r.exit_code, 0) << mode << extra << ": " << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["total_updates"], 320);
    EXPECT_EQ(j["k_grew"], 320);
    EXPECT_TRUE(j["k_ok"].get<bool>());
    EXPECT_GT(j["tps"].get<double>(), 0);
    // The sessions' ceiling the bench reports holds: each update waits for a sync of its own.
    EXPECT_GT(j["log_sync_ms"].get<double>(), 2.0);
    EXPECT_LE(j["tps"].get<double>(), 1.05 * j["ceiling_tps"].get<double>()) << mode;
    return j;
  };
  const auto by_default = run("default");
  EXPECT_EQ(by_default["commits"], 320);
  EXPECT_LE(by_default["commits_per_fsync"].get<double>(), 1.0);
  const auto elr = run("elr");
  EXPECT_GT(elr["commits_per_fsync"].get<double>(), 1.0);
  const auto elr_none = run("elr", " --max-elr-dependent-trx-count 0");
  EXPECT_EQ(elr_none["max_elr_dependent_trx_count"], 0);
  EXPECT_LE(elr_none["commits_per_fsync"].get<double>(), 1.0);
  for (const std::string mode : {"group-commit", "elr+group-commit"}) {
    const auto grouped = run(mode);
    EXPECT_LT(grouped["commits"].get<int>(), 320) << mode << ": no statements shared a commit";
  }
  auto bad = Strata("bench hotrow --datadir " + (tmp.path() / "x").string() + " --mode fast");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown --mode 'fast'"), std::string::npos) << bad.err;
}

// async_commit: the same rows with fewer log flushes, all present once the final wait is over.
TEST(BenchCliTest, AsyncCommitKeepsEveryRowWithFewerFlushes) {
  strata::testing::TempDir tmp;
  auto r = Strata("bench async-commit --datadir " + (tmp.path() / "d").string() +
                  " --loops 200 --fsync-latency-us 1000 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["rows_ok"].get<bool>());
  EXPECT_GE(j["async_commit_off"]["log_fsyncs"].get<int>(), 200);
  EXPECT_LT(j["async_commit_on"]["log_fsyncs"].get<int>(), j["async_commit_off"]["log_fsyncs"].get<int>());
  EXPECT_LT(j["async_commit_on"]["seconds"].get<double>(), j["async_commit_off"]["seconds"].get<double>());
}

}  // namespace
