// `strata inspect redo` against MariaDB 10.11's own logs (tests/data/mariadb-redo, made by
// datasets/mariadb/make-redo-fixture.sh): the checkpoint LSN and the end of the log must be
// what the server reported, at shutdown and when it recovered the crashed one.
#include "inspect/redo_report.h"

#include <gtest/gtest.h>

#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"

namespace strata::inspect {
namespace {

std::map<std::string, std::string> Truth(const std::filesystem::path& tsv) {
  std::map<std::string, std::string> m;
  for (const auto& row : testing::ReadTsv(tsv)) m[row.at("key")] = row.at("value");
  return m;
}

RedoReport Analyze(const std::filesystem::path& gz, const testing::TempDir& tmp) {
  const auto log = tmp.path() / "ib_logfile0";
  testing::Gunzip(gz, log);
  return AnalyzeRedo(log, {});
}

TEST(RedoReportTest, MariaDbCleanShutdownMatchesWhatTheServerPrinted) {
  const auto dir = testing::TestDataDir() / "mariadb-redo";
  auto truth = Truth(dir / "truth" / "log.tsv");
  testing::TempDir tmp;
  RedoReport r = Analyze(dir / "ib_logfile0.gz", tmp);
  ASSERT_TRUE(r.findings.empty()) << r.findings[0].ToString();
  EXPECT_EQ(r.format_name, "MariaDB 10.8+ (Phys)");
  EXPECT_EQ(r.creator, "MariaDB 10.11.19");
  ASSERT_TRUE(r.newest.has_value());
  // The checkpoint the server reopened the log at, and the end of the log, which is the
  // "log sequence number" its shutdown line printed (16 bytes on: the FILE_CHECKPOINT record).
  EXPECT_EQ(std::to_string(r.checkpoints[*r.newest].lsn), truth.at("restart_global_innodb_lsn_last_checkpoint"));
  EXPECT_EQ(std::to_string(r.lsn_end), truth.at("shutdown_lsn"));
  EXPECT_EQ(r.mtr_groups, 1u);
}

TEST(RedoReportTest, MariaDbCrashedLogEndsWhereRecoveryEnded) {
  const auto dir = testing::TestDataDir() / "mariadb-redo" / "crashed";
  auto truth = Truth(dir / "truth" / "log.tsv");
  testing::TempDir tmp;
  RedoReport r = Analyze(dir / "ib_logfile0.gz", tmp);
  ASSERT_TRUE(r.newest.has_value());
  EXPECT_EQ(std::to_string(r.checkpoints[*r.newest].lsn), truth.at("recovery_checkpoint_lsn"));
  EXPECT_EQ(std::to_string(r.checkpoints[*r.newest].lsn), truth.at("status_last_checkpoint"));
  EXPECT_EQ(std::to_string(r.lsn_end), truth.at("recovery_end_of_log_lsn"));
  EXPECT_EQ(std::to_string(r.mtr_groups), truth.at("file_mtrs_after_checkpoint"));
}

TEST(RedoReportTest, DamageIsAFindingNotACrash) {
  testing::TempDir tmp;
  const auto path = tmp.path() / "ib_logfile0";
  testing::Gunzip(testing::TestDataDir() / "mariadb-redo" / "ib_logfile0.gz", path);
  std::filesystem::resize_file(path, 300);
  RedoReport r = AnalyzeRedo(path, {});
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].what, "truncated");
  EXPECT_FALSE(AnalyzeRedo(tmp.path() / "missing", {}).findings.empty());
}

}  // namespace
}  // namespace strata::inspect
