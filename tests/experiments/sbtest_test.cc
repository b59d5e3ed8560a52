// The sbtest table has two written forms: experiments::SbtestSpec (the engine's API) and
// datasets::CreateTableStatement (SQL, for dumps and MariaDB). For every key strategy, the
// table the SQL creates must be the spec, column by column and index by index.
#include "experiments/sbtest.h"

#include <gtest/gtest.h>

#include "datasets/dump_writer.h"
#include "engine/db.h"
#include "tests/util/tsv.h"
#include "sql/session.h"

namespace strata::experiments {
namespace {

TEST(SbtestTest, TheSqlFormCreatesTheSpecForEveryKeyStrategy) {
  for (const datasets::KeyStrategy keys : datasets::AllKeyStrategies()) {
    SCOPED_TRACE(datasets::ToString(keys));
    strata::testing::TempDir dir;
    auto db = engine::Database::Open(dir.path(), {});
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    sql::Session session(**db);
    sql::FirstValueSink ignore;
    datasets::DumpOptions dump;
    dump.keys = keys;
    dump.shape = datasets::TableShape::kSbtest;
    dump.table = "sbtest1";
    for (const std::string& text :
         {std::string("CREATE DATABASE sb"), std::string("USE sb"), CreateTableStatement(dump)}) {
      auto outcome = session.Execute(text, ignore);
      ASSERT_FALSE(outcome.error) << text << ": " << outcome.error->message;
    }
    auto table = (*db)->GetTable("sb", "sbtest1");
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    const engine::TableSpec& made = (*table)->spec();
    SbtestShape shape;
    shape.keys = keys;
    const engine::TableSpec want = SbtestSpec("sb", "sbtest1", shape);
    ASSERT_EQ(made.columns.size(), want.columns.size());
    for (std::size_t i = 0; i < want.columns.size(); ++i) {
      const engine::Column &m = made.columns[i], &w = want.columns[i];
      EXPECT_EQ(m.name, w.name);
      EXPECT_EQ(m.SqlType(), w.SqlType()) << w.name;
      EXPECT_EQ(m.nullable, w.nullable) << w.name;
      EXPECT_EQ(m.auto_increment, w.auto_increment) << w.name;
      EXPECT_EQ(m.charset, w.charset) << w.name;
      EXPECT_EQ(m.default_value.has_value(), w.default_value.has_value()) << w.name;
      if (m.default_value && w.default_value) {
        EXPECT_EQ(m.default_value->ToString(), w.default_value->ToString()) << w.name;
      }
    }
    EXPECT_EQ(made.primary_key, want.primary_key);
    ASSERT_EQ(made.indexes.size(), want.indexes.size());
    EXPECT_EQ(made.indexes[0].name, want.indexes[0].name);
    EXPECT_EQ(made.indexes[0].columns, want.indexes[0].columns);
    EXPECT_EQ(made.indexes[0].unique, want.indexes[0].unique);
  }
}

}  // namespace
}  // namespace strata::experiments
