// A crash after every mini-transaction of one statement. A statement is several
// mini-transactions (its undo record, the clustered record, each secondary index, off-page
// values, page splits), each atomic on its own, and a crash may land between any two of
// them. Recovery replays the log to that point and rolls the unfinished transaction back: the
// table must then be as it was before the statement, with every index agreeing with it.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "engine/db.h"
#include "engine/fault_injection_env.h"
#include "engine/sync_point.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

TableSpec Spec() {
  return {"c",
          "t",
          {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kLongText), Col("g", ColumnType::kInt)},
          {"id"},
          {{"g", {"g"}, false}}};
}

Row R(std::int64_t id, std::string v, int g) { return {Value::Int(id), Value::String(std::move(v)), Value::Int(g)}; }

// 300 rows over a few leaf pages, row 17 with an off-page value.
constexpr int kRows = 300;
Row BaseRow(int i) { return R(i, std::string(i == 17 ? 12000 : 90, static_cast<char>('a' + i % 26)), i % 40); }

struct Statement {
  const char* name;
  Status (*run)(Table&, Transaction*);
};

const Statement kStatements[] = {
    {"Insert", [](Table& t, Transaction* x) { return t.Insert(R(5000, "new", 7), x); }},
    {"InsertBatchSplittingPages",
     [](Table& t, Transaction* x) {
       std::vector<Row> rows;
       for (int i = 0; i < 16; ++i) rows.push_back(R(1000 + i, std::string(700, 'n'), i % 40));
       return t.InsertBatch(rows, x);
     }},
    {"Delete", [](Table& t, Transaction* x) { return t.Delete({Value::Int(21)}, x); }},
    {"DeleteOfAnOffPageRow", [](Table& t, Transaction* x) { return t.Delete({Value::Int(17)}, x); }},
    {"UpdateMovingTheIndexEntry",
     [](Table& t, Transaction* x) { return t.Update(R(21, std::string(90, 'z'), 39), x); }},
    {"UpdateGrowingTheRow",
     [](Table& t, Transaction* x) { return t.Update(R(22, std::string(4000, 'w'), 22 % 40), x); }},
    {"UpdateToAnOffPageValue", [](Table& t, Transaction* x) { return t.Update(R(23, std::string(20000, 'y'), 5), x); }},
};

using Rows = std::map<std::int64_t, std::pair<std::string, std::int64_t>>;

Rows ReadThrough(Table& t, const std::string& index) {
  Rows out;
  ScanOptions o;
  o.index = index;
  EXPECT_TRUE(t.Scan(o, [&](const Row& r) {
                 out[r[0].as_int()] = {r[1].as_string(), r[2].as_int()};
                 return true;
               }).ok());
  return out;
}

class MtrCrashTest : public ::testing::TestWithParam<Statement> {
 public:
  // A database with the table's rows, flushed and checkpointed, on a fault-injecting Env.
  struct Run {
    testing::TempDir tmp;
    FaultInjectionEnv env{Env::Default()};
    DatabaseOptions options;
    std::unique_ptr<Database> db;
    Table* t = nullptr;
    Run() {
      options.env = &env;
      options.purge = false;  // no mini-transactions but the statement's
      options.buffer_pool_bytes = 8u << 20;
      auto opened = Database::Open(tmp.path() / "d", options);
      EXPECT_TRUE(opened.ok()) << opened.status().ToString();
      db = std::move(*opened);
      EXPECT_TRUE(db->CreateDatabase("c").ok());
      auto created = db->CreateTable(Spec());
      EXPECT_TRUE(created.ok());
      t = *created;
      for (int i = 0; i < kRows; ++i) EXPECT_TRUE(t->Insert(BaseRow(i)).ok());
      EXPECT_TRUE(db->Flush().ok());
    }
    // Runs `step` with the log made durable and the power cut right after its `cut`-th
    // mini-transaction; false (with a failure) when it ran fewer.
    bool CutAfter(int cut, const std::function<void()>& step, const std::string& when) {
      int seen = 0;
      sync_point::Set([&](std::string_view point) {
        if (point != "mtr.committed" || ++seen != cut) return;
        EXPECT_TRUE(db->WaitDurable().ok());  // the log holds this mini-transaction and those before
        env.PowerOff();                       // and nothing written after it reaches the disk
      });
      step();
      sync_point::Set(nullptr);
      EXPECT_GE(seen, cut) << when << ": fewer mini-transactions ran this time";
      return seen >= cut;
    }
    // The crash, then the open that recovers; the table, checked (null on a failure).
    Table* Recover(const std::string& when) {
      db.reset();
      EXPECT_TRUE(env.Crash().ok());
      auto reopened = Database::Open(tmp.path() / "d", options);
      EXPECT_TRUE(reopened.ok()) << when << ": " << reopened.status().ToString();
      if (!reopened.ok()) return nullptr;
      db = std::move(*reopened);
      auto table = db->GetTable("c", "t");
      EXPECT_TRUE(table.ok()) << when;
      if (!table.ok()) return nullptr;
      Status check = (*table)->Check();
      EXPECT_TRUE(check.ok()) << when << ": " << check.ToString();
      return *table;
    }
  };

  // How many mini-transactions `step` runs.
  static int CountMtrs(const std::function<void()>& step) {
    int mtrs = 0;
    sync_point::Set([&](std::string_view point) { mtrs += point == "mtr.committed"; });
    step();
    sync_point::Set(nullptr);
    return mtrs;
  }

 protected:
  void TearDown() override { sync_point::Set(nullptr); }
};

TEST_P(MtrCrashTest, RecoveryUndoesAStatementCutAfterAnyOfItsMiniTransactions) {
  const Statement& statement = GetParam();
  Rows before;
  int mtrs = 0;
  {
    Run run;
    before = ReadThrough(*run.t, "PRIMARY");
    auto trx = run.db->Begin();
    ASSERT_TRUE(trx.ok());
    const std::uint64_t splits = run.t->stats().page_splits;
    mtrs = CountMtrs([&] { ASSERT_TRUE(statement.run(*run.t, trx->get()).ok()); });
    if (std::string_view(statement.name).find("Splitting") != std::string_view::npos) {
      ASSERT_GT(run.t->stats().page_splits, splits) << "the batch was meant to split a page";
    }
  }
  ASSERT_GT(mtrs, 1) << "a statement of one mini-transaction has nothing to cut";
  for (int cut = 1; cut <= mtrs; ++cut) {
    const std::string when = std::string(statement.name) + " cut after mini-transaction " + std::to_string(cut) +
                             " of " + std::to_string(mtrs);
    Run run;
    {
      auto trx = run.db->Begin();
      ASSERT_TRUE(trx.ok());
      ASSERT_TRUE(run.CutAfter(
          cut, [&] { (void)statement.run(*run.t, trx->get()); }, when));
      trx->reset();
    }
    Table* t = run.Recover(when);
    ASSERT_NE(t, nullptr);
    EXPECT_TRUE(ReadThrough(*t, "PRIMARY") == before) << when << ": the rows differ from those before the statement";
    EXPECT_TRUE(ReadThrough(*t, "g") == before) << when << ": the rows read through index g differ";
    if (::testing::Test::HasFailure()) return;
  }
}

// The commit of a transaction with both undo logs (an insert, an update and a delete) cut
// after each of its mini-transactions: recovery finds it either committed, all of it, or not,
// and then rolls all of it back; never its inserts kept and its updates undone.
TEST(MtrCrashCommitTest, ACommitCutAnywhereIsAllOrNothing) {
  auto change = [](Table& t, Transaction* x) {
    EXPECT_TRUE(t.Insert(R(5000, "new", 7), x).ok());
    EXPECT_TRUE(t.Update(R(21, std::string(90, 'z'), 39), x).ok());
    EXPECT_TRUE(t.Delete({Value::Int(30)}, x).ok());
  };
  Rows before, after;
  int mtrs = 0;
  {
    MtrCrashTest::Run run;
    before = ReadThrough(*run.t, "PRIMARY");
    auto trx = run.db->Begin();
    ASSERT_TRUE(trx.ok());
    change(*run.t, trx->get());
    mtrs = MtrCrashTest::CountMtrs([&] { ASSERT_TRUE((*trx)->Commit().ok()); });
    after = ReadThrough(*run.t, "PRIMARY");
  }
  ASSERT_GE(mtrs, 1);
  for (int cut = 1; cut <= mtrs; ++cut) {
    const std::string when = "commit cut after mini-transaction " + std::to_string(cut) + " of " + std::to_string(mtrs);
    MtrCrashTest::Run run;
    {
      auto trx = run.db->Begin();
      ASSERT_TRUE(trx.ok());
      change(*run.t, trx->get());
      ASSERT_TRUE(run.CutAfter(
          cut, [&] { (void)(*trx)->Commit(); }, when));
      trx->reset();
    }
    Table* t = run.Recover(when);
    ASSERT_NE(t, nullptr);
    const Rows now = ReadThrough(*t, "PRIMARY");
    EXPECT_TRUE(now == before || now == after)
        << when << ": part of the transaction survived (" << now.size() << " rows; " << before.size() << " before it, "
        << after.size() << " after)";
    if (::testing::Test::HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Statements, MtrCrashTest, ::testing::ValuesIn(kStatements),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace strata::engine
