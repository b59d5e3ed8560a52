// `inspect rows --create-table`'s reading of SQL files: which CREATE TABLE of a dump is the
// table's, and how what does not read is said.
#include <gtest/gtest.h>

#include "inspect/create_table.h"

namespace strata::inspect {
namespace {

// The table `name` of `sql` read as a MySQL file's would be; its first column's SQL type.
ondisk::Result<TableDef> Read(const std::string& sql, const std::string& name) {
  return TableFromCreateTable(sql, name, ondisk::Flavor::kMySql);
}

TEST(CreateTableFileTest, ATableIsFoundByExactNameThenByCaseThenByDatabase) {
  const std::string dump =
      "CREATE DATABASE a;\nUSE `a`;\nCREATE TABLE `UQ` (x INT);\nCREATE TABLE `uq` (y BIGINT);\n"
      "USE b;\nCREATE TABLE uq (z SMALLINT);\nCREATE TABLE c.uq (w TINYINT);\n";
  auto first_column = [&](const std::string& name) {
    auto t = Read(dump, name);
    return t.ok() ? t->columns.at(0).name : t.status().message();
  };
  EXPECT_EQ(first_column("uq"), "y");  // written exactly so, though `UQ` comes first
  EXPECT_EQ(first_column("UQ"), "x");
  EXPECT_EQ(first_column("Uq"), "x");    // none written so: the first that differs only in case
  EXPECT_EQ(first_column("b.uq"), "z");  // by the USE before it
  EXPECT_EQ(first_column("c.uq"), "w");  // by its own name
  auto missing = Read(dump, "d.uq");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsNotFound()) << missing.status().message();
  EXPECT_NE(missing.status().message().find("'d.uq'"), std::string::npos);
}

TEST(CreateTableFileTest, MariadbsOwnVersionedCommentsAreReadWhateverTheFlavour) {
  // A MariaDB file's flavour is not always known; a MySQL dump never has /*M!...*/.
  auto t = Read("CREATE TABLE t (id INT PRIMARY KEY, c VARCHAR(500) /*M!100301 COMPRESSED*/);", "t");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->columns.at(1).format.type, ondisk::ColumnType::kUnknown);  // said, not zlib bytes shown
}

TEST(CreateTableFileTest, WhatDoesNotReadIsNamedWithItsLine) {
  auto cut = Read("-- a dump\n\nCREATE TABLE t (\n  id INT,\n  v VARCHAR(3) NOT NULL DEFALT 'x'\n);", "t");
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("line 5: "), std::string::npos) << cut.status().message();
  EXPECT_NE(cut.status().message().find("near 'DEFALT"), std::string::npos) << cut.status().message();
  auto nul = Read(std::string("CREATE TABLE t (id INT") + '\0' + ");", "t");
  ASSERT_FALSE(nul.ok());
  EXPECT_NE(nul.status().message().find("NUL byte"), std::string::npos) << nul.status().message();
  auto like = Read("CREATE TABLE t LIKE s;", "t");
  ASSERT_FALSE(like.ok());
  EXPECT_NE(like.status().message().find("copies another table"), std::string::npos);
}

}  // namespace
}  // namespace strata::inspect
