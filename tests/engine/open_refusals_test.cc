// Opening refuses what it cannot keep its promises on, and changes nothing on disk when it
// does: a directory that lost ibdata1, another server's data directory, a truncated or
// damaged redo log, a table file copied from another table. A creation cut short by a full
// disk is started over, not refused for ever.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>

#include "engine/db.h"
#include "engine/fault_injection_env.h"
#include "tests/util/fixtures.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

namespace fs = std::filesystem;

TableSpec Spec(const std::string& name) {
  return {"shop", name, {NotNull(Col("id", ColumnType::kBigInt)), Col("v", ColumnType::kVarchar, 200)}, {"id"}, {}};
}

// Every file under `dir` with its bytes: what "nothing changed" is compared with.
std::map<std::string, std::vector<std::byte>> Snapshot(const fs::path& dir) {
  std::map<std::string, std::vector<std::byte>> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = testing::ReadWholeFile(e.path());
  }
  return out;
}

std::vector<std::string> Names(const std::map<std::string, std::vector<std::byte>>& s) {
  std::vector<std::string> n;
  for (const auto& [k, v] : s) n.push_back(k);
  return n;
}

// A directory with table shop.t of `rows` committed rows. With `crash`, the machine stops
// after the last commit, so the rows are in the log only (no page was written).
fs::path MakeDir(const fs::path& root, int rows, bool crash) {
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  o.page_cleaner = false;
  const fs::path dir = root / "d";
  {
    auto db = Database::Open(dir, o);
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    EXPECT_TRUE((*db)->CreateDatabase("shop").ok());
    auto t = (*db)->CreateTable(Spec("t"));
    EXPECT_TRUE(t.ok());
    EXPECT_TRUE((*db)->Flush().ok());
    for (int i = 0; i < rows; ++i)
      EXPECT_TRUE((*t)->Insert({Value::Int(i), Value::String(std::string(100, 'x'))}).ok());
    if (crash) env.PowerOff();
  }
  if (crash) {
    EXPECT_TRUE(env.Crash().ok());
  }
  return dir;
}

void ExpectRefusedUnchanged(const fs::path& dir, const std::string& says) {
  const auto before = Snapshot(dir);
  auto db = Database::Open(dir, {});
  ASSERT_FALSE(db.ok()) << "opened";
  EXPECT_NE(db.status().ToString().find(says), std::string::npos) << db.status().ToString();
  const auto after = Snapshot(dir);
  EXPECT_EQ(Names(after), Names(before));
  for (const auto& [name, bytes] : before) {
    EXPECT_TRUE(after.count(name) && after.at(name) == bytes) << "a refused open changed " << name;
  }
}

TEST(OpenRefusalTest, MissingIbdata1IsRefusedAndNothingIsRecreated) {
  testing::TempDir tmp;
  const fs::path dir = MakeDir(tmp.path(), 50, true);
  fs::remove(dir / "ibdata1");
  ExpectRefusedUnchanged(dir, "ibdata1 is missing");
  EXPECT_FALSE(fs::exists(dir / "ibdata1"));
}

TEST(OpenRefusalTest, MariaDbDataDirectoryIsRefusedBeforeAnythingIsWritten) {
  testing::TempDir tmp;
  const fs::path dir = tmp.path() / "mariadb";
  fs::create_directories(dir / "mysql");
  testing::Gunzip(testing::TestDataDir() / "mariadb-history/ibdata1.gz", dir / "ibdata1");
  testing::Gunzip(testing::TestDataDir() / "mariadb-redo/ib_logfile0.gz", dir / "ib_logfile0");
  std::ofstream(dir / "aria_log_control") << "x";
  ExpectRefusedUnchanged(dir, "not a Strata data directory");
  EXPECT_FALSE(fs::exists(dir / "strata.lock"));
  EXPECT_FALSE(fs::exists(dir / "ib_doublewrite"));
  // Without its ibdata1 it is still another server's, not a place to create a new one.
  fs::remove(dir / "ibdata1");
  ExpectRefusedUnchanged(dir, "MySQL or MariaDB data directory");
  // Its log alone is named as another server's, not as a Strata directory that lost ibdata1.
  fs::remove_all(dir / "mysql");
  fs::remove(dir / "aria_log_control");
  ExpectRefusedUnchanged(dir, "not a Strata data directory");
}

TEST(OpenRefusalTest, NonEmptyDirectoryIsNotTurnedIntoADataDirectory) {
  testing::TempDir tmp;
  fs::create_directories(tmp.path() / "notes");
  std::ofstream(tmp.path() / "notes" / "todo.txt") << "buy milk";
  ExpectRefusedUnchanged(tmp.path() / "notes", "not empty");
}

TEST(OpenRefusalTest, TruncatedRedoLogIsRefused) {
  testing::TempDir tmp;
  const fs::path dir = MakeDir(tmp.path(), 3000, true);
  const auto size = fs::file_size(dir / "ib_logfile0");
  fs::resize_file(dir / "ib_logfile0", size - (1u << 20));
  ExpectRefusedUnchanged(dir, "truncated");
}

// A bit flipped in a block the records need, with valid blocks after it: InnoDB refuses this
// too, rather than recovering the commits before the flip and dropping those after.
TEST(OpenRefusalTest, DamagedRedoBlockFollowedByValidOnesIsRefused) {
  for (const std::uint64_t at : {std::uint64_t{2048 + 512 * 40 + 100}, std::uint64_t{2048 + 512 * 300 + 4},
                                 std::uint64_t{2048 + 512 * 600 + 1}}) {
    SCOPED_TRACE("flipped byte at file offset " + std::to_string(at));
    testing::TempDir tmp;
    const fs::path dir = MakeDir(tmp.path(), 3000, true);
    testing::FlipBitsAt(dir / "ib_logfile0", at, 0x10);
    ExpectRefusedUnchanged(dir, "is damaged");
  }
}

// Only the table whose file it is: the directory opens, the other table takes writes, and
// the copied file is refused by name and left as it was.
TEST(OpenRefusalTest, TableFileCopiedFromAnotherTableIsRefusedUnchanged) {
  testing::TempDir tmp;
  const fs::path dir = tmp.path() / "d";
  {
    auto db = Database::Open(dir, {});
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
    for (const char* name : {"a", "b"}) {
      auto t = (*db)->CreateTable(Spec(name));
      ASSERT_TRUE(t.ok());
      for (int i = 0; i < 200; ++i) ASSERT_TRUE((*t)->Insert({Value::Int(i), Value::String(name)}).ok());
    }
  }
  fs::copy_file(dir / "shop" / "a.ibd", dir / "shop" / "b.ibd", fs::copy_options::overwrite_existing);
  const auto before = testing::ReadWholeFile(dir / "shop" / "b.ibd");
  {
    auto db = Database::Open(dir, {});
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    auto b = (*db)->GetTable("shop", "b");
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.status().reason(), Status::Reason::kTableUnavailable);
    EXPECT_NE(b.status().ToString().find("space id"), std::string::npos) << b.status().ToString();
    ASSERT_EQ((*db)->recovery().unavailable_tables.size(), 1u);
    auto a = (*db)->GetTable("shop", "a");
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    ASSERT_TRUE((*a)->Insert({Value::Int(1000), Value::String("more")}).ok());
  }
  EXPECT_TRUE(testing::ReadWholeFile(dir / "shop" / "b.ibd") == before) << "the refused file was written to";
}

TEST(OpenRefusalTest, CreationCutShortByAFullDiskIsStartedOverNextTime) {
  testing::TempDir tmp;
  const fs::path dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  env.SetDiskFull(true);
  auto failed = Database::Open(dir, o);
  ASSERT_FALSE(failed.ok());
  env.SetDiskFull(false);
  auto db = Database::Open(dir, o);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
  // And one killed part way (its marker and partial files left behind) likewise.
  db->reset();
  testing::TempDir tmp2;
  const fs::path half = tmp2.path() / "d";
  fs::create_directories(half);
  std::ofstream(half / "strata.creating");
  std::ofstream(half / "ibdata1") << "partial";
  auto again = Database::Open(half, {});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
}

TEST(OpenRefusalTest, ReadOnlyDirectoryIsNotCalledInUse) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes to read-only directories";
  testing::TempDir tmp;
  const fs::path dir = MakeDir(tmp.path(), 5, false);
  fs::remove(dir / "strata.lock");
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  auto db = Database::Open(dir, {});
  fs::permissions(dir, fs::perms::owner_all);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().ToString().find("in use"), std::string::npos) << db.status().ToString();
}

// innodb_force_recovery: 3 replays the log but leaves the transaction a crash left open, still
// invisible to reads, and refuses every change; the next normal open rolls it back. 6 reads
// the files as they are and writes nothing.
TEST(ForceRecoveryTest, LevelThreeSkipsTheRollbackAndSixWritesNothing) {
  testing::TempDir tmp;
  const fs::path dir = tmp.path() / "d";
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  o.page_cleaner = false;
  {
    auto db = Database::Open(dir, o);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
    auto t = (*db)->CreateTable(Spec("t"));
    ASSERT_TRUE(t.ok());
    for (int i = 0; i < 100; ++i) ASSERT_TRUE((*t)->Insert({Value::Int(i), Value::String("committed")}).ok());
    auto open = (*db)->Begin();
    ASSERT_TRUE(open.ok());
    for (int i = 100; i < 3000; ++i)
      ASSERT_TRUE((*t)->Insert({Value::Int(i), Value::String("open")}, open->get()).ok());
    ASSERT_TRUE((*t)->Insert({Value::Int(-1), Value::String("committed after")}).ok());  // the log is durable past them
    env.PowerOff();
    db->reset();
    open->reset();
  }
  ASSERT_TRUE(env.Crash().ok());
  auto count = [](Database& db) {
    auto t = db.GetTable("shop", "t");
    EXPECT_TRUE(t.ok());
    int n = 0;
    EXPECT_TRUE((*t)->Scan({}, [&](const Row&) { return ++n, true; }).ok());
    return n;
  };
  const auto crashed = Snapshot(dir);
  {
    DatabaseOptions six;
    six.force_recovery = 6;
    auto db = Database::Open(dir, six);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    auto t = (*db)->GetTable("shop", "t");
    ASSERT_TRUE(t.ok());
    EXPECT_EQ((*t)->Insert({Value::Int(5000), Value::String("x")}).code(), Status::Code::kNotSupported);
    EXPECT_EQ((*db)->CreateDatabase("other").code(), Status::Code::kNotSupported);
  }
  EXPECT_TRUE(Snapshot(dir) == crashed) << "force_recovery 6 wrote to the directory";
  {
    DatabaseOptions three;
    three.force_recovery = 3;
    auto db = Database::Open(dir, three);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    EXPECT_EQ((*db)->recovery().rolled_back_trx, 0u);
    EXPECT_EQ(count(**db), 101) << "the open transaction's rows read as committed";
    auto t = (*db)->GetTable("shop", "t");
    EXPECT_EQ((*t)->Insert({Value::Int(5000), Value::String("x")}).code(), Status::Code::kNotSupported);
  }
  auto db = Database::Open(dir, {});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ((*db)->recovery().rolled_back_trx, 1u);
  EXPECT_EQ(count(**db), 101);
}

}  // namespace
}  // namespace strata::engine
