// Instant ADD/DROP COLUMN (MySQL 8.0.29+ row versions) in the engine: a table of several
// levels whose columns change while rows of every version stay where they are. Old rows read
// the default of what they lack; updates keep a record in its version when InnoDB would and
// rebuild it in the newest otherwise; rollback, a read view from before the update, purge and
// a reopen all see the same rows; the inspector reads every record by its own version
// (node pointers keep version 0's NULL bitmap width).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>

#include "engine/db.h"
#include "inspect/rows.h"
#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "tests/util/table_spec.h"
#include "tests/util/tsv.h"

namespace strata::engine {
namespace {

using testing::Col;
using testing::NotNull;

constexpr int kOldRows = 900;  // several leaf pages: a tree with node pointers

TableSpec Original() {
  return {"shop",
          "t",
          {NotNull(Col("id", ColumnType::kInt)), Col("a", ColumnType::kInt), Col("v", ColumnType::kVarchar, 100),
           Col("g", ColumnType::kInt)},
          {"id"},
          {{"ig", {"g"}, false}}};
}

std::string Text(const Value& v) { return v.is_null() ? "NULL" : v.ToString(); }

std::vector<std::string> Rows(Database& db, Transaction* trx = nullptr) {
  std::vector<std::string> out;
  auto t = db.GetTable("shop", "t");
  EXPECT_TRUE(t.ok());
  if (!t.ok()) return out;
  EXPECT_TRUE((*t)->Scan(
                      {},
                      [&](const Row& r) {
                        std::string line;
                        for (const Value& v : r) line += (line.empty() ? "" : "\t") + Text(v);
                        out.push_back(line);
                        return true;
                      },
                      trx)
                  .ok());
  return out;
}

// The rows as the inspector reads them from the file (the database closed).
std::vector<std::string> InspectedRows(const std::filesystem::path& ibd) {
  std::vector<std::string> out;
  auto f = inspect::SpaceFile::Open(ibd);
  EXPECT_TRUE(f.ok());
  if (!f.ok()) return out;
  const inspect::Dictionary d = inspect::ReadDictionary(*f);
  EXPECT_EQ(d.tables.size(), 1u);
  if (d.tables.empty()) return out;
  const inspect::TableDef& table = d.tables[0];
  inspect::ScanRows(*f, table, *table.Clustered(), false, [&](const inspect::Row& r) {
    std::string line;
    for (const auto& c : r.cells)
      line += (line.empty() ? "" : "\t") + (c.text ? *c.text : c.unknown.empty() ? "NULL" : "?" + c.unknown);
    out.push_back(line);
  });
  return out;
}

// The table's definition after ADD COLUMN b INT DEFAULT 7 (and twelve nullable columns, so
// that the NULL bitmap grows past a byte) and DROP COLUMN a.
struct Altered {
  TableSpec spec;
  std::vector<std::optional<std::size_t>> sources;
  std::vector<Value> fills;
};

Altered AddColumns(const TableSpec& old) {
  Altered a{old, {}, {}};
  for (std::size_t i = 0; i < old.columns.size(); ++i) a.sources.push_back(i);
  a.fills.assign(old.columns.size(), Value::Null());
  Column b = Col("b", ColumnType::kInt);
  b.default_value = Value::Int(7);
  a.spec.columns.insert(a.spec.columns.begin() + 1, b);  // AFTER id: its field still goes last
  a.sources.insert(a.sources.begin() + 1, std::nullopt);
  a.fills.insert(a.fills.begin() + 1, Value::Int(7));
  for (int i = 0; i < 12; ++i) {
    a.spec.columns.push_back(Col("n" + std::to_string(i), ColumnType::kVarchar, 20));
    a.sources.push_back(std::nullopt);
    a.fills.push_back(Value::Null());
  }
  return a;
}

Altered DropColumn(const TableSpec& old, const std::string& name) {
  Altered a{old, {}, {}};
  a.spec.columns.clear();
  for (std::size_t i = 0; i < old.columns.size(); ++i) {
    if (old.columns[i].name == name) continue;
    a.spec.columns.push_back(old.columns[i]);
    a.sources.push_back(i);
    a.fills.push_back(Value::Null());
  }
  return a;
}

Row NewRow(int id, std::size_t n_columns) {
  Row r(n_columns, Value::Null());
  r[0] = Value::Int(id);
  r[1] = Value::Int(id * 3);                          // b
  r[2] = Value::String("new " + std::to_string(id));  // v
  r[3] = Value::Int(id % 5);                          // g
  r[4] = Value::String("n0 of " + std::to_string(id));
  return r;
}

TEST(InstantAlterTest, RowsOfEveryVersionReadUpdateRollBackAndSurviveReopen) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  std::vector<std::string> expected;
  {
    auto db = Database::Open(dir, {});
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
    auto t = (*db)->CreateTable(Original());
    ASSERT_TRUE(t.ok());
    std::vector<Row> rows;
    for (int i = 0; i < kOldRows; ++i)
      rows.push_back(
          {Value::Int(i * 2), Value::Int(i), Value::String(std::string(40, 'a' + i % 26)), Value::Int(i % 5)});
    ASSERT_TRUE((*t)->InsertBatch(rows).ok());

    const Altered add = AddColumns(Original());
    ASSERT_TRUE((*db)->AlterColumnsInstantly("shop", "t", add.spec, add.sources, add.fills).ok());
    const Altered drop = DropColumn((*(*db)->GetTable("shop", "t"))->spec(), "a");
    ASSERT_TRUE((*db)->AlterColumnsInstantly("shop", "t", drop.spec, drop.sources, drop.fills).ok());
    Table* table = *(*db)->GetTable("shop", "t");
    EXPECT_EQ(table->spec().row_version, 2);
    ASSERT_EQ(table->spec().columns.size(), 16u);  // id, b, v, g, n0..n11
    const std::size_t n = table->spec().columns.size();

    // Old rows read b = 7 and NULL for the new columns; new rows interleave with them.
    std::vector<Row> fresh;
    for (int i = 0; i < kOldRows; ++i) fresh.push_back(NewRow(i * 2 + 1, n));
    ASSERT_TRUE(table->InsertBatch(fresh).ok());

    // Updates: v the same length (in place, the record keeps version 0), v longer (rebuilt in
    // version 2), b (a field version 0 does not store: rebuilt), a delete.
    auto old_row = [&](int id) {
      auto r = table->Get({Value::Int(id)});
      EXPECT_TRUE(r.ok() && r->has_value()) << id;
      return r.ok() && r->has_value() ? **r : Row{};
    };
    Row same = old_row(0);
    same[2] = Value::String(std::string(40, 'Z'));
    ASSERT_TRUE(table->Update(same).ok());
    Row longer = old_row(2);
    longer[2] = Value::String(std::string(60, 'L'));
    ASSERT_TRUE(table->Update(longer).ok());
    Row with_b = old_row(4);
    with_b[1] = Value::Int(70);
    ASSERT_TRUE(table->Update(with_b).ok());
    ASSERT_TRUE(table->Delete({Value::Int(6)}).ok());

    // A read view from before an update of old rows keeps seeing them; a rolled-back update
    // leaves them as they were.
    const std::vector<std::string> before = Rows(**db);
    auto reader = (*db)->Begin({Isolation::kRepeatableRead, true});
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(Rows(**db, reader->get()), before);
    auto writer = (*db)->Begin();
    ASSERT_TRUE(writer.ok());
    for (int id : {8, 10, 12, 14}) {
      Row r = old_row(id);
      r[1] = Value::Int(-id);
      r[2] = Value::String("rolled back");
      ASSERT_TRUE(table->Update(r, writer->get()).ok());
    }
    ASSERT_TRUE(table->Delete({Value::Int(16)}, writer->get()).ok());
    {
      auto committed = (*db)->Begin();
      ASSERT_TRUE(committed.ok());
      Row r = old_row(18);
      r[5] = Value::String("n1 set");
      ASSERT_TRUE(table->Update(r, committed->get()).ok());
      ASSERT_TRUE((*committed)->Commit().ok());
    }
    EXPECT_EQ(Rows(**db, reader->get()), before);
    ASSERT_TRUE((*writer)->Rollback().ok());
    ASSERT_TRUE((*reader)->Commit().ok());
    ASSERT_TRUE((*db)->Purge().ok());
    expected = Rows(**db);
    EXPECT_EQ(expected.size(), 2u * kOldRows - 1);
    EXPECT_EQ(expected[0], "0\t7\t" + std::string(40, 'Z') +
                               "\t0\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL");
    EXPECT_EQ(expected[1], "1\t3\tnew 1\t1\tn0 of 1\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL");
    EXPECT_EQ(expected[4].substr(0, 5), "4\t70\t");
    EXPECT_EQ(expected[7].substr(0, 17), "8\t7\t" + std::string(13, 'e'));  // rolled back
    EXPECT_TRUE(table->Check().ok());
  }
  auto db = Database::Open(dir, {});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ(Rows(**db), expected);
  auto t = (*db)->GetTable("shop", "t");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((*t)->spec().row_version, 2);
  ASSERT_EQ((*t)->spec().dropped_columns.size(), 1u);
  EXPECT_EQ((*t)->spec().dropped_columns[0].name, "!hidden!_dropped_v2_p3_a");
  // Rows by the secondary index too (its entries never carry a version).
  std::size_t by_g = 0;
  ASSERT_TRUE((*t)->Scan({"ig", {}, false}, [&](const Row&) { return ++by_g, true; }).ok());
  EXPECT_EQ(by_g, expected.size());
  db->reset();
  EXPECT_EQ(InspectedRows(dir / "shop" / "t.ibd"), expected);
}

// A text key in node pointers: their NULL bitmap stays one byte (version 0's one nullable
// column) after twelve nullable columns came, or the key's length would be read from the
// wrong byte.
TEST(InstantAlterTest, NodePointersKeepTheFirstVersionsBitmap) {
  testing::TempDir tmp;
  const auto dir = tmp.path() / "d";
  std::vector<std::string> expected;
  {
    auto db = Database::Open(dir, {});
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
    TableSpec spec{"shop", "t", {NotNull(Col("k", ColumnType::kVarchar, 40)), Col("a", ColumnType::kInt)}, {"k"}, {}};
    auto t = (*db)->CreateTable(spec);
    ASSERT_TRUE(t.ok());
    auto batch = [&](Table& table, int from, std::size_t n_columns) {
      std::vector<Row> rows;
      for (int i = from; i < from + 1500; i += 2) {
        Row r(n_columns, Value::Null());
        r[0] = Value::String(fmt::format("key-{:06}-{}", i, std::string(i % 17, 'x')));
        r[1] = Value::Int(i);
        if (n_columns > 2) r[n_columns - 1] = Value::String("last");
        rows.push_back(std::move(r));
      }
      ASSERT_TRUE(table.InsertBatch(rows).ok());
    };
    batch(**t, 0, 2);
    Altered add{spec, {0, 1}, {Value::Null(), Value::Null()}};
    for (int i = 0; i < 12; ++i) {
      add.spec.columns.push_back(Col("n" + std::to_string(i), ColumnType::kVarchar, 20));
      add.sources.push_back(std::nullopt);
      add.fills.push_back(Value::Null());
    }
    ASSERT_TRUE((*db)->AlterColumnsInstantly("shop", "t", add.spec, add.sources, add.fills).ok());
    Table* table = *(*db)->GetTable("shop", "t");
    batch(*table, 1, 14);  // splits pages: new node pointers
    EXPECT_TRUE(table->Check().ok());
    expected = Rows(**db);
    EXPECT_EQ(expected.size(), 1500u);
  }
  EXPECT_EQ(InspectedRows(dir / "shop" / "t.ibd"), expected);
}

// MySQL's limit: 64 row versions; the 65th instant ALTER changes nothing.
TEST(InstantAlterTest, TheSixtyFifthVersionIsRefused) {
  testing::TempDir tmp;
  auto db = Database::Open(tmp.path() / "d", {});
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->CreateDatabase("shop").ok());
  ASSERT_TRUE((*db)->CreateTable(Original()).ok());
  for (int v = 1; v <= 65; ++v) {
    const TableSpec now = (*(*db)->GetTable("shop", "t"))->spec();
    Altered next = now.columns.size() == 4 ? Altered{now, {0, 1, 2, 3, std::nullopt}, {}} : DropColumn(now, "x");
    if (now.columns.size() == 4) {
      next.spec.columns.push_back(Col("x", ColumnType::kInt));
      next.fills.assign(5, Value::Null());
    }
    Status s = (*db)->AlterColumnsInstantly("shop", "t", next.spec, next.sources, next.fills);
    if (v <= kMaxRowVersion) {
      ASSERT_TRUE(s.ok()) << v << ": " << s.ToString();
    } else {
      EXPECT_EQ(s.code(), Status::Code::kNotSupported) << s.ToString();
      EXPECT_EQ((*(*db)->GetTable("shop", "t"))->spec().row_version, kMaxRowVersion);
    }
  }
}

}  // namespace
}  // namespace strata::engine
