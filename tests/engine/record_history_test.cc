// The inspector's record history on the engine's own files: the versions it rebuilds from the
// undo logs on disk are the ones the engine's transactions wrote, in shapes that cross undo
// pages (one transaction rewriting every row with long values), keys inserted in order and
// at random, a transaction rolled back (its versions must not appear), and a power cut whose
// last pages are only in the redo log (read with the log applied in memory).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "engine/db.h"
#include "engine/fault_injection_env.h"
#include "inspect/record_history.h"
#include "inspect/redo_apply.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/undo_locator.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

struct Shape {
  int rows;
  bool random_keys;
  bool power_cut;
};

std::string Name(const ::testing::TestParamInfo<Shape>& p) {
  return std::to_string(p.param.rows) + (p.param.random_keys ? "Random" : "Ascending") +
         (p.param.power_cut ? "PowerCut" : "Shutdown");
}

TableSpec Spec() {
  TableSpec s;
  s.database = "h";
  s.name = "t";
  s.columns = {NotNull(Col("id", ColumnType::kBigInt)), Col("k", ColumnType::kBigInt),
               Col("note", ColumnType::kVarchar, 700)};
  s.primary_key = {"id"};
  return s;
}

// A row as the inspector prints it: id, k (or NULL), note.
using Text = std::vector<std::string>;
Text AsText(std::int64_t id, std::optional<std::int64_t> k, const std::string& note) {
  return {std::to_string(id), k ? std::to_string(*k) : "NULL", note};
}
Text AsText(const inspect::Row& r) {
  Text t;
  for (const auto& c : r.cells)
    t.push_back(c.text ? *c.text : c.unknown.empty() ? "NULL" : "(unknown: " + c.unknown + ")");
  return t;
}

class RecordHistoryTest : public ::testing::TestWithParam<Shape> {};

TEST_P(RecordHistoryTest, VersionsAreTheOnesTheTransactionsWrote) {
  const Shape shape = GetParam();
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  o.purge = false;  // the history stays whole
  o.page_cleaner = !shape.power_cut;

  std::vector<std::int64_t> ids(static_cast<std::size_t>(shape.rows));
  std::iota(ids.begin(), ids.end(), 1);
  if (shape.random_keys) std::shuffle(ids.begin(), ids.end(), std::mt19937(7));
  // Expected versions per id, oldest first: (writer trx id, text, deleted).
  struct Expected {
    std::uint64_t trx;
    Text text;
    bool deleted;
    bool committed = true;
  };
  std::map<std::int64_t, std::vector<Expected>> expected;
  std::uint64_t big_trx = 0;
  std::unique_ptr<Transaction> open;  // still active at the power cut: outlives the database
  {
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->CreateDatabase("h").ok());
    auto t = (*db)->CreateTable(Spec());
    ASSERT_TRUE(t.ok());
    for (std::int64_t id : ids) {
      auto trx = (*db)->Begin();
      ASSERT_TRUE(trx.ok());
      const std::string note = "row " + std::to_string(id) + " " + std::string(300, 'a' + id % 26);
      ASSERT_TRUE((*t)->Insert({Value::Int(id), Value::Int(0), Value::String(note)}, trx->get()).ok());
      const std::uint64_t writer = (*trx)->id();
      ASSERT_TRUE((*trx)->Commit().ok());
      expected[id].push_back({writer, AsText(id, 0, note), false});
    }
    if (shape.power_cut) {
      ASSERT_TRUE((*db)->Flush().ok());  // the rest only in the redo log
    }
    // One transaction rewrites every row with a long value: its undo log spans many pages.
    {
      auto trx = (*db)->Begin();
      ASSERT_TRUE(trx.ok());
      for (std::int64_t id : ids) {
        const std::string note = "big " + std::to_string(id) + " " + std::string(400 + id % 200, 'x');
        if (id % 7 == 0) {
          ASSERT_TRUE((*t)->Delete({Value::Int(id)}, trx->get()).ok());
          auto last = expected[id].back();
          expected[id].push_back({0, last.text, true});
        } else {
          ASSERT_TRUE((*t)->Update({Value::Int(id), Value::Int(1), Value::String(note)}, trx->get()).ok());
          expected[id].push_back({0, AsText(id, 1, note), false});
        }
      }
      big_trx = (*trx)->id();
      ASSERT_TRUE((*trx)->Commit().ok());
      for (auto& [id, v] : expected) v.back().trx = big_trx;
    }
    // A transaction rolled back: none of its versions may show.
    {
      auto trx = (*db)->Begin();
      ASSERT_TRUE(trx.ok());
      for (int i = 0; i < shape.rows; i += 3) {
        if (ids[i] % 7) {
          ASSERT_TRUE((*t)->Update({Value::Int(ids[i]), Value::Int(-1), Value::Null()}, trx->get()).ok());
        }
      }
      ASSERT_TRUE((*trx)->Rollback().ok());
    }
    // Two rounds of autocommit single-row updates of every tenth row, one with a NULL.
    for (int round = 2; round <= 3; ++round) {
      for (std::int64_t id : ids) {
        if (id % 10 || id % 7 == 0) continue;
        auto trx = (*db)->Begin();
        ASSERT_TRUE(trx.ok());
        const std::optional<std::int64_t> k = round == 2 ? std::optional<std::int64_t>(round) : std::nullopt;
        ASSERT_TRUE((*t)->Update({Value::Int(id), k ? Value::Int(*k) : Value::Null(),
                                  Value::String("r" + std::to_string(round))},
                                 trx->get())
                        .ok());
        const std::uint64_t writer = (*trx)->id();
        ASSERT_TRUE((*trx)->Commit().ok());
        expected[id].push_back({writer, AsText(id, k, "r" + std::to_string(round)), false});
      }
    }
    if (shape.power_cut) {
      ASSERT_NE(ids[0] % 7, 0) << "ids[0] gets the durable update";
      // A transaction still open at the power cut, its changes in the log (a later commit
      // made them durable): no read view may see them.
      auto trx = (*db)->Begin();
      ASSERT_TRUE(trx.ok());
      open = std::move(*trx);
      std::vector<std::int64_t> live;  // rows the big transaction did not delete, but ids[0]
      for (std::size_t i = 1; i < ids.size() && live.size() < 2; ++i) {
        if (ids[i] % 7) live.push_back(ids[i]);
      }
      ASSERT_EQ(live.size(), 2u);
      const std::int64_t updated = live[0], deleted = live[1], inserted = shape.rows + 1;
      ASSERT_TRUE((*t)->Update({Value::Int(updated), Value::Int(9), Value::String("open")}, open.get()).ok());
      ASSERT_TRUE((*t)->Delete({Value::Int(deleted)}, open.get()).ok());
      ASSERT_TRUE((*t)->Insert({Value::Int(inserted), Value::Int(9), Value::String("open")}, open.get()).ok());
      expected[updated].push_back({open->id(), AsText(updated, 9, "open"), false, false});
      expected[deleted].push_back({open->id(), expected[deleted].back().text, true, false});
      expected[inserted].push_back({open->id(), AsText(inserted, 9, "open"), false, false});
      auto durable = (*db)->Begin();
      ASSERT_TRUE(durable.ok());
      ASSERT_TRUE((*t)->Update({Value::Int(ids[0]), Value::Int(5), Value::String("durable")}, durable->get()).ok());
      expected[ids[0]].push_back({(*durable)->id(), AsText(ids[0], 5, "durable"), false});
      ASSERT_TRUE((*durable)->Commit().ok());
      env.PowerOff();
    }
  }
  if (shape.power_cut) {
    ASSERT_TRUE(env.Crash().ok());
  }

  std::vector<inspect::Finding> ignored;
  std::vector<inspect::SpaceFile> files = inspect::OpenSpaces({dir}, &ignored);
  if (shape.power_cut) {
    ASSERT_TRUE(inspect::StaleLogFinding(dir));
    inspect::RedoApplyResult applied = inspect::ApplyRedo(dir, files);
    for (const auto& [id, why] : applied.pages_left) ADD_FAILURE() << id.first << ":" << id.second << " " << why;
  }
  const inspect::SpaceFile* table_file = nullptr;
  std::vector<const inspect::SpaceFile*> all;
  for (const auto& f : files) {
    all.push_back(&f);
    if (f.path().filename() == "t.ibd") table_file = &f;
  }
  ASSERT_NE(table_file, nullptr);
  inspect::Dictionary dict = inspect::ReadDictionary(*table_file);
  ASSERT_EQ(dict.tables.size(), 1u);
  const inspect::TableDef& table = dict.tables[0];
  inspect::UndoLocator locator(all);
  for (const auto& gap : locator.gaps()) ADD_FAILURE() << gap;
  inspect::RecordHistory history(*table_file, table, *table.Clustered(), locator);
  ASSERT_EQ(history.refused(), "");

  std::size_t seen = 0;
  std::set<std::uint32_t> big_trx_pages;  // the undo pages the big transaction's records are on
  inspect::RowScan scan = inspect::ScanRows(*table_file, table, *table.Clustered(), true, [&](const inspect::Row& row) {
    const std::int64_t id = std::stoll(*row.cells[0].text);
    const auto versions = history.Versions(row);
    const auto& want = expected.at(id);
    ++seen;
    ASSERT_EQ(versions.size(), want.size()) << "id " << id << ": " << versions.back().unknown;
    for (std::size_t i = 0; i < versions.size(); ++i) {
      const auto& v = versions[i];
      const auto& w = want[want.size() - 1 - i];
      EXPECT_EQ(v.trx_id, w.trx) << "id " << id << " version " << i;
      EXPECT_EQ(v.committed, w.committed) << "id " << id << " version " << i;
      EXPECT_EQ(AsText(v.row), w.text) << "id " << id << " version " << i;
      EXPECT_EQ(v.row.deleted, w.deleted) << "id " << id << " version " << i;
      EXPECT_FALSE(v.damaged) << v.unknown;
      if (v.undo && v.trx_id == big_trx) big_trx_pages.insert(v.undo->page);
    }
    EXPECT_EQ(versions.back().change, "insert") << "id " << id << ": " << versions.back().unknown;
    if (want.size() > 1) {
      EXPECT_EQ(versions[versions.size() - 2].change, want[1].deleted ? "delete" : "update") << "id " << id;
    }
  });
  for (const auto& f : scan.findings) ADD_FAILURE() << f.ToString();
  EXPECT_EQ(seen, static_cast<std::size_t>(shape.rows) + (shape.power_cut ? 1 : 0));
  // Its log holds every row's 300-byte old value: many pages, each of them followed.
  EXPECT_GE(big_trx_pages.size(), static_cast<std::size_t>(shape.rows) * 300 / 16384);
}

INSTANTIATE_TEST_SUITE_P(Shapes, RecordHistoryTest,
                         ::testing::Values(Shape{40, false, false}, Shape{1200, true, false}, Shape{1200, false, true},
                                           Shape{700, true, true}),
                         Name);

}  // namespace
}  // namespace strata::engine
