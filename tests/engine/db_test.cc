// The Database API end to end: every column type round-trips, tables and their rows survive a
// reopen, constraints hold, off-page columns work, and the files are InnoDB files to the
// inspector and to MariaDB's innochecksum.
#include "engine/db.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "engine/fault_injection_env.h"
#include "engine/sync_point.h"
#include "inspect/check.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "inspect/summary.h"
#include "tests/util/sanitizer.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"
#include "tests/util/table_spec.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

std::unique_ptr<Database> OpenDb(const std::filesystem::path& dir, std::size_t pool = 64u << 20) {
  DatabaseOptions o;
  o.buffer_pool_bytes = pool;
  auto db = Database::Open(dir, o);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(*db) : nullptr;
}

TableSpec AllTypes() {
  TableSpec s;
  s.database = "shop";
  s.name = "everything";
  s.columns = {Col("id", ColumnType::kBigInt, 0, false),
               Col("tiny", ColumnType::kTinyInt),
               Col("small", ColumnType::kSmallInt),
               Col("medium", ColumnType::kMediumInt),
               Col("u32", ColumnType::kInt),
               Col("price", ColumnType::kDecimal, 10),
               Col("ratio", ColumnType::kFloat),
               Col("score", ColumnType::kDouble),
               Col("code", ColumnType::kChar, 10),
               Col("latin", ColumnType::kChar, 5),
               Col("name", ColumnType::kVarchar, 300),
               Col("raw", ColumnType::kBinary, 4),
               Col("vraw", ColumnType::kVarbinary, 20),
               Col("day", ColumnType::kDate),
               Col("at", ColumnType::kDatetime),
               Col("ts", ColumnType::kTimestamp),
               Col("note", ColumnType::kText),
               Col("data", ColumnType::kLongBlob),
               Col("made", ColumnType::kYear)};
  s.columns[4].is_unsigned = true;
  s.columns[5].scale = 2;
  s.columns[9].charset = Charset::kLatin1;
  s.columns[14].scale = 3;
  s.primary_key = {"id"};
  return s;
}

Row AllTypesRow(std::int64_t id, std::size_t blob_bytes) {
  std::string blob(blob_bytes, '\0');
  for (std::size_t i = 0; i < blob.size(); ++i) blob[i] = static_cast<char>(i * 7 + id);
  return {Value::Int(id),
          Value::Int(-128),
          Value::Int(32767),
          Value::Int(-8388608),
          Value::UInt(4294967295u),
          Value::String("-12345678.90"),
          Value::Double(0.5),
          Value::Double(-1.25e300),
          Value::String("héllo"),
          Value::String("ab"),
          Value::String(std::string(250, 'v')),
          Value::String(std::string("\x01\x02", 2)),
          Value::String(std::string("\x00\xff", 2)),
          Value::String("2024-02-29"),
          Value::String("2023-11-10 23:59:58.125"),
          Value::String("2038-01-19 03:14:07"),
          Value::Null(),
          Value::String(blob),
          Value::Int(24)};  // YEAR: 2024
}

TEST(DatabaseTest, EveryTypeRoundTripsAndSurvivesReopen) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "data";
  {
    auto db = OpenDb(dir);
    ASSERT_TRUE(db->CreateDatabase("shop").ok());
    auto t = db->CreateTable(AllTypes());
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    ASSERT_TRUE((*t)->Insert(AllTypesRow(1, 100)).ok());
    Status s = (*t)->Insert(AllTypesRow(2, 100000));  // off-page
    ASSERT_TRUE(s.ok()) << s.ToString();
    auto got = (*t)->Get({Value::Int(2)});
    ASSERT_TRUE(got.ok() && got->has_value()) << got.status().ToString();
    Row want = AllTypesRow(2, 100000);
    want[2] = Value::Int(32767);
    want[11] = Value::String(std::string("\x01\x02\0\0", 4));  // BINARY(4) keeps its zero padding
    want[18] = Value::UInt(2024);                              // a two-digit YEAR
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ((**got)[i], want[i]) << "column " << i << ": " << (**got)[i].ToString().substr(0, 50);
    }
    ASSERT_TRUE((*t)->Check().ok());
  }
  auto db = OpenDb(dir);
  auto t = db->GetTable("shop", "everything");
  ASSERT_TRUE(t.ok());
  auto got = (*t)->Get({Value::Int(2)});
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((**got)[17], AllTypesRow(2, 100000)[17]);
  EXPECT_EQ((**got)[14].as_string(), "2023-11-10 23:59:58.125");
  EXPECT_EQ((**got)[5].as_string(), "-12345678.90");
  EXPECT_EQ((**got)[18], Value::UInt(2024));  // the catalog keeps the type it was added as
  ASSERT_TRUE((*t)->Delete({Value::Int(2)}).ok());
  EXPECT_FALSE((*t)->Get({Value::Int(2)})->has_value());
}

TEST(DatabaseTest, BadValuesAreRefusedByColumnName) {
  testing::TempDir tmp;
  auto db = OpenDb(tmp.path() / "d");
  ASSERT_TRUE(db->CreateDatabase("shop").ok());
  auto t = db->CreateTable(AllTypes());
  ASSERT_TRUE(t.ok());
  Row r = AllTypesRow(1, 10);
  r[1] = Value::Int(300);
  Status s = (*t)->Insert(r);
  EXPECT_EQ(s.message(), "Out of range value for column 'tiny'");
  r = AllTypesRow(1, 10);
  r[13] = Value::String("2023-02-30");
  EXPECT_NE((*t)->Insert(r).message().find("Incorrect date value"), std::string::npos);
  r = AllTypesRow(1, 10);
  r[8] = Value::String("12345678901");
  EXPECT_NE((*t)->Insert(r).message().find("Data too long"), std::string::npos);
  r = AllTypesRow(1, 10);
  r[0] = Value::Null();
  EXPECT_EQ((*t)->Insert(r).message(), "Column 'id' cannot be null");
  EXPECT_FALSE((*t)->Get({Value::Int(1)})->has_value());  // nothing half-inserted
}

TEST(DatabaseTest, SecondProcessIsRefused) {
  testing::TempDir tmp;
  auto db = OpenDb(tmp.path() / "d");
  // flock is per open file description: a second Open in this process conflicts like another process.
  auto again = Database::Open(tmp.path() / "d", {});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), Status::Code::kBusy);
  EXPECT_NE(again.status().message().find("in use"), std::string::npos);
}

// A page write in flight when its table is dropped: the write used the table's file, which
// DropTable closed and deleted while the write still had it (a use after free under ASan).
// Now the drop waits for that write. The batch is held at its start, after it took its copy of
// a page of the table, while the table is dropped.
TEST(DatabaseTest, DropTableWaitsForAPageWriteOfTheTableInFlight) {
  testing::TempDir tmp;
  DatabaseOptions o;
  o.page_cleaner = false;  // the only writer is the Flush below
  auto opened = Database::Open(tmp.path() / "d", o);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  auto& db = **opened;
  ASSERT_TRUE(db.CreateDatabase("shop").ok());
  TableSpec spec;
  spec.database = "shop";
  spec.name = "t";  // the first table: space 1
  spec.columns = {Col("id", ColumnType::kInt, 0, false), Col("v", ColumnType::kVarchar, 100)};
  spec.primary_key = {"id"};
  auto t = db.CreateTable(spec);
  ASSERT_TRUE(t.ok());
  for (int i = 0; i < 300; ++i) ASSERT_TRUE((*t)->Insert({Value::Int(i), Value::String(std::string(90, 'v'))}).ok());

  std::atomic<bool> held{false};
  std::atomic<bool> write_done{false};
  sync_point::Set([&](std::string_view point) {
    if (point == "buffer_pool.writing space 1" && !held.exchange(true)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      write_done = true;  // the batch goes on to write as soon as this returns
    }
  });
  std::thread flusher([&] { (void)db.Flush(); });
  while (!held) std::this_thread::yield();
  const std::uint64_t writes = db.buffer_pool_stats().writes;
  ASSERT_TRUE(db.DropTable("shop", "t").ok());
  EXPECT_TRUE(write_done) << "the drop returned while a write of the table's page was held";
  EXPECT_GT(db.buffer_pool_stats().writes, writes) << "the drop returned before the write in flight ended";
  flusher.join();
  sync_point::Set(nullptr);
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "d" / "shop" / "t.ibd"));
}

TEST(DatabaseTest, AutoIncrementUniqueKeysAndSecondaryScans) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  TableSpec s;
  s.database = "app";
  s.name = "users";
  s.columns = {Col("id", ColumnType::kInt, 0, false), Col("email", ColumnType::kVarchar, 100, false),
               Col("age", ColumnType::kInt)};
  s.columns[0].auto_increment = true;
  s.columns[0].is_unsigned = true;
  s.primary_key = {"id"};
  s.indexes = {{"email", {"email"}, true}, {"age", {"age"}, false}};
  {
    auto db = OpenDb(dir);
    ASSERT_TRUE(db->CreateDatabase("app").ok());
    auto t = db->CreateTable(s);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    for (int i = 0; i < 2000; ++i) {
      ASSERT_TRUE(
          (*t)->Insert({Value::Null(), Value::String("user" + std::to_string(i) + "@x"), Value::Int(i % 50)}).ok());
      ASSERT_EQ((*t)->last_insert_id(), static_cast<std::uint64_t>(i + 1));
    }
    Status dup = (*t)->Insert({Value::Null(), Value::String("USER7@x"), Value::Int(1)});  // case-insensitive collation
    EXPECT_EQ(dup.message(), "Duplicate entry 'USER7@x' for key 'users.email'");
    ASSERT_TRUE((*t)->Update({Value::UInt(5), Value::String("renamed@x"), Value::Int(99)}).ok());
    EXPECT_TRUE((*t)->Update({Value::UInt(6), Value::String("renamed@x"), Value::Int(1)}).IsAlreadyExists());
    ASSERT_TRUE((*t)->Check().ok());
  }
  auto db = OpenDb(dir);
  auto t = db->GetTable("app", "users");
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE((*t)->Insert({Value::Null(), Value::String("after@x"), Value::Int(1)}).ok());
  EXPECT_EQ((*t)->last_insert_id(), 2001u);
  std::vector<std::int64_t> ages;
  ASSERT_TRUE((*t)->Scan({"age", {Value::Int(48)}, true},
                         [&](const Row& r) {
                           ages.push_back(r[2].as_int());
                           return true;
                         })
                  .ok());
  ASSERT_EQ(ages.size(), 81u);  // 40 each of ages 48 and 49, and the renamed row's 99
  EXPECT_EQ(ages.back(), 99);
  auto renamed = (*t)->Get({Value::UInt(5)});
  EXPECT_EQ((**renamed)[1].as_string(), "renamed@x");
  std::string first_email;
  ASSERT_TRUE(
      (*t)->Scan({"email", {}, true}, [&](const Row& r) { return first_email = r[1].as_string(), false; }).ok());
  EXPECT_EQ(first_email, "after@x");
}

// An UPDATE of a row the transaction has just read with an exclusive lock writes it where the
// read found it: one search of the clustered index and one lock request per row (it searched
// three times and asked for the lock twice). Whatever changed the tree in between (another
// row's insert that splits the page, a row that grows) sends the update back to a search.
TEST(DatabaseTest, AnUpdateWritesTheRowWhereItsLockingReadFoundIt) {
  testing::TempDir tmp;
  auto db = OpenDb(tmp.path() / "d");
  ASSERT_TRUE(db->CreateDatabase("app").ok());
  TableSpec s;
  s.database = "app";
  s.name = "hot";
  s.columns = {Col("id", ColumnType::kInt, 0, false), Col("k", ColumnType::kInt),
               Col("pad", ColumnType::kVarchar, 900)};
  s.primary_key = {"id"};
  s.indexes = {{"k", {"k"}, false}};
  auto t = db->CreateTable(s);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  for (int i = 1; i <= 40; ++i) ASSERT_TRUE((*t)->Insert({Value::Int(i), Value::Int(0), Value::String("p")}).ok());
  auto trx = db->Begin();
  ASSERT_TRUE(trx.ok());
  const auto update = [&](int id, int k, const std::string& pad) {
    auto row = (*t)->Get({Value::Int(id)}, trx->get(), RowLock::kExclusive);
    ASSERT_TRUE(row.ok() && row->has_value());
    ASSERT_EQ((**row)[1].as_int(), k - 1);
    ASSERT_TRUE((*t)->Update({Value::Int(id), Value::Int(k), Value::String(pad)}, trx->get()).ok());
  };
  for (int k = 1; k <= 50; ++k) {
    const TableStats before = (*t)->stats();
    update(7, k, "p");
    const TableStats after = (*t)->stats();
    EXPECT_EQ(after.clustered_searches - before.clustered_searches, 1u) << k;
    EXPECT_EQ(after.lock_requests - before.lock_requests, 1u) << k;
  }
  // Between the read and the write, the page splits under other rows' inserts, or the row
  // grows (delete and insert): the update searches again and lands on the right record.
  auto row = (*t)->Get({Value::Int(8)}, trx->get(), RowLock::kExclusive);
  ASSERT_TRUE(row.ok() && row->has_value());
  for (int i = 1000; i < 1060; ++i)
    ASSERT_TRUE((*t)->Insert({Value::Int(i), Value::Int(0), Value::String(std::string(800, 'x'))}, trx->get()).ok());
  ASSERT_TRUE((*t)->Update({Value::Int(8), Value::Int(1), Value::String(std::string(700, 'y'))}, trx->get()).ok());
  update(9, 1, std::string(600, 'z'));
  update(9, 2, "short again");
  ASSERT_TRUE((*trx)->Commit().ok());
  ASSERT_TRUE((*t)->Check().ok());
  std::vector<std::int64_t> ks;
  ASSERT_TRUE(
      (*t)->Scan({"k", {Value::Int(1)}, true}, [&](const Row& r) { return ks.push_back(r[0].as_int()), true; }).ok());
  EXPECT_EQ(ks, (std::vector<std::int64_t>{8, 9, 7}));
  EXPECT_EQ((**(*t)->Get({Value::Int(7)}))[1].as_int(), 50);
  EXPECT_EQ((**(*t)->Get({Value::Int(8)}))[2].as_string(), std::string(700, 'y'));
  EXPECT_EQ((**(*t)->Get({Value::Int(9)}))[2].as_string(), "short again");
}

TEST(DatabaseTest, TableWithoutPrimaryKeyUsesHiddenRowIds) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  TableSpec s;
  s.database = "logs";
  s.name = "events";
  s.columns = {Col("msg", ColumnType::kVarchar, 50)};
  {
    auto db = OpenDb(dir);
    ASSERT_TRUE(db->CreateDatabase("logs").ok());
    auto t = db->CreateTable(s);
    ASSERT_TRUE(t.ok());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE((*t)->Insert({Value::String("same")}).ok());
  }
  auto db = OpenDb(dir);
  auto t = db->GetTable("logs", "events");
  ASSERT_TRUE((*t)->Insert({Value::String("later")}).ok());
  int n = 0;
  std::string last;
  ASSERT_TRUE((*t)->Scan({}, [&](const Row& r) { return ++n, last = r[0].as_string(), true; }).ok());
  EXPECT_EQ(n, 11);
  EXPECT_EQ(last, "later");
  auto got = (*t)->Get({Value::UInt(11)});
  ASSERT_TRUE(got.ok() && got->has_value());
}

// A random workload on a table with a secondary index against a model, checked structurally.
TEST(DatabaseTest, RandomWorkloadMatchesModel) {
  testing::TempDir tmp;
  auto db = OpenDb(tmp.path() / "d", 1u << 20);  // 64 frames: constant eviction
  ASSERT_TRUE(db->CreateDatabase("m").ok());
  TableSpec s;
  s.database = "m";
  s.name = "kv";
  s.columns = {Col("k", ColumnType::kInt, 0, false), Col("v", ColumnType::kVarchar, 400), Col("g", ColumnType::kInt)};
  s.primary_key = {"k"};
  s.indexes = {{"g", {"g"}, false}};
  auto t = db->CreateTable(s);
  ASSERT_TRUE(t.ok());
  std::map<int, std::pair<std::string, int>> model;
  std::mt19937 rng(11);
  for (int op = 1; op <= (testing::kUnderSanitizer ? 6000 : 20000); ++op) {
    const int k = static_cast<int>(rng() % 4000);
    const std::string v(rng() % 400, static_cast<char>('a' + rng() % 26));
    const int g = static_cast<int>(rng() % 100);
    switch (rng() % 3) {
      case 0: {
        Status st = (*t)->Insert({Value::Int(k), Value::String(v), Value::Int(g)});
        ASSERT_EQ(st.ok(), !model.count(k)) << st.ToString();
        if (st.ok()) model[k] = {v, g};
        break;
      }
      case 1: {
        Status st = (*t)->Delete({Value::Int(k)});
        ASSERT_EQ(st.ok(), model.erase(k) == 1);
        break;
      }
      default: {
        Status st = (*t)->Update({Value::Int(k), Value::String(v), Value::Int(g)});
        ASSERT_EQ(st.ok(), model.count(k) == 1) << st.ToString();
        if (st.ok()) model[k] = {v, g};
      }
    }
    if (op % 5000 == 0) {
      ASSERT_TRUE((*t)->Check().ok()) << op;
      std::multimap<int, int> by_g;
      for (const auto& [key, val] : model) by_g.emplace(val.second, key);
      std::vector<int> want, got;
      for (const auto& [gg, key] : by_g) want.push_back(key);
      ASSERT_TRUE((*t)->Scan({"g", {}, true},
                             [&](const Row& r) { return got.push_back(static_cast<int>(r[0].as_int())), true; })
                      .ok());
      ASSERT_EQ(got.size(), want.size());
    }
  }
}

TEST(DatabaseTest, FilesAreInnodbFilesToTheInspectorAndInnochecksum) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  {
    auto db = OpenDb(dir);
    ASSERT_TRUE(db->CreateDatabase("shop").ok());
    auto t = db->CreateTable(AllTypes());
    ASSERT_TRUE(t.ok());
    for (int i = 0; i < 3000; ++i) ASSERT_TRUE((*t)->Insert(AllTypesRow(i, i % 97 == 0 ? 20000 : 50)).ok());
  }
  for (const auto& file : {dir / "shop" / "everything.ibd", dir / "ibdata1"}) {
    auto f = inspect::SpaceFile::Open(file);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    auto report = inspect::CheckSpace(*f);
    for (const auto& finding : report.findings) ADD_FAILURE() << file << ": " << finding.ToString();
    if (testing::RunCommand("command -v innochecksum").exit_code == 0) {
      auto r = testing::RunCommand("innochecksum " + file.string());
      EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    }
  }
  auto f = inspect::SpaceFile::Open(dir / "shop" / "everything.ibd");
  auto summary = inspect::Summarize(*f);
  if (testing::RunCommand("command -v innochecksum").exit_code == 0) {
    // innochecksum's page-type summary (-S) counts the same pages as ours; it files the SDI
    // page, a MySQL 8.0 type MariaDB does not know, under "Other type of page".
    auto r = testing::RunCommand("innochecksum -S " + (dir / "shop" / "everything.ibd").string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, std::uint64_t> theirs;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      std::istringstream fields(line);
      std::uint64_t n = 0;
      std::string name;
      if (fields >> n && std::getline(fields >> std::ws, name)) theirs[name] = n;
    }
    EXPECT_EQ(theirs["Index page"], summary.type_counts["INDEX"]);
    EXPECT_EQ(theirs["BLOB page"], summary.type_counts["BLOB"]);
    EXPECT_EQ(theirs["Inode page"], summary.type_counts["INODE"]);
    EXPECT_EQ(theirs["File Space Header"], summary.type_counts["FSP_HDR"]);
    EXPECT_EQ(theirs["Insert buffer bitmap"], summary.type_counts["IBUF_BITMAP"]);
    EXPECT_EQ(theirs["Freshly allocated page"], summary.type_counts["FREE"]);
    EXPECT_EQ(theirs["Other type of page"], summary.type_counts["SDI"]);
  }
  EXPECT_EQ(summary.type_counts["SDI"], 1u);
  EXPECT_GT(summary.type_counts["BLOB"], 30u);
  inspect::Dictionary d = inspect::ReadDictionary(*f);
  ASSERT_EQ(d.tables.size(), 1u);
  EXPECT_EQ(d.tables[0].name, "everything");
  ASSERT_EQ(d.tables[0].indexes.size(), 1u);
  EXPECT_EQ(d.tables[0].indexes[0].root_page, 4u);
  EXPECT_TRUE(d.tables[0].indexes[0].clustered);
  EXPECT_EQ(d.tables[0].indexes[0].leaf.fields.size(), 21u);                  // 19 columns + DB_TRX_ID + DB_ROLL_PTR
  EXPECT_EQ(d.tables[0].columns[10].field.max_length, 1200u);                 // varchar(300) utf8mb4
  EXPECT_EQ(d.tables[0].columns[18].format.type, ondisk::ColumnType::kYear);  // MySQL's own YEAR, from the SDI
}

TEST(DatabaseTest, TruncatedTableFileIsAClearErrorForItsTableAlone) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  {
    auto db = OpenDb(dir);
    ASSERT_TRUE(db->CreateDatabase("shop").ok());
    ASSERT_TRUE(db->CreateTable(AllTypes()).ok());
  }
  const auto file = dir / "shop" / "everything.ibd";
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 1000);
  // The directory opens; the table is refused, naming the file and what is wrong with it.
  auto db = Database::Open(dir, {});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  auto t = (*db)->GetTable("shop", "everything");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().reason(), Status::Reason::kTableUnavailable);
  EXPECT_NE(t.status().message().find("everything.ibd"), std::string::npos) << t.status().message();
  EXPECT_NE(t.status().message().find("not a whole number of 16384-byte pages"), std::string::npos);
}

// A full disk fails the commit whose log write needed space, with a clear I/O error naming the
// file; later commits fail too (none may be reported durable) and reads keep working.
TEST(DatabaseTest, FullDiskFailsCleanlyAndStopsWrites) {
  testing::TempDir tmp;
  FaultInjectionEnv env(Env::Default());
  DatabaseOptions o;
  o.env = &env;
  o.page_cleaner = false;
  auto db = Database::Open(tmp.path() / "d", o);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
  auto t = (*db)->CreateTable(AllTypes());
  ASSERT_TRUE(t.ok());
  env.SetDiskFull(true);
  Status s;
  int inserted = 0;
  for (; inserted < 100000 && s.ok(); ++inserted) s = (*t)->Insert(AllTypesRow(inserted, 10));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kIoError) << s.ToString();
  // The commit's log write is the first to need space: the insert is not acknowledged, and
  // nothing later is either.
  EXPECT_NE(s.message().find("ib_logfile0"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("No space left"), std::string::npos) << s.message();
  Status next = (*t)->Insert(AllTypesRow(1000000, 10));
  EXPECT_NE(next.message().find("nothing after LSN"), std::string::npos) << next.ToString();
  auto got = (*t)->Get({Value::Int(0)});
  ASSERT_TRUE(got.ok() && got->has_value());
  env.SetDiskFull(false);
}

}  // namespace
}  // namespace strata::engine
