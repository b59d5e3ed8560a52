// kill -9 during DDL: a child (KillDdlChild.RunsUntilKilled) runs a stream of CREATE/DROP
// DATABASE, CREATE/DROP TABLE, CREATE INDEX, RENAME TABLE, a copying rebuild (a work table
// filled and swapped in, as ALTER TABLE does, adding or dropping an index and a foreign key),
// an instant ADD/DROP COLUMN (a new row version) and multi-row INSERT steps while a second thread
// inserts into a table of its own, acknowledging each step and each row on a pipe; the parent
// kills it at a random point and opens the directory twice.
//
// Step j is a pure function of (j, the databases and tables that exist), so the parent
// replays the stream on a model: after recovery the directory must equal the model after the
// last acknowledged step or after the one in flight (an older state with
// flush_log_at_trx_commit 0, but never older than the last acknowledged DDL, which is durable
// when it returns); the second open must find exactly what the first found (no table that
// comes back or goes away between opens); every acknowledged row of the steady thread is
// there; no .ibd or database folder is left that the catalog does not list; and every file
// checks clean to the inspector.
//
// STRATA_DDL_KILLS sets the rounds per flush mode (the `slow` label runs more; the long
// campaign runs it with thousands). A failed round keeps the directory as recovery left it
// in $TMPDIR/strata-kill-ddl-failure-FLUSH.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <csignal>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

#include "engine/db.h"
#include "inspect/check.h"
#include "inspect/space_file.h"
#include "tests/util/kill_child.h"
#include "tests/util/table_spec.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

const char* const kDatabases[] = {"a", "b"};
const char* const kTables[] = {"t0", "t1", "t2", "t3"};

// A row's v and g, and its x where the table has that column (kNoX where it has not).
constexpr std::int64_t kNoX = std::numeric_limits<std::int64_t>::min();
using RowState = std::tuple<std::string, std::int64_t, std::int64_t>;

struct TableState {
  bool indexed = false;
  bool keyed = false;  // a rebuild gave it a foreign key (g references the table's id), kept in its SDI
  bool has_x = false;  // an instant ADD COLUMN x added it (and a DROP takes it away)
  int row_version = 0;
  std::map<std::int64_t, RowState> rows;
  bool operator==(const TableState&) const = default;
};
// Database → table → its state; the steady thread's database is not in it.
using State = std::map<std::string, std::map<std::string, TableState>>;

struct Step {
  enum Kind {
    kCreateDatabase,
    kDropDatabase,
    kCreateTable,
    kDropTable,
    kCreateIndex,
    kRename,
    kRebuild,
    kInstant,
    kInsert
  } kind;
  std::string database, table;
  std::string to_database{}, to_table{};  // kRename
  bool ddl() const { return kind != kInsert; }
};

TableSpec Spec(const std::string& database, const std::string& table) {
  return {database,
          table,
          {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kLongText), Col("g", ColumnType::kBigInt)},
          {"id"},
          {}};
}

std::mt19937_64 StepRng(std::int64_t j) {
  return std::mt19937_64(static_cast<std::uint64_t>(j) * 0x9E3779B97F4A7C15ull);
}

// Step j given what exists: mostly inserts and table DDL, sometimes a whole database.
Step Plan(std::int64_t j, const State& s) {
  auto rng = StepRng(j);
  const std::string db = kDatabases[rng() % 2];
  if (!s.count(db)) return {Step::kCreateDatabase, db, ""};
  const std::string table = kTables[rng() % 4];
  const auto& tables = s.at(db);
  const int r = static_cast<int>(rng() % 100);
  if (r < 4) return {Step::kDropDatabase, db, ""};
  if (!tables.count(table)) return {Step::kCreateTable, db, table};
  if (r < 20) return {Step::kDropTable, db, table};
  if (r < 30 && !tables.at(table).indexed) return {Step::kCreateIndex, db, table};
  if (r < 36) {
    const std::string to_db = kDatabases[rng() % 2], to_table = kTables[rng() % 4];
    if (s.count(to_db) && !s.at(to_db).count(to_table)) return {Step::kRename, db, table, to_db, to_table};
  }
  if (r < 42) return {Step::kRebuild, db, table};
  if (r < 50 && tables.at(table).row_version < kMaxRowVersion) return {Step::kInstant, db, table};
  return {Step::kInsert, db, table};
}

// The rows step j inserts: 1 to 150 of them, values from 20 bytes to 2 KB, so that tables
// cross page and extent boundaries and the log wraps.
std::vector<Row> StepRows(std::int64_t j) {
  auto rng = StepRng(j);
  rng.discard(3);
  const int n = 1 + static_cast<int>(rng() % 150);
  std::vector<Row> rows;
  for (int i = 0; i < n; ++i) {
    const std::size_t len = 20 + (rng() % 2000);
    rows.push_back({Value::Int(j * 1000 + i), Value::String(std::string(len, static_cast<char>('a' + (j + i) % 26))),
                    Value::Int(j % 50)});
  }
  return rows;
}

void ApplyToModel(const Step& step, std::int64_t j, State& s) {
  switch (step.kind) {
    case Step::kCreateDatabase:
      s[step.database];
      break;
    case Step::kDropDatabase:
      s.erase(step.database);
      break;
    case Step::kCreateTable:
      s[step.database][step.table] = {};
      break;
    case Step::kDropTable:
      s[step.database].erase(step.table);
      break;
    case Step::kCreateIndex:
      s[step.database][step.table].indexed = true;
      break;
    case Step::kRename: {
      auto node = s[step.database].extract(step.table);
      node.key() = step.to_table;
      s[step.to_database].insert(std::move(node));
      break;
    }
    case Step::kRebuild: {  // adds the index and the key, or drops them; a new table has no row versions
      TableState& ts = s[step.database][step.table];
      ts.indexed = ts.keyed = !ts.indexed;
      ts.row_version = 0;
      break;
    }
    case Step::kInstant: {  // ADD COLUMN x DEFAULT j (the rows there read j), or DROP COLUMN x
      TableState& ts = s[step.database][step.table];
      ts.has_x = !ts.has_x;
      ++ts.row_version;
      for (auto& [id, row] : ts.rows) std::get<2>(row) = ts.has_x ? j : kNoX;
      break;
    }
    case Step::kInsert: {
      TableState& ts = s[step.database][step.table];
      for (const Row& r : StepRows(j)) ts.rows[r[0].as_int()] = {r[1].as_string(), r[2].as_int(), ts.has_x ? j : kNoX};
      break;
    }
  }
}

// What a copying ALTER TABLE ... ADD/DROP INDEX does: a work table with the new definition,
// the rows copied into it in batches, then swapped in.
Status Rebuild(Database& db, const Step& step, std::int64_t j) {
  auto t = db.GetTable(step.database, step.table);
  if (!t.ok()) return t.status();
  TableSpec spec = (*t)->spec();
  spec.name = std::string(kWorkTablePrefix) + "alter-" + std::to_string(j);
  spec.foreign_keys.clear();
  if (spec.indexes.empty()) {
    spec.indexes.push_back({"ig", {"g"}, false});
    spec.foreign_keys.push_back({"fk_g", {"g"}, step.database, step.table, {"id"}, ForeignKeyAction::kCascade});
  } else {
    spec.indexes.clear();
  }
  auto work = db.CreateTable(spec);
  if (!work.ok()) return work.status();
  std::vector<Row> rows;  // read first: a scan holds the table while it visits rows
  STRATA_RETURN_IF_ERROR((*t)->Scan({}, [&](const Row& r) { return rows.push_back(r), true; }));
  for (std::size_t at = 0; at < rows.size(); at += 64) {
    const std::vector<Row> batch(rows.begin() + static_cast<std::ptrdiff_t>(at),
                                 rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), at + 64)));
    STRATA_RETURN_IF_ERROR((*work)->InsertBatch(batch));
  }
  return db.ReplaceTable(step.database, step.table, spec.name);
}

// ALTER TABLE ... ALGORITHM=INSTANT ADD COLUMN x BIGINT DEFAULT j, or DROP COLUMN x.
Status Instant(Database& db, const Step& step, std::int64_t j) {
  auto t = db.GetTable(step.database, step.table);
  if (!t.ok()) return t.status();
  TableSpec spec = (*t)->spec();
  std::vector<std::optional<std::size_t>> sources{0, 1, 2};
  std::vector<Value> fills(3, Value::Null());
  if (spec.columns.size() == 4) {
    spec.columns.pop_back();
  } else {
    Column x = Col("x", ColumnType::kBigInt);
    x.default_value = Value::Int(j);
    spec.columns.push_back(x);
    sources.push_back(std::nullopt);
    fills.push_back(Value::Int(j));
  }
  return db.AlterColumnsInstantly(step.database, step.table, spec, sources, fills);
}

Status RunStep(Database& db, const Step& step, std::int64_t j) {
  switch (step.kind) {
    case Step::kCreateDatabase:
      return db.CreateDatabase(step.database);
    case Step::kDropDatabase:
      return db.DropDatabase(step.database);
    case Step::kCreateTable:
      return db.CreateTable(Spec(step.database, step.table)).status();
    case Step::kDropTable:
      return db.DropTable(step.database, step.table);
    case Step::kCreateIndex:
      return db.CreateIndex(step.database, step.table, {"ig", {"g"}, false});
    case Step::kRename:
      return db.RenameTable(step.database, step.table, step.to_database, step.to_table);
    case Step::kRebuild:
      return Rebuild(db, step, j);
    case Step::kInstant:
      return Instant(db, step, j);
    case Step::kInsert: {
      auto t = db.GetTable(step.database, step.table);
      if (!t.ok()) return t.status();
      std::vector<Row> rows = StepRows(j);
      if ((*t)->spec().columns.size() == 4) {
        for (Row& r : rows) r.push_back(Value::Int(j));
      }
      return (*t)->InsertBatch(rows);
    }
  }
  return Status::Ok();
}

// What the directory holds (with rows when asked).
State Snapshot(Database& db, bool rows) {
  State s;
  for (const std::string& d : db.ListDatabases()) {
    if (d == "steady") continue;
    auto& tables = s[d];
    for (const std::string& name : db.ListTables(d)) {
      auto t = db.GetTable(d, name);
      EXPECT_TRUE(t.ok()) << d << "." << name << " is listed but cannot be had: " << t.status().ToString();
      if (!t.ok()) continue;
      TableState& ts = tables[name];
      ts.indexed = !(*t)->spec().indexes.empty();
      ts.keyed = !(*t)->spec().foreign_keys.empty();
      ts.has_x = (*t)->spec().columns.size() == 4;
      ts.row_version = (*t)->spec().row_version;
      if (!rows) continue;
      Status scan = (*t)->Scan({}, [&](const Row& r) {
        ts.rows[r[0].as_int()] = {r[1].as_string(), r[2].as_int(), r.size() == 4 ? r[3].as_int() : kNoX};
        return true;
      });
      EXPECT_TRUE(scan.ok()) << d << "." << name << ": " << scan.ToString();
    }
  }
  return s;
}

std::string Describe(const State& s) {
  std::string out;
  for (const auto& [d, tables] : s) {
    out += d + "{";
    for (const auto& [t, ts] : tables)
      out += " " + t + (ts.indexed ? "+ig" : "") + (ts.keyed ? "+fk" : "") + (ts.has_x ? "+x" : "") + " v" +
             std::to_string(ts.row_version) + ":" + std::to_string(ts.rows.size()) + " rows";
    out += " } ";
  }
  return out.empty() ? "(nothing)" : out;
}

DatabaseOptions Options(int flush) {
  DatabaseOptions o;
  o.buffer_pool_bytes = 2u << 20;  // pages are evicted (through the doublewrite area) all the time
  o.redo_log_bytes = 4u << 20;     // the log wraps, checkpoints keep up
  o.flush_log_at_trx_commit = flush;
  return o;
}

TableSpec SteadySpec() {
  return {"steady", "s", {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kVarchar, 100)}, {"id"}, {}};
}

// The child: runs only when the parent set STRATA_KILL_DDL_DIR.
TEST(KillDdlChild, RunsUntilKilled) {
  const char* dir = std::getenv("STRATA_KILL_DDL_DIR");
  if (!dir) GTEST_SKIP() << "run by KillDdlTest as its child";
  auto db = Database::Open(dir, Options(std::atoi(std::getenv("STRATA_KILL_DDL_FLUSH"))));
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  Database& d = **db;
  if (d.GetTable("steady", "s").status().IsNotFound()) {
    (void)d.CreateDatabase("steady");
    ASSERT_TRUE(d.CreateTable(SteadySpec()).ok());
  }
  Table* steady = *d.GetTable("steady", "s");
  std::int64_t next_id = 1;
  ASSERT_TRUE(
      steady->Scan({"PRIMARY", {}, false}, [&](const Row& r) { return next_id = r[0].as_int() + 1, false; }).ok());
  std::atomic<bool> stop = false;
  std::thread beside([&] {
    for (std::int64_t id = next_id; !stop; ++id) {
      Status s = steady->Insert({Value::Int(id), Value::String("row " + std::to_string(id))});
      if (!s.ok()) {
        std::fprintf(stderr, "steady insert %lld: %s\n", static_cast<long long>(id), s.ToString().c_str());
        std::abort();
      }
      if (!testing::Acknowledge("s " + std::to_string(id) + "\n")) return;
    }
  });
  State state = Snapshot(d, false);
  for (std::int64_t j = std::atoll(std::getenv("STRATA_KILL_FROM"));; ++j) {
    const Step step = Plan(j, state);
    Status s = RunStep(d, step, j);
    if (!s.ok()) {
      std::fprintf(stderr, "step %lld: %s\n", static_cast<long long>(j), s.ToString().c_str());
      std::abort();  // the parent sees an unsignalled end
    }
    ApplyToModel(step, j, state);
    if (!testing::Acknowledge("d " + std::to_string(j) + "\n")) break;
  }
  stop = true;
  beside.join();
}

struct Acks {
  std::int64_t last_step = -1, last_row = 0;
};

Acks ParseAcks(const std::string& out) {
  Acks a;
  std::size_t pos = 0;
  for (std::size_t nl; (nl = out.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    const std::int64_t n = std::stoll(out.substr(pos + 2, nl - pos - 2));
    if (out[pos] == 'd')
      a.last_step = std::max(a.last_step, n);
    else
      a.last_row = std::max(a.last_row, n);
  }
  return a;
}

// Files and folders that no table or database of the catalog accounts for.
std::vector<std::string> Orphans(const std::filesystem::path& dir, Database& db) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_directory()) continue;
    const std::string d = e.path().filename().string();
    const auto listed = db.ListDatabases();
    if (std::find(listed.begin(), listed.end(), d) == listed.end()) {
      out.push_back(d + "/");
      continue;
    }
    const auto tables = db.ListTables(d);
    for (const auto& f : std::filesystem::directory_iterator(e.path())) {
      const std::string name = f.path().stem().string();
      if (f.path().extension() != ".ibd" || std::find(tables.begin(), tables.end(), name) == tables.end())
        out.push_back(d + "/" + f.path().filename().string());
    }
  }
  return out;
}

void CheckFiles(const std::filesystem::path& dir, const std::string& when) {
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".ibd" && e.path().filename() != "ibdata1") continue;
    auto f = inspect::SpaceFile::Open(e.path());
    ASSERT_TRUE(f.ok()) << when << ": " << e.path();
    for (const auto& finding : inspect::CheckSpace(*f).findings) {
      if (finding.severity != inspect::Severity::kInfo) ADD_FAILURE() << when << ": " << finding.ToString();
    }
  }
}

class KillDdlTest : public ::testing::TestWithParam<int> {};

TEST_P(KillDdlTest, EveryStatementIsAllOrNothingAndStaysSoAcrossOpens) {
  const int flush = GetParam();
  const char* env_kills = std::getenv("STRATA_DDL_KILLS");
  const int kills = env_kills ? std::atoi(env_kills) : 4;
  testing::TempDir tmp;
  const std::filesystem::path dir = tmp.path() / "d";
  std::mt19937 rng(static_cast<unsigned>(1234 + flush));
  State model;
  std::int64_t next = 0;        // the next step a child runs
  std::int64_t rows_seen = 0;   // the steady table's rows found after the previous round
  std::int64_t ddl_points = 0;  // kills that fell while a DDL statement was in flight
  std::int64_t acked_steps = 0;
  for (int round = 0; round < kills; ++round) {
    const std::string when = "flush " + std::to_string(flush) + " round " + std::to_string(round);
    const std::size_t want = 1 + rng() % 200;
    const std::chrono::microseconds delay(rng() % 30000);
    auto child = testing::RunChildUntilKilled("KillDdlChild.RunsUntilKilled",
                                              {{"STRATA_KILL_DDL_DIR", dir.string()},
                                               {"STRATA_KILL_DDL_FLUSH", std::to_string(flush)},
                                               {"STRATA_KILL_FROM", std::to_string(next)}},
                                              want, delay);
    // SIGABRT is the child's own failure (a statement refused; its stderr says which).
    ASSERT_TRUE(child.signalled && WTERMSIG(child.status) == SIGKILL)
        << when << ": the child ended by itself (status " << child.status << ")";
    const Acks acks = ParseAcks(child.acks);
    struct KeepOnFailure {
      std::function<void()> keep;
      ~KeepOnFailure() {
        if (::testing::Test::HasFailure()) keep();
      }
    } keep_on_failure{[&] {
      const auto kept = std::filesystem::temp_directory_path() / ("strata-kill-ddl-failure-" + std::to_string(flush));
      std::filesystem::remove_all(kept);
      std::filesystem::copy(dir, kept, std::filesystem::copy_options::recursive);
      ADD_FAILURE() << "the directory as recovery left it: " << kept;
    }};
    // The models after each step from `next` to the one in flight.
    const std::int64_t in_flight = std::max(acks.last_step + 1, next);
    std::vector<State> models{model};
    std::int64_t last_acked_ddl = next - 1;
    for (std::int64_t j = next; j <= in_flight; ++j) {
      const Step step = Plan(j, models.back());
      if (step.ddl() && j <= acks.last_step) last_acked_ddl = j;
      if (j == in_flight) ddl_points += step.ddl();
      models.push_back(models.back());
      ApplyToModel(step, j, models.back());
    }
    // Open twice: what the first open shows must be what the second finds.
    State first, second;
    std::int64_t steady_rows = 0;
    {
      auto db = Database::Open(dir, Options(flush));
      ASSERT_TRUE(db.ok()) << when << ": " << db.status().ToString();
      first = Snapshot(**db, true);
      auto steady = (*db)->GetTable("steady", "s");
      if (steady.ok()) {
        std::int64_t expect = 1;
        ASSERT_TRUE((*steady)
                        ->Scan({},
                               [&](const Row& r) {
                                 EXPECT_EQ(r[0].as_int(), expect) << when << ": the steady rows have a gap";
                                 ++expect;
                                 return true;
                               })
                        .ok());
        steady_rows = expect - 1;
      }
      for (const auto& [d, tables] : first) {
        for (const auto& [name, ts] : tables) {
          Status check = (*(*db)->GetTable(d, name))->Check();
          EXPECT_TRUE(check.ok()) << when << ": " << d << "." << name << ": " << check.ToString();
        }
      }
      for (const auto& orphan : Orphans(dir, **db)) ADD_FAILURE() << when << ": left behind: " << orphan;
    }
    {
      auto db = Database::Open(dir, Options(flush));
      ASSERT_TRUE(db.ok()) << when << " (second open): " << db.status().ToString();
      second = Snapshot(**db, true);
    }
    ASSERT_TRUE(first == second) << when << ": the second open differs from the first:\n  first:  " << Describe(first)
                                 << "\n  second: " << Describe(second);
    // The newest model state the directory equals, searching back from the step in flight.
    std::int64_t found = -1;
    for (std::int64_t k = in_flight; k >= next - 1 && found < 0; --k) {
      if (models[static_cast<std::size_t>(k - next + 1)] == first) found = k;
    }
    ASSERT_GE(found, next - 1)
        << when << ": the directory is no state the steps " << next << ".." << in_flight
        << " pass through:\n  found: " << Describe(first) << "\n  after the last acknowledged: "
        << Describe(models[static_cast<std::size_t>(acks.last_step >= next ? acks.last_step - next + 1 : 0)]);
    const std::int64_t must = flush == 0 ? last_acked_ddl : acks.last_step;
    ASSERT_GE(found, must) << when << ": acknowledged step " << must << " was lost (found the state after " << found
                           << ")";
    if (flush != 0) {
      EXPECT_GE(steady_rows, acks.last_row) << when << ": acknowledged steady rows were lost";
    }
    EXPECT_GE(steady_rows, rows_seen) << when << ": steady rows found in an earlier round are gone";
    rows_seen = steady_rows;
    acked_steps += std::max<std::int64_t>(0, acks.last_step - next + 1);
    model = first;
    next = found + 1;
    CheckFiles(dir, when);
    if (::testing::Test::HasFailure()) return;
  }
  std::printf("[ kill ] DDL, flush %d: %d kills (%lld during DDL), %lld steps acknowledged, %lld steady rows\n", flush,
              kills, static_cast<long long>(ddl_points), static_cast<long long>(acked_steps),
              static_cast<long long>(rows_seen));
}

INSTANTIATE_TEST_SUITE_P(Flush, KillDdlTest, ::testing::Values(1, 2, 0),
                         [](const auto& info) { return "FlushLogAtTrxCommit" + std::to_string(info.param); });

}  // namespace
}  // namespace strata::engine
