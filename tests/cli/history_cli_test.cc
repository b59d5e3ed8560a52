// `strata experiment history`, `strata status` and `strata inspect undo` on the same data
// directory: the history the experiment reports live is the one on disk after its shutdown.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

using strata::testing::Strata;

TEST(HistoryCliTest, HistoryGrowsLiveAndStaysOnDiskAfterAFastShutdown) {
  strata::testing::TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  auto run = Strata("experiment history --datadir " + dir + " --updates 600 --samples 6 --json");
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["growth"], 600) << "one update-undo log per committed update";
  EXPECT_EQ(j["view_still_reads_k"], 0);
  ASSERT_GE(j["samples"].size(), 7u);
  std::uint64_t last = 0;
  for (const auto& s : j["samples"]) {
    EXPECT_EQ(s["history_list_length"].get<std::uint64_t>(), s["updates"].get<std::uint64_t>()) << s.dump();
    EXPECT_GE(s["history_list_length"].get<std::uint64_t>(), last);
    last = s["history_list_length"];
  }

  auto undo = Strata("inspect undo " + dir + " --json");
  ASSERT_EQ(undo.exit_code, 0) << undo.out << undo.err;
  EXPECT_EQ(nlohmann::json::parse(undo.out)["history_list_length"], 600) << undo.out;
  auto status = Strata("status --datadir " + dir + " --json");
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_EQ(nlohmann::json::parse(status.out)["history_list_length"], 600);
  auto text = Strata("status --datadir " + dir);
  EXPECT_NE(text.out.find("History list length 600"), std::string::npos) << text.out;

  // A second run on the same directory purges the old history first, then grows it again;
  // with --purge-after the reopened engine empties it.
  auto again = Strata("experiment history --datadir " + dir + " --updates 300 --purge-after --json");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto k = nlohmann::json::parse(again.out);
  EXPECT_EQ(k["history_at_start"], 0);
  EXPECT_EQ(k["history_after_restart"], 300);
  EXPECT_EQ(k["history_at_end"], 0);
  EXPECT_EQ(nlohmann::json::parse(Strata("inspect undo " + dir + " --json").out)["history_list_length"], 0);
  EXPECT_EQ(Strata("inspect check " + dir).exit_code, 0);
}

TEST(HistoryCliTest, StatusNeedsAnExistingDataDirectory) {
  strata::testing::TempDir tmp;
  auto missing = Strata("status --datadir " + (tmp.path() / "none").string());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no Strata data directory"), std::string::npos) << missing.err;
  EXPECT_EQ(Strata("status").exit_code, 2);
  EXPECT_EQ(Strata("status --help").exit_code, 0);
  EXPECT_EQ(Strata("experiment history --help").exit_code, 0);
}

}  // namespace
