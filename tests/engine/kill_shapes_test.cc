// kill -9 under many workload shapes: this test binary runs itself as a child
// (KillShapeChild.RunsUntilKilled) that commits transactions of one shape and reports each
// acknowledged one on a pipe; the parent kills it at a random point, recovers the directory
// and checks it against a model.
//
// Transaction j of a shape is a pure function of (shape, j), and every transaction also sets
// a marker row to j, so the recovered marker names the last transaction that committed and
// the model can be rebuilt up to it: the table must equal the model there, the marker must
// not be older than the last acknowledged commit (flush_log_at_trx_commit 1 and 2: a killed
// process loses nothing the OS was given) or newer than the one in flight, and every index
// must check clean, to the engine and to the inspector.
//
// STRATA_KILLS_PER_SHAPE sets the rounds per shape (the `slow` label runs more, and
// tests/engine/kill_campaign.sh runs the long campaign). For chasing a failure without kills
// (WithoutAKillTheTableFollowsTheModel): STRATA_SHAPE_TRANSACTIONS (how many), STRATA_SHAPE_EVERY
// (check every N), STRATA_SHAPE_KEYS (key range, 20000), STRATA_SHAPE_POOL_MB, STRATA_SHAPE_NOPURGE.
// A failed kill round copies the recovered directory to $TMPDIR/strata-kill-failure-SHAPE
// (KillShapeFailure.Explain lists what differs there, and the transactions behind it), and
// with STRATA_KILL_KEEP_CRASHED also the files as the kill left them, before recovery, to
// SHAPE.crashed (each round copies them first: slower).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "engine/db.h"
#include "inspect/check.h"
#include "inspect/space_file.h"
#include "tests/util/kill_child.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

struct Shape {
  const char* name;
  int flush_log_at_trx_commit;
  bool random_keys;
  int min_ops, max_ops;  // changes per transaction
  int max_value;         // bytes; above ~8,000 the value goes off-page
  int rollback_percent;  // transactions that end in ROLLBACK
  int delete_percent;    // changes that delete (the rest insert or update)
  int failing_percent;   // statements that fail on a duplicate and are undone alone
  int kill_after_max;    // acknowledged transactions before the kill, at most
};

// Sizes cross page, extent and undo-page boundaries: big transactions fill dozens of undo
// pages, random keys split pages all over a tree of hundreds of pages, off-page values
// allocate and free BLOB pages.
const Shape kShapes[] = {
    {"SequentialAutocommit", 1, false, 1, 1, 300, 0, 0, 0, 400},
    {"RandomKeysFlush2", 2, true, 1, 20, 300, 0, 5, 0, 300},
    {"RandomKeysFlush0", 0, true, 1, 20, 300, 0, 5, 0, 300},
    {"BigTransactions", 1, true, 300, 3000, 200, 25, 20, 0, 4},
    {"OffPageValues", 1, true, 1, 4, 20000, 10, 20, 0, 60},
    {"GrowingUpdatesAndDeletes", 2, true, 5, 60, 600, 10, 30, 0, 100},
    {"FailingStatements", 1, true, 5, 40, 300, 10, 10, 30, 100},
};

TableSpec Spec() {
  return {"kill",
          "t",
          {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kLongText), Col("g", ColumnType::kInt)},
          {"id"},
          {{"g", {"g"}, false}}};
}

constexpr std::int64_t kMarker = -1;  // its v holds the number of the last committed transaction

struct Change {
  enum Kind { kUpsert, kDelete, kFailingBatch } kind = kUpsert;
  std::int64_t id = 0;
  std::string v;
  int g = 0;
};

struct Txn {
  std::vector<Change> changes;
  bool rollback = false;
};

// Transaction j of `shape`: the same on both sides of the pipe.
Txn Generate(const Shape& shape, std::int64_t j) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(j) * 0x9E3779B97F4A7C15ull + std::hash<std::string>{}(shape.name));
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1)); };
  Txn t;
  t.rollback = pick(1, 100) <= shape.rollback_percent;
  const int n = pick(shape.min_ops, shape.max_ops);
  for (int i = 0; i < n; ++i) {
    Change c;
    // Random keys over a range a few times the rows there are, so deletes and updates hit.
    static const std::uint64_t range =
        std::getenv("STRATA_SHAPE_KEYS") ? std::atoll(std::getenv("STRATA_SHAPE_KEYS")) : 20000;
    c.id = shape.random_keys ? static_cast<std::int64_t>(rng() % range) : j * shape.max_ops + i;
    const int r = pick(1, 100);
    if (r <= shape.failing_percent)
      c.kind = Change::kFailingBatch;
    else if (r <= shape.failing_percent + shape.delete_percent)
      c.kind = Change::kDelete;
    c.v.assign(static_cast<std::size_t>(pick(1, shape.max_value)), static_cast<char>('a' + (j + i) % 26));
    c.g = pick(0, 99);
    t.changes.push_back(std::move(c));
  }
  return t;
}

using Model = std::map<std::int64_t, std::pair<std::string, int>>;

void ApplyToModel(const Txn& t, std::int64_t j, Model& m) {
  if (t.rollback) return;
  for (const Change& c : t.changes) {
    if (c.kind == Change::kUpsert)
      m[c.id] = {c.v, c.g};
    else if (c.kind == Change::kDelete)
      m.erase(c.id);
  }
  m[kMarker] = {std::to_string(j), 0};
}

Row MakeRow(std::int64_t id, const std::string& v, int g) { return {Value::Int(id), Value::String(v), Value::Int(g)}; }

// Runs transaction j; the result is what its commit (or rollback) returned.
Status RunTransaction(Database& db, Table& t, const Shape& shape, std::int64_t j) {
  const Txn txn = Generate(shape, j);
  auto begun = db.Begin();
  if (!begun.ok()) return begun.status();
  Transaction* trx = begun->get();
  for (const Change& c : txn.changes) {
    Status s;
    if (c.kind == Change::kUpsert) {
      s = t.Insert(MakeRow(c.id, c.v, c.g), trx);
      if (s.IsAlreadyExists()) s = t.Update(MakeRow(c.id, c.v, c.g), trx);
    } else if (c.kind == Change::kDelete) {
      s = t.Delete({Value::Int(c.id)}, trx);
      if (s.IsNotFound()) s = Status::Ok();
    } else {
      // New rows, then one of them again: the statement fails and only it is undone.
      std::vector<Row> rows;
      for (int k = 0; k < 30; ++k) rows.push_back(MakeRow(100000 + j * 64 + k, c.v, c.g));
      rows.push_back(rows.front());
      s = t.InsertBatch(rows, trx);
      if (!s.IsAlreadyExists()) return Status::Corruption("a batch with a duplicate did not fail: " + s.ToString());
      s = Status::Ok();
    }
    if (!s.ok()) return s;
  }
  if (txn.rollback) return trx->Rollback();
  Status s = t.Update(MakeRow(kMarker, std::to_string(j), 0), trx);
  if (s.IsNotFound()) s = t.Insert(MakeRow(kMarker, std::to_string(j), 0), trx);
  if (!s.ok()) return s;
  return trx->Commit();
}

DatabaseOptions Options(const Shape& shape) {
  DatabaseOptions o;
  o.buffer_pool_bytes = 2u << 20;  // 128 frames: pages are evicted through the doublewrite area
  o.redo_log_bytes = 4u << 20;     // the log wraps and checkpoints keep up
  o.flush_log_at_trx_commit = shape.flush_log_at_trx_commit;
  return o;
}

const Shape* FindShape(const std::string& name) {
  for (const Shape& s : kShapes) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

// The child: runs only when the parent set STRATA_KILL_SHAPE_DIR.
TEST(KillShapeChild, RunsUntilKilled) {
  const char* dir = std::getenv("STRATA_KILL_SHAPE_DIR");
  if (!dir) GTEST_SKIP() << "run by KillShapesTest as its child";
  const Shape* shape = FindShape(std::getenv("STRATA_KILL_SHAPE"));
  ASSERT_NE(shape, nullptr);
  auto db = Database::Open(dir, Options(*shape));
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  (void)(*db)->CreateDatabase("kill");
  auto t = (*db)->GetTable("kill", "t");
  if (!t.ok()) t = (*db)->CreateTable(Spec());
  ASSERT_TRUE(t.ok());
  for (std::int64_t j = std::atoll(std::getenv("STRATA_KILL_FROM"));; ++j) {
    Status s = RunTransaction(**db, **t, *shape, j);
    ASSERT_TRUE(s.ok()) << "transaction " << j << ": " << s.ToString();
    if (!testing::Acknowledge(std::to_string(j) + "\n")) return;
  }
}

struct Round {
  std::int64_t last_acked = -1;  // -1: none this round
  bool signalled = false;
  std::string output;
};

// Starts the child at transaction `from`, kills it after a random number of acknowledged
// transactions and a random few milliseconds more (inside the next ones).
Round RunChild(const std::string& dir, const Shape& shape, std::int64_t from, std::mt19937& rng) {
  Round round;
  const std::size_t want = 1 + rng() % static_cast<unsigned>(shape.kill_after_max);
  const std::chrono::microseconds delay(rng() % 20000);
  auto child = testing::RunChildUntilKilled(
      "KillShapeChild.RunsUntilKilled",
      {{"STRATA_KILL_SHAPE_DIR", dir}, {"STRATA_KILL_SHAPE", shape.name}, {"STRATA_KILL_FROM", std::to_string(from)}},
      want, delay);
  round.signalled = child.signalled;
  round.output = std::move(child.acks);
  const std::string& out = round.output;
  std::size_t pos = 0;
  for (std::size_t nl; (nl = out.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    round.last_acked = std::max<std::int64_t>(round.last_acked, std::stoll(out.substr(pos, nl - pos)));
  }
  return round;
}

Model ReadAll(Table& t) {
  Model m;
  EXPECT_TRUE(t.Scan({}, [&](const Row& r) {
                 m[r[0].as_int()] = {r[1].as_string(), static_cast<int>(r[2].as_int())};
                 return true;
               }).ok());
  return m;
}

// The first key where the table and the model differ, for a failure message a reader can use.
std::string FirstDifference(const Model& table, const Model& model) {
  auto show = [](const Model& m, std::int64_t id) {
    auto it = m.find(id);
    return it == m.end() ? std::string("absent")
                         : "v of " + std::to_string(it->second.first.size()) + " bytes '" +
                               it->second.first.substr(0, 1) + "...', g " + std::to_string(it->second.second);
  };
  std::size_t differ = 0;
  std::int64_t first = 0;
  for (const Model* m : {&table, &model}) {
    for (const auto& [id, row] : *m) {
      const Model& other = m == &table ? model : table;
      auto it = other.find(id);
      if ((it == other.end() || it->second != row) && (m == &table || !table.count(id))) {
        if (!differ++ || id < first) first = id;
      }
    }
  }
  return std::to_string(differ) + " rows differ; first id " + std::to_string(first) + ": table has " +
         show(table, first) + ", model has " + show(model, first) + " (" + std::to_string(table.size()) + " vs " +
         std::to_string(model.size()) + " rows)";
}

void CheckFiles(const std::filesystem::path& dir, const std::string& when) {
  for (const auto& file : {dir / "kill" / "t.ibd", dir / "ibdata1"}) {
    auto f = inspect::SpaceFile::Open(file);
    ASSERT_TRUE(f.ok()) << when;
    for (const auto& finding : inspect::CheckSpace(*f).findings) {
      if (finding.severity != inspect::Severity::kInfo) ADD_FAILURE() << when << ": " << finding.ToString();
    }
  }
}

class KillShapesTest : public ::testing::TestWithParam<Shape> {};

TEST_P(KillShapesTest, RecoveryKeepsEveryAcknowledgedTransactionAndNothingHalfDone) {
  const Shape& shape = GetParam();
  const char* env_kills = std::getenv("STRATA_KILLS_PER_SHAPE");
  const int kills = env_kills ? std::atoi(env_kills) : 3;
  const bool keep_crashed = std::getenv("STRATA_KILL_KEEP_CRASHED") != nullptr;
  testing::TempDir tmp;
  const std::filesystem::path dir = tmp.path() / "d";
  std::mt19937 rng(static_cast<unsigned>(std::hash<std::string>{}(shape.name)));
  Model model;
  std::int64_t committed = -1;  // the marker: the last transaction applied to the model
  std::int64_t next = 0;        // the next transaction a child runs
  std::int64_t acked_total = 0, acked_commits = 0;
  for (int round = 0; round < kills; ++round) {
    const std::string when = std::string(shape.name) + " round " + std::to_string(round);
    const Round r = RunChild(dir.string(), shape, next, rng);
    ASSERT_TRUE(r.signalled) << when << ": the child ended by itself: " << r.output;
    acked_total += r.last_acked >= next ? r.last_acked - next + 1 : 0;
    const std::filesystem::path crashed = tmp.path() / "crashed";  // the files as the kill left them
    if (keep_crashed) {
      std::filesystem::remove_all(crashed);
      std::filesystem::copy(dir, crashed, std::filesystem::copy_options::recursive);
    }
    // A failed round, however it fails (an ASSERT returns at once), keeps its files; declared
    // before the database so that it runs once the database is closed.
    struct KeepOnFailure {
      std::function<void()> keep;
      ~KeepOnFailure() {
        if (::testing::Test::HasFailure()) keep();
      }
    } keep_on_failure{[&] {
      const auto kept = std::filesystem::temp_directory_path() / (std::string("strata-kill-failure-") + shape.name);
      std::filesystem::remove_all(kept);
      std::filesystem::copy(dir, kept, std::filesystem::copy_options::recursive);
      ADD_FAILURE() << "the directory as recovery left it: " << kept;
      if (keep_crashed) {
        std::filesystem::remove_all(kept.string() + ".crashed");
        std::filesystem::copy(crashed, kept.string() + ".crashed", std::filesystem::copy_options::recursive);
        ADD_FAILURE() << "and as the kill left it: " << kept.string() << ".crashed";
      }
    }};
    auto db = Database::Open(dir, Options(shape));
    ASSERT_TRUE(db.ok()) << when << ": " << db.status().ToString();
    auto t = (*db)->GetTable("kill", "t");
    if (!t.ok()) {
      ASSERT_EQ(r.last_acked, -1) << when << ": transactions were acknowledged but the table is gone";
      continue;
    }
    std::int64_t marker = committed;
    auto m = (*t)->Get({Value::Int(kMarker)});
    ASSERT_TRUE(m.ok()) << when << ": " << m.status().ToString();
    if (m->has_value()) marker = std::stoll((**m)[1].as_string());
    // The newest acknowledged transaction that committed (a rolled-back one moves no marker).
    std::int64_t must_have = committed;
    for (std::int64_t j = r.last_acked; j >= next && j > must_have; --j) {
      if (!Generate(shape, j).rollback) {
        must_have = j;
        break;
      }
    }
    const std::int64_t in_flight = std::max(r.last_acked + 1, next);
    if (shape.flush_log_at_trx_commit != 0) {
      ASSERT_GE(marker, must_have) << when << ": acknowledged transaction " << must_have << " lost";
    }
    ASSERT_GE(marker, committed) << when << ": a transaction recovered in an earlier round is gone";
    ASSERT_LE(marker, in_flight) << when << ": transaction " << marker << " was never run";
    for (std::int64_t j = committed + 1; j <= marker; ++j) ApplyToModel(Generate(shape, j), j, model);
    // Acknowledged commits found present (with fil 0 the kill may take the last second's).
    for (std::int64_t j = committed + 1; j <= std::min(marker, must_have); ++j)
      acked_commits += !Generate(shape, j).rollback;
    committed = marker;
    next = marker + 1;  // what the kill took (fil 0 may lose acknowledged ones) runs again
    const Model recovered = ReadAll(**t);
    EXPECT_TRUE(recovered == model) << when << " (marker " << marker << "): " << FirstDifference(recovered, model);
    Status check = (*t)->Check();
    EXPECT_TRUE(check.ok()) << when << ": " << check.ToString();
    db->reset();
    CheckFiles(dir, when);
    if (::testing::Test::HasFailure()) return;
  }
  RecordProperty("acknowledged_transactions", static_cast<int>(acked_total));
  RecordProperty("acknowledged_commits_verified", static_cast<int>(acked_commits));
  std::printf("[ kill ] %s: %d kills, %lld transactions acknowledged, %lld commits verified, %zu rows at the end\n",
              shape.name, kills, static_cast<long long>(acked_total), static_cast<long long>(acked_commits),
              model.size());
}

// The same transactions without a kill, with purge running beside them: what the kill test
// finds must come from the crash, not from the shape itself.
TEST_P(KillShapesTest, WithoutAKillTheTableFollowsTheModel) {
  const Shape& shape = GetParam();
  const char* env_n = std::getenv("STRATA_SHAPE_TRANSACTIONS");
  const std::int64_t n = env_n ? std::atoll(env_n) : 60;
  testing::TempDir tmp;
  DatabaseOptions opts = Options(shape);
  if (std::getenv("STRATA_SHAPE_NOPURGE")) opts.purge = false;
  if (std::getenv("STRATA_SHAPE_POOL_MB"))
    opts.buffer_pool_bytes = std::size_t(std::atoi(std::getenv("STRATA_SHAPE_POOL_MB"))) << 20;
  auto db = Database::Open(tmp.path() / "d", opts);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  ASSERT_TRUE((*db)->CreateDatabase("kill").ok());
  auto t = (*db)->CreateTable(Spec());
  ASSERT_TRUE(t.ok());
  Model model;
  for (std::int64_t j = 0; j < n; ++j) {
    Status s = RunTransaction(**db, **t, shape, j);
    ASSERT_TRUE(s.ok()) << "transaction " << j << ": " << s.ToString();
    ApplyToModel(Generate(shape, j), j, model);
    if ((j + 1) % (std::getenv("STRATA_SHAPE_EVERY") ? std::atoi(std::getenv("STRATA_SHAPE_EVERY")) : 100) == 0 ||
        j + 1 == n) {
      const Model table = ReadAll(**t);
      ASSERT_TRUE(table == model) << "after transaction " << j << ": " << FirstDifference(table, model);
      Status check = (**t).Check();
      ASSERT_TRUE(check.ok()) << "after transaction " << j << ": " << check.ToString();
    }
  }
}

// Not a test: explains a failed round's kept directory (STRATA_EXPLAIN_DIR, a copy of
// $TMPDIR/strata-kill-failure-SHAPE, or of SHAPE.crashed with STRATA_EXPLAIN_FORCE_RECOVERY 3
// to see what an unfinished transaction left; it is opened, so recovered, again;
// STRATA_EXPLAIN_SHAPE): each row that
// differs from the model at the marker, and the transactions near the marker that touched it.
TEST(KillShapeFailure, Explain) {
  const char* dir = std::getenv("STRATA_EXPLAIN_DIR");
  if (!dir) GTEST_SKIP() << "set STRATA_EXPLAIN_DIR and STRATA_EXPLAIN_SHAPE";
  const Shape* shape = FindShape(std::getenv("STRATA_EXPLAIN_SHAPE") ? std::getenv("STRATA_EXPLAIN_SHAPE") : "");
  ASSERT_NE(shape, nullptr);
  DatabaseOptions o = Options(*shape);
  if (const char* fr = std::getenv("STRATA_EXPLAIN_FORCE_RECOVERY")) o.force_recovery = std::atoi(fr);
  auto db = Database::Open(dir, o);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  auto t = (*db)->GetTable("kill", "t");
  ASSERT_TRUE(t.ok());
  auto m = (*t)->Get({Value::Int(kMarker)});
  ASSERT_TRUE(m.ok() && m->has_value());
  const std::int64_t marker = std::stoll((**m)[1].as_string());
  Model model;
  for (std::int64_t j = 0; j <= marker; ++j) ApplyToModel(Generate(*shape, j), j, model);
  const Model table = ReadAll(**t);
  std::printf("marker %lld: %s\n", static_cast<long long>(marker), FirstDifference(table, model).c_str());
  std::set<std::int64_t> ids;
  for (const Model* a : {&table, static_cast<const Model*>(&model)}) {
    const Model& b = a == &table ? model : table;
    for (const auto& [id, row] : *a) {
      auto it = b.find(id);
      if (it == b.end() || it->second != row) ids.insert(id);
    }
  }
  for (std::int64_t id : ids) {
    std::printf("id %lld:\n", static_cast<long long>(id));
    for (std::int64_t j = std::max<std::int64_t>(0, marker - 200); j <= marker + 2; ++j) {
      const Txn txn = Generate(*shape, j);
      for (std::size_t i = 0; i < txn.changes.size(); ++i) {
        const Change& c = txn.changes[i];
        if (c.id != id) continue;
        std::printf("  transaction %lld%s, change %zu of %zu: %s, v of %zu bytes '%c', g %d\n",
                    static_cast<long long>(j), txn.rollback ? " (rolled back)" : "", i + 1, txn.changes.size(),
                    c.kind == Change::kDelete   ? "delete"
                    : c.kind == Change::kUpsert ? "upsert"
                                                : "failing batch",
                    c.v.size(), c.v[0], c.g);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, KillShapesTest, ::testing::ValuesIn(kShapes),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace strata::engine
