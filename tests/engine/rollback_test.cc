// Rollbacks of every size: a transaction's undo log spans one page or dozens, holds inserts,
// updates that grow rows, deletes, or a mix, and is undone whole, back to a savepoint, or by
// a failing autocommit statement. Each case is checked against a model of the committed rows
// (and again after a reopen), and every index is checked for structure.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>

#include "engine/db.h"
#include "engine/fault_injection_env.h"
#include "inspect/space_file.h"
#include "inspect/undo.h"
#include "ondisk/checksum.h"
#include "ondisk/undo.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

// id BIGINT PRIMARY KEY, k BIGINT, note VARCHAR(400), KEY k_1 (k)
TableSpec Spec() {
  return {
      "rb",
      "t",
      {NotNull(Col("id", ColumnType::kBigInt)), Col("k", ColumnType::kBigInt), Col("note", ColumnType::kVarchar, 400)},
      {"id"},
      {{"k_1", {"k"}, false}}};
}

using Model = std::map<std::int64_t, std::pair<std::int64_t, std::string>>;

Row R(std::int64_t id, std::int64_t k, std::string note) {
  return {Value::Int(id), Value::Int(k), Value::String(std::move(note))};
}

struct Db {
  testing::TempDir tmp;
  std::unique_ptr<Database> db;
  Table* t = nullptr;
  Model committed;

  Db() {
    Open();
    EXPECT_TRUE(db->CreateDatabase("rb").ok());
    auto created = db->CreateTable(Spec());
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    t = *created;
  }
  void Open() {
    DatabaseOptions o;
    o.buffer_pool_bytes = 8u << 20;
    o.redo_log_bytes = 4u << 20;  // small: long rollbacks must checkpoint on the way
    auto opened = Database::Open(tmp.path() / "d", o);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    db = std::move(*opened);
    auto got = db->GetTable("rb", "t");
    t = got.ok() ? *got : nullptr;
  }
  void Reopen() {
    t = nullptr;
    db.reset();
    Open();
  }
  // Commits `n` rows with ids 0, 2, 4, ... (odd ids stay free for inserts that interleave).
  void Seed(int n) {
    std::vector<Row> rows;
    for (int i = 0; i < n; ++i) {
      rows.push_back(R(2 * i, i % 7, std::string(20 + i % 30, 'a')));
      committed[2 * i] = {i % 7, std::string(20 + i % 30, 'a')};
    }
    for (std::size_t at = 0; at < rows.size(); at += 500) {
      std::vector<Row> part(rows.begin() + at, rows.begin() + std::min(rows.size(), at + 500));
      ASSERT_TRUE(t->InsertBatch(part).ok());
    }
  }
  Model Read(const std::string& index = "PRIMARY") {
    Model m;
    ScanOptions o;
    o.index = index;
    Status s = t->Scan(o, [&](const Row& r) {
      m[r[0].as_int()] = {r[1].as_int(), r[2].as_string()};
      return true;
    });
    EXPECT_TRUE(s.ok()) << s.ToString();
    return m;
  }
  // The table holds exactly `expected` through both indexes, and both are sound.
  void Expect(const Model& expected, const std::string& when) {
    EXPECT_EQ(Read(), expected) << when;
    EXPECT_EQ(Read("k_1"), expected) << when << " (through k_1)";
    Status check = t->Check();
    EXPECT_TRUE(check.ok()) << when << ": " << check.ToString();
  }
};

enum class Shape { kInserts, kDeletes, kGrowingUpdates, kMixed };

std::string Name(Shape s) {
  switch (s) {
    case Shape::kInserts:
      return "Inserts";
    case Shape::kDeletes:
      return "Deletes";
    case Shape::kGrowingUpdates:
      return "GrowingUpdates";
    case Shape::kMixed:
      return "Mixed";
  }
  return "?";
}

// Runs `n` changes of `shape` in `trx` on `d`, applying each to `model` as it succeeds.
void Change(Db& d, Shape shape, int n, Transaction* trx, Model& model, std::mt19937& rng) {
  const int seeded = static_cast<int>(d.committed.size());
  for (int i = 0; i < n; ++i) {
    Shape s = shape;
    if (s == Shape::kMixed) s = static_cast<Shape>(rng() % 3);
    if (s == Shape::kInserts) {
      // Random odd ids: inserts land all over the tree, not only at its end.
      const std::int64_t id = 2 * static_cast<std::int64_t>(rng() % (4 * seeded + 4000)) + 1;
      if (model.count(id)) continue;
      std::string note(10 + rng() % 200, static_cast<char>('a' + i % 26));
      ASSERT_TRUE(d.t->Insert(R(id, 100 + i % 5, note), trx).ok());
      model[id] = {100 + i % 5, note};
    } else {
      if (model.empty()) continue;
      auto it = model.lower_bound(2 * static_cast<std::int64_t>(rng() % (seeded + 1)));
      if (it == model.end()) it = model.begin();
      const std::int64_t id = it->first;
      if (s == Shape::kDeletes) {
        ASSERT_TRUE(d.t->Delete({Value::Int(id)}, trx).ok());
        model.erase(id);
      } else {
        std::string note(150 + rng() % 250, 'u');  // longer: the row moves or its page splits
        ASSERT_TRUE(d.t->Update(R(id, 50 + i % 3, note), trx).ok());
        model[id] = {50 + i % 3, note};
      }
    }
  }
}

class RollbackSizeTest : public ::testing::TestWithParam<std::tuple<Shape, int>> {};

// 1 change fits one undo page; 300 a few; 3,000 dozens (the case that lost committed rows when
// a second undo page's list node was overwritten).
TEST_P(RollbackSizeTest, RollbackRestoresTheCommittedRowsExactly) {
  const auto [shape, n] = GetParam();
  Db d;
  d.Seed(2000);
  std::mt19937 rng(n);
  auto trx = d.db->Begin();
  ASSERT_TRUE(trx.ok());
  Model scratch = d.committed;
  Change(d, shape, n, trx->get(), scratch, rng);
  EXPECT_EQ(d.Read(), d.committed) << "another reader sees only what was committed";
  Status r = (*trx)->Rollback();
  ASSERT_TRUE(r.ok()) << r.ToString();
  d.Expect(d.committed, "after ROLLBACK");
  d.Reopen();
  d.Expect(d.committed, "after a reopen");
}

TEST_P(RollbackSizeTest, RollbackToASavepointKeepsWhatCameBefore) {
  const auto [shape, n] = GetParam();
  Db d;
  d.Seed(2000);
  std::mt19937 rng(n + 1);
  auto trx = d.db->Begin();
  ASSERT_TRUE(trx.ok());
  Model kept = d.committed;
  Change(d, shape, n / 2 + 1, trx->get(), kept, rng);
  const std::uint64_t savepoint = (*trx)->Savepoint();
  Model scratch = kept;
  Change(d, shape, n, trx->get(), scratch, rng);
  Status r = (*trx)->RollbackToSavepoint(savepoint);
  ASSERT_TRUE(r.ok()) << r.ToString();
  Change(d, Shape::kInserts, 3, trx->get(), kept, rng);  // the transaction goes on
  ASSERT_TRUE((*trx)->Commit().ok());
  d.Expect(kept, "after rollback to the savepoint and commit");
  d.Reopen();
  d.Expect(kept, "after a reopen");
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, RollbackSizeTest,
    ::testing::Combine(::testing::Values(Shape::kInserts, Shape::kDeletes, Shape::kGrowingUpdates, Shape::kMixed),
                       ::testing::Values(1, 300, 3000)),
    [](const auto& info) { return Name(std::get<0>(info.param)) + "_" + std::to_string(std::get<1>(info.param)); });

// An autocommit statement of 4,000 rows failing on a duplicate at row 3,503 leaves nothing.
TEST(RollbackTest, FailingAutocommitBatchLeavesNothing) {
  Db d;
  d.Seed(10);
  std::vector<Row> rows;
  for (int i = 0; i < 4000; ++i) rows.push_back(R(1001 + 2 * i, 1, std::string(60, 'x')));
  rows[3502] = R(4, 1, "duplicate of a committed row");
  Status s = d.t->InsertBatch(rows);
  EXPECT_TRUE(s.IsAlreadyExists()) << s.ToString();
  d.Expect(d.committed, "after the failed statement");
  // The same inside a transaction: only the statement goes, the transaction's earlier row stays.
  auto trx = d.db->Begin();
  ASSERT_TRUE(trx.ok());
  ASSERT_TRUE(d.t->Insert(R(1, 1, "kept"), trx->get()).ok());
  s = d.t->InsertBatch(rows, trx->get());
  EXPECT_TRUE(s.IsAlreadyExists()) << s.ToString();
  ASSERT_TRUE((*trx)->Commit().ok());
  Model expected = d.committed;
  expected[1] = {1, "kept"};
  d.Expect(expected, "after the failed statement in a transaction");
}

// An undo page whose list node lost its `prev` (what the bug fixed above wrote) is found by
// the inspector's check of the data directory, and refused by the next open, which must roll
// the open transaction back through it: nothing is half undone.
TEST(RollbackTest, BrokenUndoPageListIsFoundByCheckAndRefusedAtOpen) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  std::unique_ptr<Transaction> open;
  {
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->CreateDatabase("rb").ok());
    auto t = (*db)->CreateTable(Spec());
    ASSERT_TRUE(t.ok());
    auto begun = (*db)->Begin();
    ASSERT_TRUE(begun.ok());
    open = std::move(*begun);
    for (int i = 0; i < 3000; ++i) ASSERT_TRUE((*t)->Insert(R(i, 1, std::string(40, 'o')), open.get()).ok());
    ASSERT_TRUE((*db)->Flush().ok());  // the undo pages on disk, nothing left to replay
    env.PowerOff();
    db->reset();
  }
  open.reset();
  ASSERT_TRUE(env.Crash().ok());
  // The open transaction's insert-undo segment: a slot of the rollback segment on page 6.
  auto ibdata = testing::ReadWholeFile(dir / "ibdata1");
  auto page = [&](std::uint32_t n) { return ondisk::MutableBytes(ibdata.data() + std::size_t{n} * 16384, 16384); };
  ondisk::RsegHeader rseg(page(6));
  std::uint32_t seg = ondisk::kFilNull;
  for (std::uint32_t i = 0; i < ondisk::RsegHeader::NumUndoSlots(16384) && seg == ondisk::kFilNull; ++i) {
    if (rseg.undo_slot(i) != ondisk::kNullPage) seg = rseg.undo_slot(i).value();
  }
  ASSERT_NE(seg, ondisk::kFilNull);
  auto sh = ondisk::UndoSegmentHeader::Decode(page(seg));
  ASSERT_TRUE(sh.ok());
  ASSERT_GE(sh->page_list.length, 3u) << "the test needs an undo log of several pages";
  const std::uint32_t second = ondisk::ListNode::Decode(page(seg), ondisk::UndoPageHeader::kNode).next.page.value();
  ondisk::ListNode node = ondisk::ListNode::Decode(page(second), ondisk::UndoPageHeader::kNode);
  node.prev = ondisk::FileAddr{};
  node.EncodeTo(page(second), ondisk::UndoPageHeader::kNode);
  ondisk::StampChecksum(page(second), ondisk::ChecksumAlgorithm::kCrc32);
  {
    std::ofstream f(dir / "ibdata1", std::ios::binary);
    f.write(reinterpret_cast<const char*>(ibdata.data()), static_cast<std::streamsize>(ibdata.size()));
  }
  auto sys = inspect::SpaceFile::Open(dir / "ibdata1");
  ASSERT_TRUE(sys.ok());
  bool found = false;
  for (const auto& f : inspect::AnalyzeUndo({&*sys}, true).findings)
    found |= f.what == "undo page list" && f.page == second;
  EXPECT_TRUE(found) << "inspect check did not see the broken undo page list";
  auto db = Database::Open(dir, {});
  ASSERT_FALSE(db.ok()) << "opened over a rollback that cannot finish";
  EXPECT_NE(db.status().ToString().find("undo log page list is broken"), std::string::npos) << db.status().ToString();
}

}  // namespace
}  // namespace strata::engine
