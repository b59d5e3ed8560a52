// Crash recovery through the fault-injecting Env: a workload of inserts, updates and deletes
// with flush_log_at_trx_commit=1, the machine stopped at a random point (every unsynced write
// dropped), the directory reopened and recovered, many times over. After each crash every
// acknowledged change is there, nothing else is, and the trees check clean.
// STRATA_CRASHES sets the number of crashes (the `slow` label runs 1,000).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <thread>

#include "engine/db.h"
#include "engine/fault_injection_env.h"
#include "inspect/check.h"
#include "inspect/space_file.h"
#include "tests/util/sanitizer.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

TableSpec KvSpec() {
  return {"crash",
          "kv",
          {NotNull(Col("k", ColumnType::kInt)), Col("v", ColumnType::kVarchar, 600), Col("g", ColumnType::kInt)},
          {"k"},
          {{"g", {"g"}, false}}};
}

using Model = std::map<int, std::pair<std::string, int>>;

Model ReadAll(Table& t) {
  Model m;
  EXPECT_TRUE(t.Scan({}, [&](const Row& r) {
                 m[static_cast<int>(r[0].as_int())] = {r[1].as_string(), static_cast<int>(r[2].as_int())};
                 return true;
               }).ok());
  return m;
}

void RunCrashes(int crashes, std::uint32_t seed) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  o.buffer_pool_bytes = 1u << 20;  // 64 frames: pages are evicted (and written) all the time
  o.redo_log_bytes = 1u << 20;     // a small log: it wraps, and checkpoints must keep up
  std::mt19937 rng(seed);
  Model model;
  std::uint64_t recovered_groups = 0, rolled_back = 0;
  std::size_t most_threads = 0;
  for (int crash = 0; crash <= crashes; ++crash) {
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok()) << "crash " << crash << ": " << db.status().ToString();
    recovered_groups += (*db)->recovery().groups;
    rolled_back += (*db)->recovery().rolled_back_trx;
    most_threads = std::max(most_threads, (*db)->recovery().threads);
    Table* t = nullptr;
    if (crash == 0) {
      ASSERT_TRUE((*db)->CreateDatabase("crash").ok());
      auto created = (*db)->CreateTable(KvSpec());
      ASSERT_TRUE(created.ok());
      t = *created;
    } else {
      auto got = (*db)->GetTable("crash", "kv");
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      t = *got;
      ASSERT_EQ(ReadAll(*t), model) << "after crash " << crash;
      Status check = t->Check();
      ASSERT_TRUE(check.ok()) << "after crash " << crash << ": " << check.ToString();
    }
    if (crash == crashes) break;
    // Statements run alone (autocommit) or in multi-statement transactions that commit or
    // roll back; the last transaction may still be open when the machine stops. Only what a
    // commit acknowledged is in the model.
    const int ops = 1 + static_cast<int>(rng() % 400);
    std::unique_ptr<Transaction> trx;
    Model staged = model;
    for (int op = 0; op < ops; ++op) {
      if (!trx && rng() % 4 == 0) {
        auto begun = (*db)->Begin({Isolation::kRepeatableRead});
        ASSERT_TRUE(begun.ok());
        trx = std::move(*begun);
        staged = model;
      }
      const int k = static_cast<int>(rng() % 3000);
      const std::string v(rng() % 500, static_cast<char>('a' + rng() % 26));
      const int g = static_cast<int>(rng() % 50);
      Model& m = trx ? staged : model;
      Status s;
      switch (rng() % 4) {
        case 0:
        case 1:
          s = t->Insert({Value::Int(k), Value::String(v), Value::Int(g)}, trx.get());
          if (s.ok())
            m[k] = {v, g};
          else
            ASSERT_TRUE(s.IsAlreadyExists()) << s.ToString();
          break;
        case 2:
          s = t->Update({Value::Int(k), Value::String(v), Value::Int(g)}, trx.get());
          if (s.ok())
            m[k] = {v, g};
          else
            ASSERT_TRUE(s.IsNotFound()) << s.ToString();
          break;
        default:
          s = t->Delete({Value::Int(k)}, trx.get());
          if (s.ok())
            m.erase(k);
          else
            ASSERT_TRUE(s.IsNotFound()) << s.ToString();
      }
      if (trx && rng() % 8 == 0 && op + 1 < ops) {
        if (rng() % 4 == 0) {
          const Status rolled = trx->Rollback();
          ASSERT_TRUE(rolled.ok()) << "crash " << crash << " op " << op << ": " << rolled.ToString();
        } else {
          ASSERT_TRUE(trx->Commit().ok());
          model = staged;
        }
        trx.reset();
      }
    }
    std::unique_ptr<Transaction> open_at_crash = std::move(trx);  // outlives the database
    if (open_at_crash && rng() % 2) {
      // Another session commits: the log is durable past the open transaction's changes,
      // which recovery must then roll back.
      const int k = 3000 + crash;
      ASSERT_TRUE(t->Insert({Value::Int(k), Value::String("other session"), Value::Int(0)}).ok());
      model[k] = {"other session", 0};
    }
    // The machine stops: nothing more reaches the disk, and what was not synced is gone.
    env.PowerOff();
    db->reset();
    ASSERT_TRUE(env.Crash().ok());
  }
  EXPECT_GT(recovered_groups, 0u) << "no crash needed recovery: the test tests nothing";
  if (crashes >= 20) {
    EXPECT_GT(rolled_back, 0u) << "no crash left a transaction to roll back";
  }
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_GT(most_threads, 1u) << "recovery never ran in parallel";
  }
  // The files themselves, as the inspector and innochecksum see them.
  for (const auto& file : {dir / "crash" / "kv.ibd", dir / "ibdata1"}) {
    auto f = inspect::SpaceFile::Open(file);
    ASSERT_TRUE(f.ok());
    for (const auto& finding : inspect::CheckSpace(*f).findings) ADD_FAILURE() << finding.ToString();
  }
}

TEST(CrashTest, AcknowledgedChangesSurviveEveryCrash) {
  const char* env = std::getenv("STRATA_CRASHES");
  RunCrashes(env ? std::atoi(env) : 30, 7);
}

// A tree of ~1,200 pages built by random keys and known only to the log: recovery rebuilds
// every page from its INIT onwards, including pages numbered 256, 512, 768 and 1024, whose
// links have zero bytes where a new page's FIL_NULL siblings have 0xFF (recovery once left
// those bytes at 0xFF: page 768's neighbour then pointed at page 1023).
TEST(CrashTest, RecoveryRebuildsALargeRandomKeyTreeFromTheLogAlone) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  o.page_cleaner = false;  // no page reaches the file before the crash
  Model model;
  std::mt19937 rng(11);
  {
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->CreateDatabase("crash").ok());
    auto t = (*db)->CreateTable(KvSpec());
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE((*db)->Flush().ok());
    std::vector<Row> batch;
    while (model.size() < 40000) {
      const int k = static_cast<int>(rng() % 100'000'000);
      if (!model.try_emplace(k, std::string(200 + k % 150, static_cast<char>('a' + k % 26)), k % 50).second) continue;
      batch.push_back({Value::Int(k), Value::String(model[k].first), Value::Int(k % 50)});
      if (batch.size() == 1000) {
        ASSERT_TRUE((*t)->InsertBatch(batch).ok());
        batch.clear();
      }
    }
    ASSERT_GT((*t)->file_bytes(), 1025u * 16384) << "the tree must reach page 1024";
    env.PowerOff();
    db->reset();
  }
  ASSERT_TRUE(env.Crash().ok());
  auto db = Database::Open(dir, o);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_GT((*db)->recovery().pages, 1024u);
  auto t = (*db)->GetTable("crash", "kv");
  ASSERT_TRUE(t.ok());
  Status check = (*t)->Check();
  ASSERT_TRUE(check.ok()) << check.ToString();
  ASSERT_EQ(ReadAll(**t), model);
}

// A page write torn at every 512-byte boundary leaves a page no checksum accepts; the next
// open restores it from the doublewrite area and replays the log onto it.
TEST(CrashTest, TornPageWritesAreRepairedFromTheDoublewriteArea) {
  // Every 512 bytes of the page (every 2048 under a sanitizer).
  for (std::size_t keep = 512; keep < 16384; keep += testing::kUnderSanitizer ? 2048 : 512) {
    SCOPED_TRACE("page write torn after " + std::to_string(keep) + " bytes");
    testing::TempDir tmp;
    const auto dir = tmp.path() / "d";
    FaultInjectionEnv env(Env::Default());
    DatabaseOptions o;
    o.env = &env;
    o.page_cleaner = false;
    Model model;
    {
      auto db = Database::Open(dir, o);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE((*db)->CreateDatabase("crash").ok());
      auto t = (*db)->CreateTable(KvSpec());
      ASSERT_TRUE(t.ok());
      for (int k = 0; k < 300; ++k) {
        const std::string v(100 + k % 200, static_cast<char>('a' + k % 26));
        ASSERT_TRUE((*t)->Insert({Value::Int(k), Value::String(v), Value::Int(k % 7)}).ok());
        model[k] = {v, k % 7};
      }
      // A checkpoint past every page's creation, then changes only the log holds: without the
      // doublewrite copy, the torn page could not be rebuilt.
      ASSERT_TRUE((*db)->Flush().ok());
      for (int k = 0; k < 300; k += 3) {
        const std::string v(150, static_cast<char>('A' + k % 26));
        ASSERT_TRUE((*t)->Update({Value::Int(k), Value::String(v), Value::Int(k % 7)}).ok());
        model[k] = {v, k % 7};
      }
      env.TearNextWriteTo("kv.ibd", keep);
      EXPECT_FALSE((*db)->Flush().ok());  // the torn write stops the machine
      db->reset();
    }
    env.Restart();  // everything written reached the disk, the torn page only in part
    bool torn = false;
    {
      auto f = inspect::SpaceFile::Open(dir / "crash" / "kv.ibd");
      ASSERT_TRUE(f.ok());
      torn = !inspect::CheckSpace(*f).findings.empty();
    }
    ASSERT_TRUE(torn) << "the test did not tear a page";
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    EXPECT_GE((*db)->doublewrite_stats().restored, 1u);
    auto t = (*db)->GetTable("crash", "kv");
    ASSERT_TRUE(t.ok());
    ASSERT_EQ(ReadAll(**t), model);
    ASSERT_TRUE((*t)->Check().ok());
  }
}

TEST(CrashTest, FailedFsyncIsNeverAcknowledged) {
  testing::TempDir tmp;
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  Model model;
  {
    auto db = Database::Open(tmp.path() / "d", o);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->CreateDatabase("crash").ok());
    auto t = (*db)->CreateTable(KvSpec());
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE((*t)->Insert({Value::Int(1), Value::String("kept"), Value::Int(1)}).ok());
    env.SetSyncFails(true);
    Status s = (*t)->Insert({Value::Int(2), Value::String("lost"), Value::Int(2)});
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("fdatasync"), std::string::npos) << s.ToString();
    EXPECT_FALSE((*t)->Insert({Value::Int(3), Value::String("refused"), Value::Int(3)}).ok());
    env.PowerOff();
  }
  env.SetSyncFails(false);
  ASSERT_TRUE(env.Crash().ok());
  auto db = Database::Open(tmp.path() / "d", o);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  auto t = (*db)->GetTable("crash", "kv");
  Model m = ReadAll(**t);
  ASSERT_TRUE(m.count(1));
  EXPECT_FALSE(m.count(3));
}

}  // namespace
}  // namespace strata::engine
