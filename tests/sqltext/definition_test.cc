// The definition grammar both SQL readers share (sql/'s CREATE TABLE, inspect's
// --create-table): what it reads from the shapes dumps and people write, what it refuses with
// the server's error, and the record layout a real server gives each column.
#include <gtest/gtest.h>

#include "sqltext/column_layout.h"
#include "sqltext/definition.h"

namespace strata::sqltext {
namespace {

// `sql` after CREATE TABLE, read; or the error it throws.
struct Read {
  TableText table;
  std::optional<SqlError> error;
};

Read ReadTable(const std::string& sql, Dialect dialect = {}) {
  Lexed lexed = Lex(sql, dialect);
  EXPECT_TRUE(lexed.ok) << lexed.error.message;
  Cursor c(sql, std::move(lexed.tokens));
  c.ExpectWord("CREATE");
  c.ExpectWord("TABLE");
  Read r;
  try {
    r.table = ReadCreateTable(c, false);
  } catch (const Failure& f) {
    r.error = f.error;
  }
  return r;
}

TEST(DefinitionGrammarTest, SynonymsReadAsTheServersOwnTypes) {
  Read r = ReadTable(
      "CREATE TABLE t (a INTEGER, b BOOL, c NUMERIC(5,2), d REAL, e DOUBLE PRECISION, f FLOAT(30), g FLOAT(10), "
      "h CHARACTER VARYING(9), i NATIONAL CHAR(3), j LONG, k LONG VARBINARY, l INT8, n FLOAT4, o FLOAT8, "
      "p NCHAR VARCHAR(6), m SERIAL)");
  ASSERT_FALSE(r.error) << r.error->message;
  std::vector<std::string> names;
  for (const ColumnText& c : r.table.columns) names.push_back(c.type.name);
  EXPECT_EQ(names, (std::vector<std::string>{"INT", "TINYINT", "DECIMAL", "DOUBLE", "DOUBLE", "DOUBLE", "FLOAT",
                                             "VARCHAR", "CHAR", "MEDIUMTEXT", "MEDIUMBLOB", "BIGINT", "FLOAT", "DOUBLE",
                                             "VARCHAR", "BIGINT"}));
  EXPECT_EQ(r.table.columns[1].type.args, (std::vector<std::string>{"1"}));  // BOOL is tinyint(1)
  EXPECT_TRUE(r.table.columns[5].type.args.empty());                         // FLOAT(p) keeps no (M,D)
  const ColumnText& serial = r.table.columns.back();
  EXPECT_TRUE(serial.type.is_unsigned && serial.auto_increment && serial.unique_key && !serial.nullable);
}

TEST(DefinitionGrammarTest, CharacterSetShorthandsAndStringsInParts) {
  Read r = ReadTable(
      "CREATE TABLE t (a CHAR(3) ASCII, b CHAR(3) UNICODE, c CHAR(3) BYTE, d VARCHAR(3) CHARACTER SET latin1 BINARY, "
      "e VARCHAR(5) DEFAULT 'a' 'b' NOT NULL, f VARBINARY(4) DEFAULT _binary 0x41)");
  ASSERT_FALSE(r.error) << r.error->message;
  const auto& cols = r.table.columns;
  EXPECT_EQ(cols[0].type.charset, "latin1");
  EXPECT_EQ(cols[1].type.charset, "ucs2");
  EXPECT_EQ(cols[2].type.charset, "binary");
  EXPECT_TRUE(cols[3].type.binary);
  EXPECT_EQ(cols[4].default_value.end - cols[4].default_value.begin, 2u);
  EXPECT_FALSE(cols[4].nullable);
  EXPECT_EQ(cols[5].default_value.end - cols[5].default_value.begin, 2u);
}

TEST(DefinitionGrammarTest, AttributesInAnyOrderAndDefaultsAsTokenRanges) {
  const std::string sql =
      "CREATE TABLE t (id INT UNSIGNED ZEROFILL NOT NULL AUTO_INCREMENT COMMENT 'key' PRIMARY KEY, "
      "s VARCHAR(10) COLLATE utf8mb4_bin NOT NULL DEFAULT _utf8mb4'x' CHARACTER SET utf8mb4, "
      "n DECIMAL(6,2) DEFAULT -1.5, f BIT(3) DEFAULT b'101', d DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE "
      "NOW(3), g INT AS (id + 1) STORED, v INT GENERATED ALWAYS AS (id * 2), "
      "c INT CHECK (c > 0), e DATE DEFAULT (CURRENT_DATE + INTERVAL 1 DAY) INVISIBLE)";
  Read r = ReadTable(sql);
  ASSERT_FALSE(r.error) << r.error->message;
  const auto& cols = r.table.columns;
  ASSERT_EQ(cols.size(), 9u);
  EXPECT_TRUE(cols[0].type.zerofill && cols[0].type.is_unsigned && cols[0].primary_key && !cols[0].nullable);
  EXPECT_EQ(cols[0].comment, "key");
  EXPECT_EQ(cols[1].type.collation, "utf8mb4_bin");
  EXPECT_EQ(cols[1].type.charset, "utf8mb4");
  EXPECT_EQ(cols[1].default_value.end - cols[1].default_value.begin, 2u);  // _utf8mb4 'x'
  EXPECT_EQ(cols[2].default_value.end - cols[2].default_value.begin, 2u);  // - 1.5
  EXPECT_EQ(cols[3].default_value.end - cols[3].default_value.begin, 1u);  // b'101', one literal
  EXPECT_TRUE(cols[4].default_now && cols[4].on_update_now && cols[4].default_value.empty());
  EXPECT_EQ(cols[5].generated, ColumnText::Generated::kStored);
  EXPECT_EQ(cols[6].generated, ColumnText::Generated::kVirtual);
  EXPECT_EQ(cols[7].constraints, (std::vector<std::string>{"CHECK (c > 0)"}));
  EXPECT_TRUE(cols[8].invisible);
  EXPECT_FALSE(cols[8].default_value.empty());
  ASSERT_EQ(r.table.keys.size(), 1u);
  EXPECT_EQ(r.table.keys[0].kind, KeyText::Kind::kPrimary);
}

TEST(DefinitionGrammarTest, KeysOfEveryKindAndTheNamesTheServerGivesThem) {
  Read r = ReadTable(
      "CREATE TABLE t (a INT, b VARCHAR(20), c TEXT, UNIQUE (a), KEY (a, b(4) DESC), INDEX USING BTREE (b), "
      "CONSTRAINT fk FOREIGN KEY (a) REFERENCES p (id) ON DELETE CASCADE, FULLTEXT KEY ft (c), "
      "CONSTRAINT named UNIQUE (b), KEY ((a + 1)), CONSTRAINT ck CHECK (a > 0)) ENGINE=InnoDB AUTO_INCREMENT=7 "
      "DEFAULT CHARSET=latin1 COLLATE=latin1_bin ROW_FORMAT=DYNAMIC COMMENT='x'");
  ASSERT_FALSE(r.error) << r.error->message;
  NameUnnamedKeys(r.table.keys);
  std::vector<std::string> names;
  for (const KeyText& k : r.table.keys) names.push_back(k.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "a_2", "b", "fk", "ft", "named", "", "ck"}));
  EXPECT_EQ(r.table.keys[1].parts[1].prefix, 4u);
  EXPECT_TRUE(r.table.keys[1].parts[1].descending);
  EXPECT_EQ(r.table.keys[3].kind, KeyText::Kind::kForeign);
  EXPECT_EQ(r.table.keys[3].text, "CONSTRAINT `fk` FOREIGN KEY (a) REFERENCES p (id) ON DELETE CASCADE");
  EXPECT_EQ(r.table.keys[4].kind, KeyText::Kind::kFulltext);
  EXPECT_TRUE(r.table.keys[6].functional());
  EXPECT_EQ(r.table.keys[7].kind, KeyText::Kind::kCheck);
  const TableOptions& o = r.table.options;
  EXPECT_EQ(o.engine, "InnoDB");
  EXPECT_EQ(o.auto_increment, 7u);
  EXPECT_EQ(o.charset, "latin1");
  EXPECT_EQ(o.collation, "latin1_bin");
  EXPECT_EQ(o.row_format, "DYNAMIC");
  EXPECT_EQ(o.comment, "x");
}

TEST(DefinitionGrammarTest, RefusesWhatTheServerRefusesWithItsError) {
  const std::pair<const char*, unsigned> kRefused[] = {
      {"CREATE TABLE t (a INT(256))", 1439},      {"CREATE TABLE t (a FLOAT(54))", 1063},
      {"CREATE TABLE t (a DOUBLE(300,2))", 1439}, {"CREATE TABLE t (a DOUBLE(10,31))", 1427},
      {"CREATE TABLE t (a DOUBLE(40,31))", 1425}, {"CREATE TABLE t (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))", 1068},
      {"CREATE TABLE t (a VARCHAR)", 1064},       {"CREATE TABLE t (a DOUBLE(5))", 1064},
      {"CREATE TABLE t (a DATE ZEROFILL)", 1064}, {"CREATE TABLE t (a INT,)", 1064},
      {"CREATE TABLE t (a INT) SELECT 1", 1235},
  };
  for (const auto& [sql, code] : kRefused) {
    Read r = ReadTable(sql);
    ASSERT_TRUE(r.error) << sql;
    EXPECT_EQ(r.error->code, code) << sql << ": " << r.error->message;
  }
}

TEST(DefinitionGrammarTest, LikePartitionsAndMariadbVersionedComments) {
  Read like = ReadTable("CREATE TABLE t LIKE db.s");
  ASSERT_FALSE(like.error);
  EXPECT_EQ(like.table.like, "db.s");
  Read part = ReadTable("CREATE TABLE t (a INT) /*!50100 PARTITION BY HASH (a) PARTITIONS 4 */");
  ASSERT_FALSE(part.error);
  EXPECT_TRUE(part.table.options.partitioned);
  // MariaDB writes column compression in its own versioned comment: code to MariaDB only.
  const std::string compressed = "CREATE TABLE t (b BLOB /*M!100301 COMPRESSED*/)";
  EXPECT_FALSE(ReadTable(compressed).table.columns[0].type.compressed);
  EXPECT_TRUE(ReadTable(compressed, {~0ull, true}).table.columns[0].type.compressed);
}

ColumnLayout LayoutOfColumn(const std::string& sql, ondisk::Flavor flavor = ondisk::Flavor::kMySql) {
  Read r = ReadTable(sql);
  EXPECT_FALSE(r.error) << r.error->message;
  auto layout = LayoutOf(r.table.columns.at(0), r.table.options, flavor);
  EXPECT_TRUE(layout.ok()) << layout.status().message();
  return layout.ok() ? *layout : ColumnLayout{};
}

TEST(ColumnLayoutTest, CharactersWidthDecidesFixedOrVariableStorage) {
  // CHAR in a set of varying width is stored with a length; in a fixed one, at full width.
  EXPECT_TRUE(LayoutOfColumn("CREATE TABLE t (c CHAR(10))").field.is_variable());
  ColumnLayout latin1 = LayoutOfColumn("CREATE TABLE t (c CHAR(10)) DEFAULT CHARSET=latin1");
  EXPECT_FALSE(latin1.field.is_variable());
  EXPECT_EQ(latin1.field.fixed_length, 10u);
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c CHAR(10) CHARACTER SET ucs2)").field.fixed_length, 20u);
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c VARCHAR(10) COLLATE utf8mb3_general_ci)").field.max_length, 30u);
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c VARCHAR(10) CHARACTER SET utf8)").field.max_length, 30u);
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c VARCHAR(10) CHARACTER SET koi8r)").field.max_length, 10u);
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c DECIMAL(10,2) UNSIGNED)").sql_type, "decimal(10,2) unsigned");
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c INTEGER(11))").sql_type, "int(11)");
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c DATETIME(6))").field.fixed_length, 8u);
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c JSON)").format.type, ondisk::ColumnType::kJson);
  EXPECT_EQ(LayoutOfColumn("CREATE TABLE t (c JSON)", ondisk::Flavor::kMariaDb).format.type,
            ondisk::ColumnType::kVarchar);  // MariaDB's JSON is LONGTEXT
}

TEST(ColumnLayoutTest, AnUnknownTypeOrCharsetIsNamed) {
  for (const char* sql : {"CREATE TABLE t (c FOO)", "CREATE TABLE t (c VARCHAR(3) CHARACTER SET nosuch)"}) {
    Read r = ReadTable(sql);
    ASSERT_FALSE(r.error);
    auto layout = LayoutOf(r.table.columns[0], r.table.options, ondisk::Flavor::kMySql);
    ASSERT_FALSE(layout.ok());
    EXPECT_NE(layout.status().message().find(std::string(sql).find("FOO") != std::string::npos ? "foo" : "nosuch"),
              std::string::npos)
        << layout.status().message();
  }
}

}  // namespace
}  // namespace strata::sqltext
