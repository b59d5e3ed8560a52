// Crashes by SIGKILL: this test binary runs itself as a child (KillChild.InsertsUntilKilled)
// that inserts rows with flush_log_at_trx_commit=1 and reports each acknowledged key on a pipe;
// the parent kills it at a random moment, reopens the directory (recovery) and checks that
// every acknowledged row is there and nothing else but, at most, the one in flight.
// STRATA_KILLS sets the number of kills (the `slow` label runs more).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <set>

#include "engine/db.h"
#include "tests/util/kill_child.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

TableSpec Spec() {
  return {"kill", "t", {NotNull(Col("id", ColumnType::kInt)), Col("v", ColumnType::kVarchar, 300)}, {"id"}, {}};
}

std::string Value1(int id) { return std::string(50 + id % 200, static_cast<char>('a' + id % 26)); }

// The child: runs only when the parent set STRATA_KILL_DIR.
TEST(KillChild, InsertsUntilKilled) {
  const char* dir = std::getenv("STRATA_KILL_DIR");
  if (!dir) GTEST_SKIP() << "run by KillTest as its child";
  DatabaseOptions o;
  o.buffer_pool_bytes = 1u << 20;
  o.redo_log_bytes = 1u << 20;
  auto db = Database::Open(dir, o);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  (void)(*db)->CreateDatabase("kill");
  auto t = (*db)->GetTable("kill", "t");
  if (!t.ok()) t = (*db)->CreateTable(Spec());
  ASSERT_TRUE(t.ok());
  int next = std::atoi(std::getenv("STRATA_KILL_FROM"));
  for (;; ++next) {
    ASSERT_TRUE((*t)->Insert({Value::Int(next), Value::String(Value1(next))}).ok());
    if (!testing::Acknowledge(std::to_string(next) + "\n")) return;
  }
}

TEST(KillTest, AcknowledgedRowsSurviveSigkill) {
  const char* env_kills = std::getenv("STRATA_KILLS");
  const int kills = env_kills ? std::atoi(env_kills) : 5;
  testing::TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  std::mt19937 rng(5);
  std::set<int> acked;
  int next = 0;
  for (int round = 0; round < kills; ++round) {
    // Killed after a random number of acknowledged commits, in the middle of the next ones.
    const auto child = testing::RunChildUntilKilled(
        "KillChild.InsertsUntilKilled", {{"STRATA_KILL_DIR", dir}, {"STRATA_KILL_FROM", std::to_string(next)}},
        1 + rng() % 300);
    const std::string& out = child.acks;
    ASSERT_TRUE(child.signalled) << "the child ended by itself (status " << child.status << "): " << out;
    std::size_t pos = 0;
    for (std::size_t nl; (nl = out.find('\n', pos)) != std::string::npos; pos = nl + 1) {
      const int id = std::stoi(out.substr(pos, nl - pos));
      acked.insert(id);
      next = std::max(next, id + 1);
    }
    // Recover and compare: every acknowledged row; besides them only the one in flight.
    DatabaseOptions o;
    o.buffer_pool_bytes = 1u << 20;
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok()) << "round " << round << ": " << db.status().ToString();
    auto t = (*db)->GetTable("kill", "t");
    if (!t.ok()) {
      ASSERT_TRUE(acked.empty()) << "rows were acknowledged but the table is gone";
      continue;
    }
    std::set<int> present;
    ASSERT_TRUE((*t)->Scan({},
                           [&](const Row& r) {
                             const int id = static_cast<int>(r[0].as_int());
                             EXPECT_EQ(r[1].as_string(), Value1(id));
                             present.insert(id);
                             return true;
                           })
                    .ok());
    for (int id : acked) ASSERT_TRUE(present.count(id)) << "acknowledged row " << id << " lost in round " << round;
    for (int id : present) {
      if (!acked.count(id)) {
        ASSERT_EQ(id, next) << "row " << id << " was never acknowledged";
        acked.insert(id);  // committed just before the kill: it stays from now on
        ++next;
      }
    }
    ASSERT_TRUE((*t)->Check().ok());
  }
  EXPECT_GE(acked.size(), static_cast<std::size_t>(kills)) << "a child was killed before it committed anything";
  RecordProperty("acknowledged_rows", static_cast<int>(acked.size()));
}

}  // namespace
}  // namespace strata::engine
