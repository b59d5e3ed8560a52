// RENAME TABLE and ReplaceTable (the swap ending a copying ALTER TABLE): rows, indexes, files
// and the definition inside the file follow the new name, across reopens; refusals change
// nothing; a work table a crash left is dropped at the next open. kill_ddl_test.cc kills the
// process during both.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/db.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "tests/util/table_spec.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

TableSpec Spec(const std::string& database, const std::string& name) {
  return {database,
          name,
          {NotNull(Col("id", ColumnType::kInt)), Col("g", ColumnType::kInt), Col("v", ColumnType::kVarchar, 300)},
          {"id"},
          {{"ig", {"g"}, false}}};
}

// Enough rows for several pages, so that the file holds more than its root.
void Fill(Table& t, int from, int n) {
  std::vector<Row> rows;
  for (int i = from; i < from + n; ++i)
    rows.push_back(
        {Value::Int(i), Value::Int(i % 7), Value::String(std::string(200, static_cast<char>('a' + i % 26)))});
  ASSERT_TRUE(t.InsertBatch(rows).ok());
}

std::vector<std::int64_t> Ids(Database& db, const std::string& database, const std::string& name,
                              const std::string& index = "PRIMARY") {
  std::vector<std::int64_t> ids;
  auto t = db.GetTable(database, name);
  EXPECT_TRUE(t.ok()) << database << "." << name << ": " << t.status().ToString();
  if (!t.ok()) return ids;
  EXPECT_TRUE((*t)->Scan({index, {}, false}, [&](const Row& r) { return ids.push_back(r[0].as_int()), true; }).ok());
  return ids;
}

// The name the file's own definition (SDI) gives, as the inspector reads it.
std::string SdiName(const std::filesystem::path& file) {
  auto f = inspect::SpaceFile::Open(file);
  if (!f.ok()) return "(cannot open " + file.string() + ")";
  const inspect::Dictionary d = inspect::ReadDictionary(*f);
  return d.tables.empty() ? "(no table)" : d.tables[0].schema + "." + d.tables[0].name;
}

TEST(RenameTableTest, RowsIndexesAndFileFollowTheNewNameAcrossDatabasesAndReopens) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  {
    auto db = Database::Open(dir, {});
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
    ASSERT_TRUE((*db)->CreateDatabase("archive").ok());
    auto t = (*db)->CreateTable(Spec("shop", "orders"));
    ASSERT_TRUE(t.ok());
    Fill(**t, 0, 600);
    ASSERT_TRUE((*db)->RenameTable("shop", "orders", "archive", "orders_2026").ok());
    EXPECT_TRUE((*db)->GetTable("shop", "orders").status().IsNotFound());
    EXPECT_EQ(Ids(**db, "archive", "orders_2026").size(), 600u);
    EXPECT_EQ(Ids(**db, "archive", "orders_2026", "ig").size(), 600u);
    auto renamed = (*db)->GetTable("archive", "orders_2026");
    ASSERT_TRUE(renamed.ok());
    EXPECT_EQ((*renamed)->spec().name, "orders_2026");
    Fill(**renamed, 600, 10);  // writable under its new name
    EXPECT_TRUE(std::filesystem::exists(dir / "archive" / "orders_2026.ibd"));
    EXPECT_FALSE(std::filesystem::exists(dir / "shop" / "orders.ibd"));
  }
  EXPECT_EQ(SdiName(dir / "archive" / "orders_2026.ibd"), "archive.orders_2026");
  auto db = Database::Open(dir, {});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ(Ids(**db, "archive", "orders_2026").size(), 610u);
  EXPECT_EQ((*db)->ListTables("shop"), std::vector<std::string>{});
  auto t = (*db)->GetTable("archive", "orders_2026");
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE((*t)->Check().ok());
}

TEST(RenameTableTest, RefusalsChangeNothing) {
  testing::TempDir tmp;
  auto db = Database::Open(tmp.path() / "d", {});
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
  auto a = (*db)->CreateTable(Spec("shop", "a"));
  ASSERT_TRUE(a.ok());
  Fill(**a, 0, 5);
  ASSERT_TRUE((*db)->CreateTable(Spec("shop", "b")).ok());
  EXPECT_TRUE((*db)->RenameTable("shop", "a", "shop", "b").IsAlreadyExists());
  EXPECT_EQ((*db)->RenameTable("shop", "a", "nowhere", "a").reason(), Status::Reason::kUnknownDatabase);
  EXPECT_EQ((*db)->RenameTable("shop", "missing", "shop", "c").reason(), Status::Reason::kNoSuchTable);
  EXPECT_FALSE((*db)->RenameTable("shop", "a", "shop", "x/y").ok());
  EXPECT_EQ(Ids(**db, "shop", "a").size(), 5u);
  EXPECT_EQ((*db)->ListTables("shop"), (std::vector<std::string>{"a", "b"}));
}

TEST(ReplaceTableTest, TheWorkTableTakesTheNameAndTheOldTableGoes) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  {
    auto db = Database::Open(dir, {});
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
    auto old = (*db)->CreateTable(Spec("shop", "t"));
    ASSERT_TRUE(old.ok());
    Fill(**old, 0, 300);
    TableSpec wider = Spec("shop", std::string(kWorkTablePrefix) + "alter-1");
    wider.columns.push_back(Col("note", ColumnType::kVarchar, 20));
    wider.indexes.clear();
    auto work = (*db)->CreateTable(wider);
    ASSERT_TRUE(work.ok());
    std::vector<Row> copied;
    ASSERT_TRUE((*old)
                    ->Scan({},
                           [&](const Row& r) {
                             Row w = r;
                             w.push_back(Value::String("copied"));
                             copied.push_back(std::move(w));
                             return true;
                           })
                    .ok());
    ASSERT_TRUE((*work)->InsertBatch(copied).ok());
    EXPECT_TRUE((*db)->ReplaceTable("shop", "t", "missing").IsNotFound());
    ASSERT_TRUE((*db)->ReplaceTable("shop", "t", wider.name).ok());
    auto now = (*db)->GetTable("shop", "t");
    ASSERT_TRUE(now.ok());
    EXPECT_EQ((*now)->spec().columns.size(), 4u);
    EXPECT_TRUE((*now)->spec().indexes.empty());
    EXPECT_EQ((*db)->ListTables("shop"), std::vector<std::string>{"t"});
    EXPECT_EQ(Ids(**db, "shop", "t").size(), 300u);
  }
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir / "shop")) files.push_back(e.path().filename().string());
  EXPECT_EQ(files, std::vector<std::string>{"t.ibd"});
  EXPECT_EQ(SdiName(dir / "shop" / "t.ibd"), "shop.t");
  auto db = Database::Open(dir, {});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  auto t = (*db)->GetTable("shop", "t");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((*t)->spec().columns.size(), 4u);
  auto row = (*t)->Get({Value::Int(7)});
  ASSERT_TRUE(row.ok() && row->has_value());
  EXPECT_EQ((**row)[3].as_string(), "copied");
}

TEST(ReplaceTableTest, AWorkTableLeftBehindIsDroppedAtOpen) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  const std::string work = std::string(kWorkTablePrefix) + "alter-3";
  {
    auto db = Database::Open(dir, {});
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
    auto t = (*db)->CreateTable(Spec("shop", work));
    ASSERT_TRUE(t.ok());
    Fill(**t, 0, 50);
  }
  auto db = Database::Open(dir, {});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ((*db)->ListTables("shop"), std::vector<std::string>{});
  EXPECT_FALSE(std::filesystem::exists(dir / "shop" / (work + ".ibd")));
}

}  // namespace
}  // namespace strata::engine
