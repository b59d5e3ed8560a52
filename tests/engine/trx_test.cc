// Transactions: each isolation test is a scripted interleaving of sessions with the result
// each isolation level must give; then locks, deadlocks, rollback, statement savepoints,
// history and purge, and the undo pages as the inspector reads them.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "engine/db.h"
#include "inspect/space_file.h"
#include "inspect/undo.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

using namespace std::chrono_literals;

// id BIGINT PRIMARY KEY, k BIGINT, note VARCHAR(40), KEY k_1 (k)
TableSpec Accounts() {
  TableSpec s;
  s.database = "bank";
  s.name = "acct";
  s.columns = {NotNull(Col("id", ColumnType::kBigInt)), NotNull(Col("k", ColumnType::kBigInt)),
               Col("note", ColumnType::kVarchar, 40)};
  s.primary_key = {"id"};
  IndexSpec k;
  k.name = "k_1";
  k.columns = {"k"};
  s.indexes = {k};
  return s;
}

Row R(std::int64_t id, std::int64_t k, std::string note = "") {
  return {Value::Int(id), Value::Int(k), Value::String(std::move(note))};
}

struct Fixture {
  testing::TempDir tmp;
  std::unique_ptr<Database> db;
  Table* t = nullptr;

  explicit Fixture(DatabaseOptions o = {}, int rows = 5) {
    o.buffer_pool_bytes = 16u << 20;
    auto opened = Database::Open(tmp.path() / "d", o);
    EXPECT_TRUE(opened.ok()) << opened.status().ToString();
    db = std::move(*opened);
    EXPECT_TRUE(db->CreateDatabase("bank").ok());
    auto created = db->CreateTable(Accounts());
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    t = *created;
    for (int i = 1; i <= rows; ++i) EXPECT_TRUE(t->Insert(R(i * 10, 0)).ok());
  }
  std::unique_ptr<Transaction> Begin(Isolation iso, bool snapshot = false) {
    auto trx = db->Begin({iso, snapshot});
    EXPECT_TRUE(trx.ok());
    return std::move(*trx);
  }
  // k of row `id` as `trx` reads it (-1: no such row).
  std::int64_t K(std::int64_t id, Transaction* trx = nullptr, RowLock lock = RowLock::kNone) {
    auto r = t->Get({Value::Int(id)}, trx, lock);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() && r->has_value() ? (**r)[1].as_int() : -1;
  }
  std::vector<std::int64_t> Ids(Transaction* trx = nullptr, const std::string& index = "PRIMARY") {
    std::vector<std::int64_t> ids;
    ScanOptions o;
    o.index = index;
    EXPECT_TRUE(t->Scan(
                     o, [&](const Row& r) { return ids.push_back(r[0].as_int()), true; }, trx)
                    .ok());
    return ids;
  }
};

TEST(IsolationTest, NoDirtyReadExceptUnderReadUncommitted) {
  for (Isolation iso : {Isolation::kReadUncommitted, Isolation::kReadCommitted, Isolation::kRepeatableRead}) {
    Fixture f;
    auto writer = f.Begin(Isolation::kRepeatableRead);
    ASSERT_TRUE(f.t->Update(R(10, 99), writer.get()).ok());
    auto reader = f.Begin(iso);
    EXPECT_EQ(f.K(10, reader.get()), iso == Isolation::kReadUncommitted ? 99 : 0) << ToString(iso);
    ASSERT_TRUE(writer->Rollback().ok());
    EXPECT_EQ(f.K(10, reader.get()), 0) << ToString(iso);
    EXPECT_EQ(f.K(10), 0);
  }
}

TEST(IsolationTest, NonRepeatableReadUnderReadCommittedButNotRepeatableRead) {
  for (Isolation iso : {Isolation::kReadCommitted, Isolation::kRepeatableRead}) {
    Fixture f;
    auto reader = f.Begin(iso);
    EXPECT_EQ(f.K(20, reader.get()), 0);
    ASSERT_TRUE(f.t->Update(R(20, 5)).ok());  // another session, autocommit
    EXPECT_EQ(f.K(20, reader.get()), iso == Isolation::kReadCommitted ? 5 : 0) << ToString(iso);
    // The same through the secondary index: the row's visible version decides.
    ScanOptions by_k;
    by_k.index = "k_1";
    std::vector<std::pair<std::int64_t, std::int64_t>> seen;
    ASSERT_TRUE(
        f.t->Scan(
               by_k, [&](const Row& r) { return seen.emplace_back(r[0].as_int(), r[1].as_int()), true; }, reader.get())
            .ok());
    ASSERT_EQ(seen.size(), 5u);
    const std::int64_t expect = iso == Isolation::kReadCommitted ? 5 : 0;
    EXPECT_EQ(std::count(seen.begin(), seen.end(), std::make_pair(std::int64_t{20}, expect)), 1) << ToString(iso);
    ASSERT_TRUE(reader->Commit().ok());
  }
}

TEST(IsolationTest, SnapshotIsTakenAtTheFirstReadNotAtBegin) {
  Fixture f;
  auto late = f.Begin(Isolation::kRepeatableRead);
  auto snapshot = f.Begin(Isolation::kRepeatableRead, /*consistent_snapshot=*/true);
  ASSERT_TRUE(f.t->Update(R(30, 7)).ok());
  EXPECT_EQ(f.K(30, late.get()), 7) << "the view opens at the first read, after the update committed";
  EXPECT_EQ(f.K(30, snapshot.get()), 0) << "WITH CONSISTENT SNAPSHOT opens the view at BEGIN";
  ASSERT_TRUE(f.t->Update(R(30, 8)).ok());
  EXPECT_EQ(f.K(30, late.get()), 7);
}

// The snapshot is taken by the first read, while the transaction has no id yet (it gets one at
// its first write): its own later changes must still be visible to it.
TEST(IsolationTest, ASnapshotTakenBeforeTheFirstWriteSeesTheTransactionsOwnChanges) {
  Fixture f;
  auto trx = f.Begin(Isolation::kRepeatableRead);
  EXPECT_EQ(f.K(10, trx.get()), 0);
  ASSERT_TRUE(f.t->Update(R(10, 5), trx.get()).ok());
  ASSERT_TRUE(f.t->Insert(R(60, 6), trx.get()).ok());
  EXPECT_EQ(f.K(10, trx.get()), 5);
  EXPECT_EQ(f.K(60, trx.get()), 6);
  EXPECT_EQ(f.Ids(trx.get()), (std::vector<std::int64_t>{10, 20, 30, 40, 50, 60}));
  EXPECT_EQ(f.K(10), 0);  // others still read the committed row
}

TEST(IsolationTest, DeletesAndInsertsOfOthersAreInvisibleToAnOpenView) {
  Fixture f;
  auto reader = f.Begin(Isolation::kRepeatableRead);
  EXPECT_EQ(f.Ids(reader.get()), (std::vector<std::int64_t>{10, 20, 30, 40, 50}));
  ASSERT_TRUE(f.t->Delete({Value::Int(20)}).ok());
  ASSERT_TRUE(f.t->Insert(R(25, 1)).ok());
  ASSERT_TRUE(f.t->Update(R(40, 3)).ok());
  EXPECT_EQ(f.Ids(reader.get()), (std::vector<std::int64_t>{10, 20, 30, 40, 50}));
  EXPECT_EQ(f.Ids(reader.get(), "k_1"), (std::vector<std::int64_t>{10, 20, 30, 40, 50}));
  EXPECT_EQ(f.Ids(), (std::vector<std::int64_t>{10, 25, 30, 40, 50}));
  EXPECT_EQ(f.Ids(nullptr, "k_1"), (std::vector<std::int64_t>{10, 30, 50, 25, 40}));
  // Purge may not remove the deleted row while the view can see it.
  ASSERT_TRUE(f.db->Purge().ok());
  EXPECT_EQ(f.Ids(reader.get()), (std::vector<std::int64_t>{10, 20, 30, 40, 50}));
  ASSERT_TRUE(reader->Commit().ok());
  ASSERT_TRUE(f.db->Purge().ok());
  EXPECT_EQ(f.db->history_list_length(), 0u);
  EXPECT_TRUE(f.t->Check().ok());
}

TEST(IsolationTest, SerializableTurnsPlainReadsIntoSharedLocks) {
  DatabaseOptions o;
  o.lock_wait_timeout = 200ms;
  Fixture f(o);
  auto reader = f.Begin(Isolation::kSerializable);
  EXPECT_EQ(f.K(10, reader.get()), 0);  // a plain SELECT, locking under SERIALIZABLE
  EXPECT_TRUE(f.t->Update(R(10, 1)).IsLockWaitTimeout());
  auto other = f.Begin(Isolation::kSerializable);
  EXPECT_EQ(f.K(10, other.get()), 0) << "shared locks do not block each other";
  ASSERT_TRUE(reader->Commit().ok());
  ASSERT_TRUE(other->Commit().ok());
  EXPECT_TRUE(f.t->Update(R(10, 1)).ok());
}

TEST(LockTest, PhantomInsertIsBlockedByAGapLock) {
  DatabaseOptions o;
  o.lock_wait_timeout = 300ms;
  Fixture f(o);
  auto scanner = f.Begin(Isolation::kRepeatableRead);
  ScanOptions range;
  range.from = {Value::Int(20)};
  range.lock = RowLock::kExclusive;  // SELECT ... WHERE id BETWEEN 20 AND 35 FOR UPDATE
  std::vector<std::int64_t> ids;
  ASSERT_TRUE(f.t->Scan(
                     range, [&](const Row& r) { return r[0].as_int() <= 35 && (ids.push_back(r[0].as_int()), true); },
                     scanner.get())
                  .ok());
  EXPECT_EQ(ids, (std::vector<std::int64_t>{20, 30}));
  Status phantom = f.t->Insert(R(25, 0));
  EXPECT_TRUE(phantom.IsLockWaitTimeout()) << phantom.ToString();
  Status outside = f.t->Insert(R(60, 0));
  EXPECT_TRUE(outside.ok()) << outside.ToString();
  // Once the scanner commits the insert goes through.
  auto waiting = std::async(std::launch::async, [&] { return f.t->Insert(R(35, 0)); });
  std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(scanner->Commit().ok());
  EXPECT_TRUE(waiting.get().ok());
}

TEST(LockTest, LostUpdateWithPlainReadsAndNotWithForUpdate) {
  for (RowLock lock : {RowLock::kNone, RowLock::kExclusive}) {
    Fixture f;
    auto a = f.Begin(Isolation::kRepeatableRead);
    auto b = f.Begin(Isolation::kRepeatableRead);
    const std::int64_t ka = f.K(10, a.get(), lock);
    std::promise<std::int64_t> b_read;
    auto b_done = std::async(std::launch::async, [&] {
      const std::int64_t kb = f.K(10, b.get(), lock);  // waits for a under FOR UPDATE
      b_read.set_value(kb);
      Status s = f.t->Update(R(10, kb + 1), b.get());
      return s.ok() ? b->Commit() : s;
    });
    if (lock == RowLock::kNone) b_read.get_future().wait();
    ASSERT_TRUE(f.t->Update(R(10, ka + 1), a.get()).ok());
    ASSERT_TRUE(a->Commit().ok());
    ASSERT_TRUE(b_done.get().ok());
    EXPECT_EQ(f.K(10), lock == RowLock::kNone ? 1 : 2)
        << (lock == RowLock::kNone ? "plain SELECT loses an update" : "FOR UPDATE");
  }
}

TEST(LockTest, FiftyThreadsIncrementOneRowExactly) {
  DatabaseOptions o;
  o.flush_log_at_trx_commit = 2;  // the lock path is under test, not the disk
  Fixture f(o, 1);
  constexpr int kThreads = 50, kEach = 40;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      for (int n = 0; n < kEach; ++n) {
        auto trx = f.db->Begin({Isolation::kRepeatableRead});
        auto row = f.t->Get({Value::Int(10)}, trx->get(), RowLock::kExclusive);  // k = k + 1
        Status s = row.ok() ? f.t->Update(R(10, (**row)[1].as_int() + 1), trx->get()) : row.status();
        if (s.ok()) s = (*trx)->Commit();
        if (!s.ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(f.K(10), kThreads * kEach);
  EXPECT_TRUE(f.t->Check().ok());
}

TEST(LockTest, TwoRowDeadlockRollsBackTheYoungerAndTheOtherCommits) {
  Fixture f;
  auto older = f.Begin(Isolation::kRepeatableRead);
  auto younger = f.Begin(Isolation::kRepeatableRead);
  ASSERT_TRUE(f.t->Update(R(10, 1), older.get()).ok());
  ASSERT_TRUE(f.t->Update(R(20, 2), younger.get()).ok());
  auto older_next = std::async(std::launch::async, [&] { return f.t->Update(R(20, 11), older.get()); });
  std::this_thread::sleep_for(100ms);  // older now waits for younger's row 20
  Status s = f.t->Update(R(10, 22), younger.get());
  EXPECT_TRUE(s.IsDeadlock()) << s.ToString();
  EXPECT_FALSE(younger->active()) << "the victim is rolled back whole";
  ASSERT_TRUE(older_next.get().ok());
  ASSERT_TRUE(older->Commit().ok());
  EXPECT_EQ(f.K(10), 1);
  EXPECT_EQ(f.K(20), 11);
  EXPECT_GE(f.db->StatusReport().locks.deadlocks, 1u);
}

TEST(LockTest, WithDetectionOffADeadlockEndsInATimeout) {
  DatabaseOptions o;
  o.deadlock_detect = false;  // innodb_deadlock_detect=OFF: the wait timeout breaks the cycle
  o.lock_wait_timeout = 300ms;
  Fixture f(o);
  auto a = f.Begin(Isolation::kRepeatableRead);
  auto b = f.Begin(Isolation::kRepeatableRead);
  ASSERT_TRUE(f.t->Update(R(10, 1), a.get()).ok());
  ASSERT_TRUE(f.t->Update(R(20, 2), b.get()).ok());
  auto a_next = std::async(std::launch::async, [&] { return f.t->Update(R(20, 11), a.get()); });
  std::this_thread::sleep_for(50ms);
  Status s = f.t->Update(R(10, 22), b.get());
  EXPECT_TRUE(s.IsLockWaitTimeout()) << s.ToString();
  EXPECT_TRUE(b->active());
  ASSERT_TRUE(b->Rollback().ok());
  (void)a_next.get();  // a may have timed out too, or got the row once b rolled back
  EXPECT_EQ(f.db->StatusReport().locks.deadlocks, 0u);
}

TEST(LockTest, WaitTimesOutWithMySqlsMessageAndOnlyTheStatementIsUndone) {
  DatabaseOptions o;
  o.lock_wait_timeout = 200ms;
  Fixture f(o);
  auto holder = f.Begin(Isolation::kRepeatableRead);
  ASSERT_TRUE(f.t->Update(R(10, 1), holder.get()).ok());
  auto other = f.Begin(Isolation::kRepeatableRead);
  ASSERT_TRUE(f.t->Update(R(20, 2), other.get()).ok());
  Status s = f.t->Update(R(10, 3), other.get());
  ASSERT_TRUE(s.IsLockWaitTimeout());
  EXPECT_EQ(s.message(), "Lock wait timeout exceeded; try restarting transaction");
  EXPECT_TRUE(other->active());
  ASSERT_TRUE(holder->Commit().ok());
  ASSERT_TRUE(other->Commit().ok());
  EXPECT_EQ(f.K(10), 1);
  EXPECT_EQ(f.K(20), 2);
}

TEST(RollbackTest, RollbackUndoesInsertsUpdatesAndDeletesInEveryIndex) {
  Fixture f;
  auto trx = f.Begin(Isolation::kRepeatableRead);
  ASSERT_TRUE(f.t->Insert(R(15, 4, "new"), trx.get()).ok());
  ASSERT_TRUE(f.t->Update(R(10, 9, "changed"), trx.get()).ok());
  ASSERT_TRUE(f.t->Update(R(10, 8, "twice"), trx.get()).ok());
  ASSERT_TRUE(f.t->Delete({Value::Int(30)}, trx.get()).ok());
  ASSERT_TRUE(f.t->Insert(R(30, 5, "again"), trx.get()).ok());  // over its own delete-marked row
  EXPECT_EQ(f.Ids(trx.get()), (std::vector<std::int64_t>{10, 15, 20, 30, 40, 50}));
  ASSERT_TRUE(trx->Rollback().ok());
  EXPECT_EQ(f.Ids(), (std::vector<std::int64_t>{10, 20, 30, 40, 50}));
  EXPECT_EQ(f.Ids(nullptr, "k_1"), (std::vector<std::int64_t>{10, 20, 30, 40, 50}));
  EXPECT_EQ(f.K(10), 0);
  EXPECT_EQ(f.K(30), 0);
  Status check = f.t->Check();
  EXPECT_TRUE(check.ok()) << check.ToString();
}

TEST(RollbackTest, AFailedStatementRollsBackOnlyItself) {
  Fixture f;
  auto trx = f.Begin(Isolation::kRepeatableRead);
  ASSERT_TRUE(f.t->Insert(R(1, 0), trx.get()).ok());
  Status dup = f.t->InsertBatch({R(2, 0), R(3, 0), R(10, 0)}, trx.get());  // 10 exists
  EXPECT_TRUE(dup.IsAlreadyExists()) << dup.ToString();
  EXPECT_TRUE(trx->active());
  ASSERT_TRUE(trx->Commit().ok());
  EXPECT_EQ(f.Ids(), (std::vector<std::int64_t>{1, 10, 20, 30, 40, 50}));
}

TEST(HistoryTest, HistoryGrowsBehindAnOpenViewAndPurgeEmptiesItAfter) {
  DatabaseOptions o;
  o.purge = false;  // purge runs when the test says
  Fixture f(o, 1);
  ASSERT_TRUE(f.db->Purge().ok());
  const std::uint64_t before = f.db->history_list_length();
  auto view = f.Begin(Isolation::kRepeatableRead, true);
  EXPECT_EQ(f.K(10, view.get()), 0);
  constexpr int kUpdates = 1000;
  for (int i = 1; i <= kUpdates; ++i) ASSERT_TRUE(f.t->Update(R(10, i)).ok());
  EXPECT_EQ(f.db->history_list_length(), before + kUpdates) << "one committed update-undo log per transaction";
  ASSERT_TRUE(f.db->Purge().ok());
  EXPECT_EQ(f.db->history_list_length(), before + kUpdates) << "purge must stop behind the open view";
  EXPECT_EQ(f.K(10, view.get()), 0) << "the view still reads the first version, 1000 versions back";
  const std::string report = f.db->StatusReport().Render();
  EXPECT_NE(report.find("History list length " + std::to_string(before + kUpdates)), std::string::npos) << report;
  ASSERT_TRUE(view->Commit().ok());
  auto purged = f.db->Purge();
  ASSERT_TRUE(purged.ok());
  EXPECT_EQ(f.db->history_list_length(), 0u);
  EXPECT_EQ(f.K(10), kUpdates);
}

TEST(HistoryTest, FastShutdownLeavesTheHistoryOnDiskForTheInspector) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  for (int fast : {1, 0}) {
    std::filesystem::remove_all(dir);
    DatabaseOptions o;
    o.purge = false;
    o.fast_shutdown = fast;
    {
      std::unique_ptr<Transaction> held;  // destroyed after the database: open at shutdown
      auto db = Database::Open(dir, o);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE((*db)->CreateDatabase("bank").ok());
      Table* t = *(*db)->CreateTable(Accounts());
      ASSERT_TRUE(t->Insert(R(1, 0)).ok());
      auto view = (*db)->Begin({Isolation::kRepeatableRead, true});
      for (int i = 1; i <= 200; ++i) ASSERT_TRUE(t->Update(R(1, i)).ok());
      ASSERT_TRUE((*view)->Commit().ok());
      if (fast == 1) {
        // Held open across the shutdown: nothing may be purged.
        held = std::move(*(*db)->Begin({Isolation::kRepeatableRead, true}));
        EXPECT_EQ((*db)->history_list_length(), 200u);
      }
    }
    auto ibdata = inspect::SpaceFile::Open(dir / "ibdata1");
    ASSERT_TRUE(ibdata.ok());
    const auto report = inspect::AnalyzeUndo(std::vector<const inspect::SpaceFile*>{&*ibdata}, true);
    for (const auto& finding : report.findings) ADD_FAILURE() << finding.ToString();
    EXPECT_EQ(report.history_list_length, fast == 1 ? 200u : 0u) << "innodb_fast_shutdown=" << fast;
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ((*db)->history_list_length(), fast == 1 ? 200u : 0u);
  }
}

}  // namespace
}  // namespace strata::engine
