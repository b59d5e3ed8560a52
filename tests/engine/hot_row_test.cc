// Hot rows: early lock release, hot-row group commit and asynchronous commit never acknowledge
// what a crash or a failed log write could take back (INV-3).
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include "engine/db.h"
#include "engine/fault_injection_env.h"
#include "sql/session.h"
#include "engine/sync_latency_env.h"
#include "tests/util/kill_child.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using strata::testing::TempDir;

using FirstValue = sql::FirstValueSink;

// Runs one statement; its error message, or "" when it succeeded.
std::string Sql(sql::Session& s, const std::string& text, FirstValue* out = nullptr) {
  FirstValue ignore;
  auto o = s.Execute(text, out ? *out : ignore);
  return o.error ? o.error->message : "";
}

void CreateHotRow(Database& db) {
  sql::Session s(db);
  ASSERT_EQ(Sql(s, "CREATE DATABASE IF NOT EXISTS sbtest"), "");
  ASSERT_EQ(Sql(s,
                "CREATE TABLE sbtest.sbtest1 (id int NOT NULL AUTO_INCREMENT, k int NOT NULL DEFAULT '0', "
                "c char(120) NOT NULL DEFAULT '', pad char(60) NOT NULL DEFAULT '', PRIMARY KEY (id))"),
            "");
  ASSERT_EQ(Sql(s, "INSERT INTO sbtest.sbtest1 VALUES (1, 0, 'aa', 'aa')"), "");
}

std::int64_t ReadK(Database& db) {
  sql::Session s(db);
  FirstValue v;
  EXPECT_EQ(Sql(s, "SELECT k FROM sbtest.sbtest1 WHERE id = 1", &v), "");
  return std::stoll(v.value.value_or("-1"));
}

// A failed log write under early lock release: the committer fails, and so does the
// transaction that took its released lock and built on its change; nothing reaches the disk,
// and the database refuses further writes with a message that says why.
TEST(HotRowTest, FailedLogWriteTakesEarlyReleaseDependentsDown) {
  TempDir dir;
  FaultInjectionEnv faults(Env::Default());
  SyncLatencyEnv slow(&faults, std::chrono::milliseconds(300));  // the failing fsync takes a while
  DatabaseOptions o;
  o.env = &slow;
  o.enable_early_lock_release = true;
  {
    auto db = Database::Open(dir.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    CreateHotRow(**db);
    ASSERT_EQ(ReadK(**db), 0);
    faults.SetSyncFails(true);
    std::string first_error;
    std::thread first([&] {
      sql::Session s(**db);
      first_error = Sql(s, "UPDATE sbtest.sbtest1 SET k = k + 1 WHERE id = 1");
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the first is in its fsync now
    sql::Session second(**db);
    ASSERT_EQ(Sql(second, "BEGIN"), "");
    FirstValue seen;
    ASSERT_EQ(Sql(second, "SELECT k FROM sbtest.sbtest1 WHERE id = 1 FOR UPDATE", &seen), "");
    EXPECT_EQ(seen.value, "1") << "the lock was not released early";
    ASSERT_EQ(Sql(second, "UPDATE sbtest.sbtest1 SET k = k + 1 WHERE id = 1"), "");
    const std::string second_error = Sql(second, "COMMIT");
    first.join();
    EXPECT_NE(first_error, "") << "a commit whose log write failed was acknowledged";
    EXPECT_NE(second_error, "") << "a commit that depended on a failed one was acknowledged";
    sql::Session third(**db);
    const std::string refused = Sql(third, "INSERT INTO sbtest.sbtest1 VALUES (2, 0, 'b', 'b')");
    EXPECT_NE(refused.find("stopped accepting writes"), std::string::npos) << refused;
    faults.PowerOff();
  }
  ASSERT_TRUE(faults.Crash().ok());
  faults.SetSyncFails(false);
  auto db = Database::Open(dir.path(), DatabaseOptions{});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ(ReadK(**db), 0);
}

// Statements grouped on a hot row: one that fails (k = NULL on a NOT NULL column) fails alone,
// the others commit, fewer commits than statements.
TEST(HotRowTest, GroupCommitFailsAFailingStatementAlone) {
  TempDir dir;
  SyncLatencyEnv slow(Env::Default(), std::chrono::milliseconds(2));
  DatabaseOptions o;
  o.env = &slow;
  auto db = Database::Open(dir.path(), o);
  ASSERT_TRUE(db.ok());
  CreateHotRow(**db);
  constexpr int kThreads = 8, kEach = 40;
  std::atomic<int> ok{0}, failed{0};
  const std::uint64_t commits_before = (*db)->redo_stats().commits;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      sql::Session s(**db);
      for (int i = 0; i < kEach; ++i) {
        const bool bad = t == 0 && i % 4 == 0;
        const std::string e =
            Sql(s, fmt::format("UPDATE /*+ GROUP_COMMIT(TRUE) */ sbtest.sbtest1 SET k = {} WHERE id = 1",
                               bad ? "NULL" : "k + 1"));
        if (bad) {
          EXPECT_NE(e.find("cannot be null"), std::string::npos) << e;
          ++failed;
        } else {
          EXPECT_EQ(e, "");
          ++ok;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failed.load(), kEach / 4);
  EXPECT_EQ(ReadK(**db), ok.load());
  const std::uint64_t commits = (*db)->redo_stats().commits - commits_before;
  EXPECT_LT(commits, static_cast<std::uint64_t>(ok.load())) << "no two updates shared a commit";
}

// Asynchronous commit returns before the fsync; once its future is ready a crash keeps it.
TEST(HotRowTest, AsyncCommitIsDurableOnceItsFutureIsReady) {
  TempDir dir;
  FaultInjectionEnv faults(Env::Default());
  DatabaseOptions o;
  o.env = &faults;
  {
    auto db = Database::Open(dir.path(), o);
    ASSERT_TRUE(db.ok());
    CreateHotRow(**db);
    sql::Session s(**db);
    ASSERT_EQ(Sql(s, "SET autocommit = 0"), "");
    ASSERT_EQ(Sql(s, "SET SESSION async_commit = ON"), "");
    for (int i = 0; i < 20; ++i) {
      ASSERT_EQ(Sql(s, "UPDATE sbtest.sbtest1 SET k = k + 1 WHERE id = 1"), "");
      ASSERT_EQ(Sql(s, "COMMIT"), "");
    }
    ASSERT_TRUE(s.WaitDurable().ok());
    faults.PowerOff();  // nothing written after this point
  }
  ASSERT_TRUE(faults.Crash().ok());
  auto db = Database::Open(dir.path(), DatabaseOptions{});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ(ReadK(**db), 20);
}

// A failed log write reaches asynchronous commits through their futures.
TEST(HotRowTest, AsyncCommitReportsAFailedLogWrite) {
  TempDir dir;
  FaultInjectionEnv faults(Env::Default());
  DatabaseOptions o;
  o.env = &faults;
  auto db = Database::Open(dir.path(), o);
  ASSERT_TRUE(db.ok());
  CreateHotRow(**db);
  auto t = (*db)->GetTable("sbtest", "sbtest1");
  ASSERT_TRUE(t.ok());
  auto trx = (*db)->Begin();
  ASSERT_TRUE(trx.ok());
  ASSERT_TRUE((*t)->Update({Value::Int(1), Value::Int(5), Value::String("aa"), Value::String("aa")}, trx->get()).ok());
  faults.SetSyncFails(true);
  std::shared_future<Status> done = (*trx)->CommitAsync();
  EXPECT_FALSE(done.get().ok());
  faults.PowerOff();
}

// kill -9 in the middle of the hot-row workload, in each mode: after recovery k counts every
// acknowledged update and at most those in flight besides (STRATA_HOTROW_KILLS rounds per mode).
constexpr int kChildThreads = 6;

// The four modes of `strata bench hotrow`, and what each means for a session's update.
const auto kModes = ::testing::Values("default", "elr", "group-commit", "elr+group-commit");
std::string ModeName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  std::erase_if(n, [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); });
  return n;
}
bool UsesEarlyRelease(const std::string& mode) { return mode.find("elr") != std::string::npos; }
std::string HotRowUpdate(const std::string& mode) {
  return mode.find("group") != std::string::npos
             ? "UPDATE /*+ GROUP_COMMIT(TRUE) */ sbtest.sbtest1 SET k = k + 1 WHERE id = 1"
             : "UPDATE sbtest.sbtest1 SET k = k + 1 WHERE id = 1";
}

TEST(HotRowKillChild, UpdatesUntilKilled) {
  const char* dir = std::getenv("STRATA_HOTROW_DIR");
  if (!dir) GTEST_SKIP() << "run by HotRowKillTest as its child";
  const std::string mode = std::getenv("STRATA_HOTROW_MODE");
  DatabaseOptions o;
  o.enable_early_lock_release = UsesEarlyRelease(mode);
  auto db = Database::Open(dir, o);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  if (!(*db)->GetTable("sbtest", "sbtest1").ok()) CreateHotRow(**db);
  testing::Acknowledge("R\n");  // ready: the table exists
  const std::string update = HotRowUpdate(mode);
  std::vector<std::thread> threads;
  for (int t = 0; t < kChildThreads; ++t) {
    threads.emplace_back([&] {
      sql::Session s(**db);
      for (;;) {
        if (Sql(s, update) != "") return;
        if (!testing::Acknowledge("1\n")) return;
      }
    });
  }
  for (auto& th : threads) th.join();
}

class HotRowKillTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HotRowKillTest, AcknowledgedUpdatesSurviveSigkill) {
  const char* env_kills = std::getenv("STRATA_HOTROW_KILLS");
  const int kills = env_kills ? std::atoi(env_kills) : 2;
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  std::mt19937 rng(11);
  std::int64_t k = 0;  // after the last recovery
  for (int round = 0; round < kills; ++round) {
    // Killed after a random number of acknowledged updates (the first line says it is ready).
    const auto child = testing::RunChildUntilKilled("HotRowKillChild.UpdatesUntilKilled",
                                                    {{"STRATA_HOTROW_DIR", dir}, {"STRATA_HOTROW_MODE", GetParam()}},
                                                    1 + 20 + rng() % 400);
    const auto acked = static_cast<std::size_t>(std::count(child.acks.begin(), child.acks.end(), '1'));
    ASSERT_TRUE(child.signalled) << "the child ended by itself (status " << child.status << ")";
    auto db = Database::Open(dir, DatabaseOptions{});
    ASSERT_TRUE(db.ok()) << "round " << round << ": " << db.status().ToString();
    const std::int64_t now = ReadK(**db);
    const auto low = k + static_cast<std::int64_t>(acked);
    EXPECT_GE(now, low) << GetParam() << " round " << round << ": acknowledged updates lost";
    EXPECT_LE(now, low + kChildThreads) << GetParam() << " round " << round << ": more than the updates in flight";
    k = now;
  }
  EXPECT_GE(k, 20 * kills) << "the children were killed before they updated anything";
  RecordProperty("k", static_cast<int>(k));
}

// The redo log fails (its fsync, or its writes on a full disk) while six sessions update the
// hot row, in each mode: every session stops with an error, and after a crash that drops what
// was never synced k counts every acknowledged update and at most those in flight besides.
// An acknowledgement that outran the log would show as k below it.
class HotRowLogFailureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HotRowLogFailureTest, NothingAcknowledgedIsLost) {
  const char* env_rounds = std::getenv("STRATA_HOTROW_KILLS");
  const int rounds = env_rounds ? std::atoi(env_rounds) : 2;
  const std::string mode = GetParam();
  const std::string update = HotRowUpdate(mode);
  std::mt19937 rng(23);
  for (int round = 0; round < rounds; ++round) {
    SCOPED_TRACE(mode + " round " + std::to_string(round));
    TempDir dir;
    FaultInjectionEnv faults(Env::Default());
    DatabaseOptions o;
    o.env = &faults;
    o.enable_early_lock_release = UsesEarlyRelease(mode);
    const bool disk_full = round % 2 == 1;
    const std::int64_t fail_after = 20 + static_cast<std::int64_t>(rng() % 300);
    std::atomic<std::int64_t> acked{0};
    std::vector<std::string> errors(kChildThreads);
    {
      auto db = Database::Open(dir.path(), o);
      ASSERT_TRUE(db.ok()) << db.status().ToString();
      CreateHotRow(**db);
      std::vector<std::thread> threads;
      for (int t = 0; t < kChildThreads; ++t) {
        threads.emplace_back([&, t] {
          sql::Session s(**db);
          while ((errors[t] = Sql(s, update)).empty()) ++acked;
        });
      }
      while (acked.load() < fail_after) std::this_thread::yield();
      if (disk_full) {
        faults.SetDiskFull(true);
      } else {
        faults.SetSyncFails(true);
      }
      for (auto& th : threads) th.join();  // each ends at its first error: writes have stopped
      for (const auto& e : errors) {
        EXPECT_TRUE(e.find("redo log") != std::string::npos || e.find("stopped accepting writes") != std::string::npos)
            << "an error that does not say the log failed: " << e;
      }
      faults.PowerOff();
    }
    ASSERT_TRUE(faults.Crash().ok());
    faults.SetSyncFails(false);
    faults.SetDiskFull(false);
    auto db = Database::Open(dir.path(), DatabaseOptions{});
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    const std::int64_t k = ReadK(**db);
    EXPECT_GE(k, acked.load()) << "acknowledged updates lost (" << (disk_full ? "disk full" : "fsync failed") << ")";
    EXPECT_LE(k, acked.load() + kChildThreads) << "more than the updates in flight";
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, HotRowLogFailureTest, kModes, ModeName);

INSTANTIATE_TEST_SUITE_P(Modes, HotRowKillTest, kModes, ModeName);

}  // namespace
}  // namespace strata::engine
