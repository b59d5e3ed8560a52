// Transaction histories checked for anomalies, as Jepsen's Elle checks them: concurrent
// clients run random transactions of reads and appends on a few lists (tests/util/
// list_append.h), every result is recorded, and the checker infers the dependency graph and
// names each anomaly it finds. Each isolation level must show none of those it forbids:
//   every level           no dirty write (G0), no lost append, one version order per key;
//   READ COMMITTED and up no dirty, aborted or intermediate read (G1a, G1b, G1c);
//   REPEATABLE READ       and no non-repeatable read (InnoDB's REPEATABLE READ is not
//                         snapshot isolation: its writes read the latest version, so read
//                         skew through a write, G-single, is allowed there, and counted);
//   SERIALIZABLE          no cycle at all (no G-single, no write skew G2).
// The checker's own test (ListAppendCheckerTest) feeds it a history with each anomaly.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <thread>

#include "engine/db.h"
#include "tests/util/list_append.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

using testing::ListAppendReport;
using testing::ListOp;
using testing::ListTxn;

// ---- the checker on histories made by hand ------------------------------------------------

ListOp Read(int key, std::vector<int> seen) { return {ListOp::kRead, key, 0, std::move(seen)}; }
ListOp Append(int key, int element) { return {ListOp::kAppend, key, element, {}}; }
ListTxn Txn(int id, std::vector<ListOp> ops, bool committed = true) { return {id, committed, std::move(ops)}; }

TEST(ListAppendCheckerTest, ASerialHistoryHasNoAnomaly) {
  const auto r = testing::CheckListAppend({Txn(1, {Append(1, 1), Append(2, 2)}), Txn(2, {Read(1, {1}), Append(1, 3)}),
                                           Txn(3, {Read(1, {1, 3}), Read(2, {2})})},
                                          {{1, {1, 3}}, {2, {2}}});
  EXPECT_TRUE(r.anomalies.empty()) << r.Summary();
  EXPECT_EQ(r.committed, 3u);
}

TEST(ListAppendCheckerTest, FindsEachAnomalyItNames) {
  struct Case {
    std::set<std::string> anomalies;  // what the history shows (a G1b or a non-repeatable read is also a cycle)
    std::vector<ListTxn> history;
    std::map<int, std::vector<int>> final_lists;
  };
  const Case cases[] = {
      // Two writers interleaved on two keys: each overwrote the other first (dirty write).
      {{"G0"},
       {Txn(1, {Append(1, 1), Append(2, 2)}), Txn(2, {Append(1, 3), Append(2, 4)})},
       {{1, {1, 3}}, {2, {4, 2}}}},
      {{"G1a"}, {Txn(1, {Append(1, 1)}, false), Txn(2, {Read(1, {1})})}, {{1, {}}}},
      {{"G1b", "G-single"}, {Txn(1, {Append(1, 1), Append(1, 2)}), Txn(2, {Read(1, {1})})}, {{1, {1, 2}}}},
      // Each read what the other wrote.
      {{"G1c"}, {Txn(1, {Append(1, 1), Read(2, {2})}), Txn(2, {Append(2, 2), Read(1, {1})})}, {{1, {1}}, {2, {2}}}},
      // T1 read key 1 before T2's append, yet appended to key 2 after T2 (read skew).
      {{"G-single"},
       {Txn(1, {Read(1, {}), Append(2, 3)}), Txn(2, {Append(1, 1), Append(2, 2)})},
       {{1, {1}}, {2, {2, 3}}}},
      // Write skew: each read both keys empty and appended to one.
      {{"G2"},
       {Txn(1, {Read(1, {}), Read(2, {}), Append(1, 1)}), Txn(2, {Read(1, {}), Read(2, {}), Append(2, 2)})},
       {{1, {1}}, {2, {2}}}},
      {{"lost-append"}, {Txn(1, {Append(1, 1)}), Txn(2, {Append(1, 2)})}, {{1, {2}}}},
      {{"aborted-append-kept"}, {Txn(1, {Append(1, 1)}, false)}, {{1, {1}}}},
      {{"incompatible-order"}, {Txn(1, {Append(1, 1)}), Txn(2, {Append(1, 2)}), Txn(3, {Read(1, {2})})}, {{1, {1, 2}}}},
      {{"duplicate-element"}, {Txn(1, {Append(1, 1)})}, {{1, {1, 1}}}},
      {{"unknown-element"}, {Txn(1, {Read(1, {9})})}, {{1, {9}}}},
      {{"non-repeatable-read", "G-single"}, {Txn(1, {Read(1, {}), Read(1, {2})}), Txn(2, {Append(1, 2)})}, {{1, {2}}}},
      // A transaction that does not see its own append.
      {{"internal"}, {Txn(1, {Append(1, 1), Read(1, {})})}, {{1, {1}}}},
  };
  for (const Case& c : cases) {
    const auto r = testing::CheckListAppend(c.history, c.final_lists);
    std::set<std::string> found;
    for (const auto& [name, n] : r.anomalies) found.insert(name);
    EXPECT_EQ(found, c.anomalies) << r.Summary();
  }
}

// A G-single in a component does not hide a G2 in it (T1 -rw-> T2 -rw-> T3 -rw-> T1, and
// T2 -ww-> T1 closing one rw edge alone).
TEST(ListAppendCheckerTest, FindsWriteSkewBesideReadSkew) {
  const auto r =
      testing::CheckListAppend({Txn(1, {Read(1, {}), Append(2, 3), Append(4, 5)}),
                                Txn(2, {Append(1, 1), Append(2, 2), Read(3, {})}), Txn(3, {Append(3, 4), Read(4, {})})},
                               {{1, {1}}, {2, {2, 3}}, {3, {4}}, {4, {5}}});
  EXPECT_EQ(r.count("G-single"), 1) << r.Summary();
  EXPECT_EQ(r.count("G2"), 1) << r.Summary();
}

// ---- concurrent clients on the engine -------------------------------------------------------

constexpr int kKeys = 6;
constexpr int kClients = 6;

TableSpec Lists() {
  return {"h", "lists", {NotNull(Col("k", ColumnType::kInt)), Col("v", ColumnType::kLongText)}, {"k"}, {}};
}

std::vector<int> Parse(const std::string& text) {
  std::vector<int> out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    out.push_back(std::stoi(text.substr(at, comma - at)));
    at = comma + 1;
  }
  return out;
}

std::string Join(const std::vector<int>& list) {
  std::string out;
  for (int e : list) out += (out.empty() ? "" : ",") + std::to_string(e);
  return out;
}

class HistoryAnomalyTest : public ::testing::TestWithParam<Isolation> {};

TEST_P(HistoryAnomalyTest, ConcurrentListAppendsShowNoAnomalyTheLevelForbids) {
  const Isolation level = GetParam();
  const char* env_n = std::getenv("STRATA_HISTORY_TRANSACTIONS");
  const int per_client = env_n ? std::atoi(env_n) : 150;
  testing::TempDir tmp;
  DatabaseOptions o;
  o.buffer_pool_bytes = 16u << 20;
  o.lock_wait_timeout = std::chrono::milliseconds(500);
  auto opened = Database::Open(tmp.path() / "d", o);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  Database& db = **opened;
  ASSERT_TRUE(db.CreateDatabase("h").ok());
  auto created = db.CreateTable(Lists());
  ASSERT_TRUE(created.ok());
  Table& t = **created;
  for (int k = 0; k < kKeys; ++k) ASSERT_TRUE(t.Insert({Value::Int(k), Value::String("")}).ok());

  std::vector<std::vector<ListTxn>> recorded(kClients);
  std::vector<std::string> errors(kClients);
  auto client = [&](int c) {
    std::mt19937 rng(static_cast<unsigned>(c * 7919 + static_cast<int>(level)));
    int next_element = c * 1000000;
    for (int i = 0; i < per_client; ++i) {
      ListTxn txn;
      txn.id = c * 100000 + i;
      auto trx = db.Begin({level});
      if (!trx.ok()) {
        errors[c] = trx.status().ToString();
        return;
      }
      Status s;
      const int n_ops = 1 + static_cast<int>(rng() % 4);
      for (int j = 0; j < n_ops && s.ok(); ++j) {
        ListOp op;
        op.key = static_cast<int>(rng() % kKeys);
        if (rng() % 2) {
          op.kind = ListOp::kRead;
          auto row = t.Get({Value::Int(op.key)}, trx->get());
          if (!row.ok())
            s = row.status();
          else if (row->has_value())
            op.read = Parse((**row)[1].as_string());
        } else {
          // UPDATE lists SET v = CONCAT(v, ',', x): the row's latest version, locked, then written.
          op.kind = ListOp::kAppend;
          op.element = ++next_element;
          auto row = t.Get({Value::Int(op.key)}, trx->get(), RowLock::kExclusive);
          if (!row.ok()) {
            s = row.status();
          } else {
            std::vector<int> list = row->has_value() ? Parse((**row)[1].as_string()) : std::vector<int>{};
            list.push_back(op.element);
            s = t.Update({Value::Int(op.key), Value::String(Join(list))}, trx->get());
          }
        }
        txn.ops.push_back(std::move(op));  // an append that failed may still have happened: the rollback settles it
      }
      if (s.ok()) s = (*trx)->Commit();
      if (s.ok()) {
        txn.committed = true;
      } else if (s.IsDeadlock() || s.IsLockWaitTimeout()) {
        (void)(*trx)->Rollback();
      } else {
        errors[c] = s.ToString();
        return;
      }
      recorded[c].push_back(std::move(txn));
    }
  };
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) threads.emplace_back(client, c);
  for (auto& th : threads) th.join();
  for (const auto& e : errors) ASSERT_TRUE(e.empty()) << e;

  std::map<int, std::vector<int>> final_lists;
  ASSERT_TRUE(t.Scan({}, [&](const Row& r) {
                 final_lists[static_cast<int>(r[0].as_int())] = Parse(r[1].as_string());
                 return true;
               }).ok());
  std::vector<ListTxn> history;
  for (auto& h : recorded) history.insert(history.end(), h.begin(), h.end());
  const ListAppendReport report = testing::CheckListAppend(history, final_lists);
  std::printf("[ history ] %s: %s\n", ToString(level).c_str(), report.Summary().c_str());

  std::vector<std::string> forbidden = {"G0",
                                        "internal",
                                        "lost-append",
                                        "aborted-append-kept",
                                        "incompatible-order",
                                        "duplicate-element",
                                        "unknown-element"};
  if (level >= Isolation::kReadCommitted) forbidden.insert(forbidden.end(), {"G1a", "G1b", "G1c"});
  if (level >= Isolation::kRepeatableRead) forbidden.push_back("non-repeatable-read");
  if (level >= Isolation::kSerializable) forbidden.insert(forbidden.end(), {"G-single", "G2"});
  for (const auto& anomaly : forbidden)
    EXPECT_EQ(report.count(anomaly), 0) << anomaly << " under " << ToString(level) << ": " << report.Summary();
  // The workload has to make the anomalies possible at all: conflicts on few keys.
  EXPECT_GT(report.committed, static_cast<std::size_t>(kClients * per_client / 2));
  EXPECT_GT(report.rw + report.wr, 0u);
  RecordProperty("transactions", static_cast<int>(history.size()));
}

INSTANTIATE_TEST_SUITE_P(Levels, HistoryAnomalyTest,
                         ::testing::Values(Isolation::kReadUncommitted, Isolation::kReadCommitted,
                                           Isolation::kRepeatableRead, Isolation::kSerializable),
                         [](const auto& info) {
                           switch (info.param) {
                             case Isolation::kReadUncommitted:
                               return std::string("ReadUncommitted");
                             case Isolation::kReadCommitted:
                               return std::string("ReadCommitted");
                             case Isolation::kRepeatableRead:
                               return std::string("RepeatableRead");
                             default:
                               return std::string("Serializable");
                           }
                         });

}  // namespace
}  // namespace strata::engine
