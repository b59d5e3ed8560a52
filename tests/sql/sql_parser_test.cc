// The SQL parser: every statement form the front end takes, and its errors.
#include <gtest/gtest.h>

#include <deque>

#include "sqltext/lexer.h"
#include "sql/expr_text.h"
#include "sql/parser.h"

namespace strata::sql {
namespace {

// The statement parsed, kept alive for the whole test run so that references to it stay valid.
template <typename T>
const T& As(Parsed parsed) {
  static std::deque<Parsed> kept;
  const Parsed& p = kept.emplace_back(std::move(parsed));
  EXPECT_FALSE(p.error) << p.error->message;
  EXPECT_TRUE(p.statement.has_value());
  EXPECT_TRUE(std::holds_alternative<T>(*p.statement));
  return std::get<T>(*p.statement);
}

TEST(SqlLexerTest, DecodesStringEscapesHexAndIntroducers) {
  Lexed l = Lex(R"(SELECT 'it''s \'a\'\n\t\0\\\Z\%', "dq", 0x4142, X'4344', `we``ird`, @v, @@global.autocommit)");
  ASSERT_TRUE(l.ok);
  EXPECT_EQ(l.tokens[1].text, std::string("it's 'a'\n\t\0\\\x1a\\%", 15));
  EXPECT_EQ(l.tokens[3].text, "dq");
  EXPECT_EQ(l.tokens[5].kind, TokenKind::kHex);
  EXPECT_EQ(l.tokens[5].text, "AB");
  EXPECT_EQ(l.tokens[7].text, "CD");
  EXPECT_EQ(l.tokens[9].kind, TokenKind::kQuotedName);
  EXPECT_EQ(l.tokens[9].text, "we`ird");
  EXPECT_EQ(l.tokens[11].kind, TokenKind::kUserVar);
  EXPECT_EQ(l.tokens[13].kind, TokenKind::kSystemVar);
}

TEST(SqlLexerTest, VersionedCommentsAreCodeUpToOurVersionAndMariadbOnesAreComments) {
  Lexed l = Lex("/*!40101 SET x=1 */ /*!90000 SET y=2 */ /*M!100616 SET z=3 */ /* plain */ -- line\n# hash\n");
  ASSERT_TRUE(l.ok);
  ASSERT_EQ(l.tokens.size(), 5u);  // SET x = 1 <end>
  EXPECT_TRUE(l.tokens[1].IsWord("x"));
}

TEST(SqlLexerTest, KeepsOptimizerHintsAside) {
  Lexed l = Lex("UPDATE /*+ GROUP_COMMIT(TRUE) */ t SET k=k+1");
  ASSERT_TRUE(l.ok);
  ASSERT_EQ(l.hints.size(), 1u);
  EXPECT_EQ(l.hints[0], " GROUP_COMMIT(TRUE) ");
}

TEST(SqlLexerTest, UnterminatedStringIsAnError) {
  Lexed l = Lex("SELECT 'abc");
  EXPECT_FALSE(l.ok);
  EXPECT_EQ(l.error.offset, 7u);
}

TEST(SqlParserTest, CreateTableWithTypesKeysAndOptions) {
  Parsed p = Parse(
      "CREATE TABLE IF NOT EXISTS `shop`.`orders` (\n"
      "  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,\n"
      "  `k` int(11) NOT NULL DEFAULT '0',\n"
      "  `price` decimal(10,2) DEFAULT -1.50,\n"
      "  `name` varchar(45) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,\n"
      "  `code` char(4) NOT NULL,\n"
      "  `uuid` binary(16) NOT NULL,\n"
      "  `f` float, `d` double precision, `day` date, `at` datetime(6), `ts` timestamp NOT NULL DEFAULT "
      "CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
      "  `body` mediumtext, `blob` longblob, `flag` boolean,\n"
      "  PRIMARY KEY (`id`),\n"
      "  UNIQUE KEY `uk_code` (`code`),\n"
      "  KEY `k_k` (`k`,`name`) USING BTREE,\n"
      "  INDEX (`day`)\n"
      ") ENGINE=InnoDB AUTO_INCREMENT=42 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci ROW_FORMAT=DYNAMIC "
      "COMMENT='x'");
  const auto& c = As<CreateTable>(std::move(p));
  EXPECT_TRUE(c.if_not_exists);
  EXPECT_EQ(c.table.database, "shop");
  EXPECT_EQ(c.table.name, "orders");
  ASSERT_EQ(c.spec.columns.size(), 14u);
  const Column& id = c.spec.columns[0];
  EXPECT_EQ(id.type, ColumnType::kBigInt);
  EXPECT_TRUE(id.is_unsigned);
  EXPECT_FALSE(id.nullable);
  EXPECT_TRUE(id.auto_increment);
  EXPECT_EQ(c.spec.columns[1].default_value, Value::String("0"));
  EXPECT_EQ(c.spec.columns[2].type, ColumnType::kDecimal);
  EXPECT_EQ(c.spec.columns[2].length, 10u);
  EXPECT_EQ(c.spec.columns[2].scale, 2u);
  EXPECT_EQ(c.spec.columns[2].default_value, Value::String("-1.50"));
  EXPECT_EQ(c.spec.columns[3].charset, Charset::kLatin1);
  EXPECT_EQ(c.spec.columns[4].type, ColumnType::kChar);
  EXPECT_EQ(c.spec.columns[4].charset, Charset::kUtf8mb4);  // the table's default
  EXPECT_EQ(c.spec.columns[5].charset, Charset::kBinary);
  EXPECT_EQ(c.spec.columns[8].type, ColumnType::kDate);
  EXPECT_EQ(c.spec.columns[9].scale, 6u);
  EXPECT_TRUE(c.default_now[10]);
  EXPECT_EQ(c.spec.columns[12].type, ColumnType::kLongBlob);
  EXPECT_EQ(c.spec.columns[13].type, ColumnType::kTinyInt);
  EXPECT_EQ(c.spec.primary_key, std::vector<std::string>{"id"});
  ASSERT_EQ(c.spec.indexes.size(), 3u);
  EXPECT_TRUE(c.spec.indexes[0].unique);
  EXPECT_EQ(c.spec.indexes[1].columns, (std::vector<std::string>{"k", "name"}));
  EXPECT_EQ(c.spec.indexes[2].name, "day");  // unnamed keys are named after their first column
  EXPECT_EQ(c.spec.auto_increment, 42u);
}

TEST(SqlParserTest, InlinePrimaryKeyAndUnsupportedTypesAndKeys) {
  const auto& c =
      As<CreateTable>(Parse("CREATE TABLE t (id char(36) NOT NULL PRIMARY KEY, v varchar(300), KEY k_v (v(16)))"));
  EXPECT_EQ(c.spec.primary_key, std::vector<std::string>{"id"});
  EXPECT_EQ(c.spec.indexes[0].columns, std::vector<std::string>{"v"});  // prefix indexed whole
  EXPECT_FALSE(c.ignored.empty());
  Parsed e = Parse("CREATE TABLE t (id int, v vector(3))");
  ASSERT_TRUE(e.error);
  EXPECT_EQ(e.error->code, 1235u);
  EXPECT_NE(e.error->message.find("VECTOR"), std::string::npos);
  Parsed u = Parse("CREATE TABLE t (v varchar(30), UNIQUE KEY (v(4)))");
  ASSERT_TRUE(u.error);
  EXPECT_EQ(u.error->code, 1235u);
}

// The grammar sqltext/ shares with inspect's --create-table: synonyms and forms the server
// accepts arrive as the engine's columns; what the engine cannot keep is refused by name.
TEST(SqlParserTest, SharedDefinitionGrammarReachesTheEngine) {
  const auto& c = As<CreateTable>(
      Parse("CREATE TABLE t (id SERIAL, n NUMERIC(7,2), d DOUBLE PRECISION, v CHARACTER VARYING(9) BINARY, "
            "b BOOL DEFAULT -1, l LONG)"));
  const auto& cols = c.spec.columns;
  ASSERT_EQ(cols.size(), 6u);
  EXPECT_EQ(cols[0].type, ColumnType::kBigInt);
  EXPECT_TRUE(cols[0].is_unsigned && cols[0].auto_increment && !cols[0].nullable);
  ASSERT_EQ(c.spec.indexes.size(), 1u);  // SERIAL's UNIQUE
  EXPECT_TRUE(c.spec.indexes[0].unique);
  EXPECT_EQ(c.spec.indexes[0].name, "id");
  EXPECT_EQ(cols[1].type, ColumnType::kDecimal);
  EXPECT_EQ(cols[1].length, 7u);
  EXPECT_EQ(cols[2].type, ColumnType::kDouble);
  EXPECT_EQ(cols[3].type, ColumnType::kVarchar);
  EXPECT_TRUE(cols[3].binary_collation);  // BINARY: its charset's _bin collation
  EXPECT_EQ(cols[4].type, ColumnType::kTinyInt);
  ASSERT_TRUE(cols[4].default_value);
  EXPECT_EQ(cols[4].default_value->as_int(), -1);
  EXPECT_EQ(cols[5].type, ColumnType::kMediumText);
  // What the engine does not keep is said, in the column's own spelling.
  const auto& w = As<CreateTable>(
      Parse("CREATE TABLE t (Id SERIAL PRIMARY KEY, Bl BLOB(70000) COMPRESSED, Tx TEXT(100), In1 INT INVISIBLE "
            "CHECK (In1 > 0), KEY k (In1 DESC))"));
  EXPECT_EQ(w.spec.indexes.size(), 1u);  // SERIAL's UNIQUE repeats the PRIMARY KEY: dropped, as MariaDB does
  EXPECT_EQ(w.spec.columns[1].type, ColumnType::kMediumBlob);  // BLOB(n): the smallest that holds n bytes
  EXPECT_EQ(w.spec.columns[2].type, ColumnType::kText);        // TEXT(100): 400 bytes of utf8mb4
  for (const std::string said :
       {"COMPRESSED of `Bl` (its values are stored uncompressed)", "INVISIBLE of `In1` (SELECT * shows it here)",
        "CHECK on `In1`", "DESC in KEY `k` (indexes are ascending here)"}) {
    EXPECT_NE(std::find(w.ignored.begin(), w.ignored.end(), said), w.ignored.end()) << said;
  }
  // A character set kept as a wider one is said: what it lets through is not the server's.
  const auto& wide =
      As<CreateTable>(Parse("CREATE TABLE t (a VARCHAR(3), b CHAR(1) CHARACTER SET ascii) DEFAULT CHARSET=utf8"));
  EXPECT_EQ(wide.ignored,
            (std::vector<std::string>{
                "CHARACTER SET utf8mb3 of `a` (stored as utf8mb4 here: characters of 4 bytes are accepted)",
                "CHARACTER SET ascii of `b` (stored as latin1 here: latin1's characters are accepted)"}));
  EXPECT_EQ(As<CreateDatabase>(Parse("CREATE DATABASE d CHARACTER SET latin1")).ignored.size(), 1u);
  Parsed koi8r = Parse("CREATE TABLE t (a VARCHAR(3) CHARACTER SET koi8r)");
  ASSERT_TRUE(koi8r.error);
  EXPECT_EQ(koi8r.error->code, 1235u);  // a character set the server has, not one the engine stores
  EXPECT_EQ(Parse("CREATE TABLE t (a VARCHAR(3) CHARACTER SET nosuch)").error->code, 1115u);
  for (const char* refused : {"CREATE TABLE t (a INT, g INT AS (a + 1))", "CREATE TABLE t (a INT DEFAULT (1 + 1))",
                              "CREATE TABLE t (v VECTOR(3))", "CREATE TABLE t (a INT) PARTITION BY HASH (a)"}) {
    Parsed p = Parse(refused);
    ASSERT_TRUE(p.error) << refused;
    EXPECT_EQ(p.error->code, 1235u) << refused << ": " << p.error->message;
  }
}

// CREATE TABLE ... SELECT in each of its shapes: the SELECT after the name, after AS, after the
// columns or the options, with IGNORE or REPLACE.
TEST(SqlParserTest, CreateTableSelectInEachShape) {
  EXPECT_EQ(As<CreateTable>(Parse("CREATE TABLE t AS SELECT 1")).select->items.size(), 1u);
  EXPECT_TRUE(As<CreateTable>(Parse("CREATE TABLE t SELECT a, b FROM s")).select->from);
  const CreateTable& c = As<CreateTable>(Parse("CREATE TABLE t (a INT, KEY (a)) ENGINE=InnoDB IGNORE SELECT a FROM s"));
  EXPECT_TRUE(c.select_ignore);
  EXPECT_EQ(c.spec.columns.size(), 1u);
  EXPECT_TRUE(As<CreateTable>(Parse("CREATE TABLE t ENGINE=InnoDB REPLACE AS SELECT 1")).select_replace);
  EXPECT_EQ(Parse("CREATE TABLE t AS UPDATE s SET a = 1").error->code, 1064u);
}

TEST(SqlParserTest, DatabasesUseDropAndIndexes) {
  EXPECT_EQ(As<CreateDatabase>(
                Parse("CREATE DATABASE /*!32312 IF NOT EXISTS*/ `db` /*!40100 DEFAULT CHARACTER SET utf8mb4 */"))
                .name,
            "db");
  EXPECT_TRUE(As<CreateDatabase>(Parse("CREATE SCHEMA IF NOT EXISTS db")).if_not_exists);
  EXPECT_TRUE(As<DropDatabase>(Parse("DROP DATABASE IF EXISTS db")).if_exists);
  EXPECT_EQ(As<Use>(Parse("USE `db`;")).name, "db");
  const auto& d = As<DropTable>(Parse("DROP TABLE IF EXISTS a, db.b"));
  EXPECT_TRUE(d.if_exists);
  ASSERT_EQ(d.tables.size(), 2u);
  EXPECT_EQ(d.tables[1].database, "db");
  const auto& ci = As<CreateIndex>(Parse("CREATE UNIQUE INDEX uk ON t (a, b)"));
  EXPECT_TRUE(ci.index.unique);
  EXPECT_EQ(ci.index.columns.size(), 2u);
}

TEST(SqlParserTest, InsertFormsKeepLiteralsAsWritten) {
  const auto& i =
      As<Insert>(Parse("INSERT IGNORE INTO `t` (`a`,`b`,`c`,`d`) VALUES (1,'x',NULL,-5),(18446744073709551615,_binary "
                       "'b\\0',0xFF,12.50),"
                       "(DEFAULT,1.5e3,-0.25,X'00')"));
  EXPECT_TRUE(i.ignore);
  EXPECT_EQ(i.columns.size(), 4u);
  ASSERT_EQ(i.rows.size(), 3u);
  EXPECT_EQ(i.rows[0][3]->value, Value::Int(-5));
  EXPECT_EQ(i.rows[1][0]->value, Value::UInt(18446744073709551615ull));
  EXPECT_EQ(i.rows[1][1]->literal_kind, LiteralKind::kBinary);
  EXPECT_EQ(i.rows[1][1]->value, Value::String(std::string("b\0", 2)));
  EXPECT_EQ(i.rows[1][3]->literal_kind, LiteralKind::kDecimal);
  EXPECT_EQ(i.rows[1][3]->value, Value::String("12.50"));
  EXPECT_EQ(i.rows[2][0]->kind, Expr::Kind::kDefault);
  EXPECT_EQ(i.rows[2][1]->value, Value::Double(1500));
  EXPECT_EQ(i.rows[2][2]->value, Value::String("-0.25"));
  EXPECT_TRUE(As<Insert>(Parse("REPLACE INTO t VALUES (1)")).replace);
  const auto& set = As<Insert>(Parse("INSERT INTO t SET a = 1, b = UUID()"));
  EXPECT_EQ(set.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(As<Insert>(Parse("INSERT INTO t SELECT * FROM u")).select);
  EXPECT_TRUE(As<Insert>(Parse("INSERT INTO t (a) (SELECT b FROM u) ON DUPLICATE KEY UPDATE a = a + 1")).select);
  const auto& upsert =
      As<Insert>(Parse("INSERT INTO t VALUES (1) AS n (x) ON DUPLICATE KEY UPDATE a = VALUES(a), b = n.x"));
  ASSERT_EQ(upsert.on_duplicate.size(), 2u);
  EXPECT_EQ(upsert.on_duplicate[0].value->table, kInsertedRow);  // VALUES(a): the wanted row's a
  EXPECT_EQ(upsert.on_duplicate[1].value->table, "n");
  EXPECT_EQ(upsert.alias, "n");
  EXPECT_EQ(upsert.alias_columns, std::vector<std::string>{"x"});
}

TEST(SqlParserTest, AlterTableChangesInOrder) {
  const auto& a = As<AlterTable>(Parse(
      "ALTER TABLE t ADD COLUMN c INT NOT NULL DEFAULT 3 AFTER b, DROP COLUMN IF EXISTS d, MODIFY e VARCHAR(5) FIRST, "
      "CHANGE f g BIGINT, RENAME COLUMN h TO i, ADD UNIQUE KEY u (c), DROP INDEX k, DROP PRIMARY KEY, "
      "ADD PRIMARY KEY (c), RENAME INDEX u TO v, ALTER c SET DEFAULT 4, ALTER g DROP DEFAULT, "
      "CONVERT TO CHARACTER SET latin1, ENGINE=InnoDB, AUTO_INCREMENT=9, ALGORITHM=COPY, LOCK=NONE, RENAME TO s.w"));
  using K = AlterTable::Change::Kind;
  std::vector<K> kinds;
  for (const auto& c : a.changes) kinds.push_back(c.kind);
  EXPECT_EQ(kinds, (std::vector<K>{K::kAddColumn, K::kDropColumn, K::kChangeColumn, K::kChangeColumn, K::kRenameColumn,
                                   K::kAddIndex, K::kDropIndex, K::kDropPrimaryKey, K::kAddPrimaryKey, K::kRenameIndex,
                                   K::kSetDefault, K::kDropDefault, K::kConvertCharset}));
  EXPECT_EQ(a.changes[0].after, "b");
  EXPECT_TRUE(a.changes[1].if_exists);
  EXPECT_TRUE(a.changes[2].first);
  EXPECT_EQ(a.changes[3].name, "f");
  EXPECT_EQ(a.definitions.spec.columns[a.changes[3].definition].name, "g");
  EXPECT_EQ(a.changes[10].value, Value::Int(4));
  EXPECT_TRUE(a.rebuild);
  EXPECT_EQ(a.auto_increment, 9u);
  EXPECT_EQ(a.algorithm, "COPY");
  ASSERT_TRUE(a.rename_to);
  EXPECT_EQ(a.rename_to->database, "s");
  EXPECT_TRUE(std::holds_alternative<NoOp>(*Parse("ALTER TABLE t DISABLE KEYS").statement));
  EXPECT_EQ(As<RenameTable>(Parse("RENAME TABLE a TO b, c.d TO e")).renames.size(), 2u);
  EXPECT_EQ(As<Truncate>(Parse("TRUNCATE TABLE x")).table.name, "x");
  EXPECT_EQ(As<Savepoint>(Parse("ROLLBACK WORK TO SAVEPOINT s1")).kind, Savepoint::Kind::kRollbackTo);
  EXPECT_EQ(As<Savepoint>(Parse("RELEASE SAVEPOINT s1")).kind, Savepoint::Kind::kRelease);
  for (const char* refused : {"ALTER TABLE t ORDER BY a", "ALTER TABLE t ADD PARTITION (PARTITION p1)",
                              "ALTER TABLE t DISCARD TABLESPACE", "ALTER TABLE t ADD COLUMN IF NOT EXISTS a INT"}) {
    Parsed p = Parse(refused);
    ASSERT_TRUE(p.error) << refused;
    EXPECT_EQ(p.error->code, 1235u) << refused << ": " << p.error->message;
  }
  EXPECT_EQ(Parse("ALTER TABLE t ADD").error->code, 1064u);
}

TEST(SqlParserTest, UpdateDeleteAndSelectClauses) {
  const auto& u = As<Update>(Parse("UPDATE sbtest1 SET k=k+1, c=CONCAT(c,'x') WHERE id=1 ORDER BY id DESC LIMIT 5"));
  EXPECT_EQ(u.set.size(), 2u);
  EXPECT_EQ(u.set[0].value->op, "+");
  EXPECT_EQ(u.where->op, "=");
  EXPECT_TRUE(u.order_by[0].descending);
  EXPECT_EQ(u.limit, 5u);
  const auto& d = As<Delete>(Parse("DELETE FROM t WHERE a BETWEEN 1 AND 5 OR b IN ('x','y') AND c IS NOT NULL"));
  EXPECT_EQ(d.where->op, "OR");  // AND binds tighter
  const auto& s =
      As<Select>(Parse("SELECT a, b AS bee, COUNT(*), HEX(c) h FROM db.t WHERE NOT a <> 3 AND b LIKE 'x%' ORDER BY 1, "
                       "b DESC LIMIT 10, 20 FOR UPDATE"));
  ASSERT_EQ(s.items.size(), 4u);
  EXPECT_EQ(s.items[1].alias, "bee");
  EXPECT_TRUE(s.items[2].expr->star);
  EXPECT_EQ(s.items[2].text, "COUNT(*)");
  EXPECT_EQ(s.items[3].alias, "h");
  EXPECT_EQ(s.from->database, "db");
  EXPECT_EQ(s.offset, 10u);
  EXPECT_EQ(s.limit, 20u);
  EXPECT_EQ(s.lock, RowLock::kExclusive);
  EXPECT_EQ(As<Select>(Parse("SELECT * FROM t LIMIT 3 OFFSET 4 LOCK IN SHARE MODE")).lock, RowLock::kShared);
  EXPECT_EQ(As<Select>(Parse("SELECT * FROM t FOR SHARE")).lock, RowLock::kShared);
  EXPECT_FALSE(As<Select>(Parse("SELECT 1 + 2 * 3, @@autocommit, @x")).from);
  const auto& grouped =
      As<Select>(Parse("SELECT DISTINCT a, COUNT(DISTINCT b, c) FROM t GROUP BY a DESC, 2 HAVING n > 1"));
  EXPECT_TRUE(grouped.distinct);
  EXPECT_TRUE(grouped.items[1].expr->distinct);
  ASSERT_EQ(grouped.group_by.size(), 2u);
  EXPECT_TRUE(grouped.group_by[0].descending);
  EXPECT_TRUE(grouped.having);
  EXPECT_TRUE(As<Select>(Parse("SELECT a FROM t GROUP BY a WITH ROLLUP")).rollup);
  EXPECT_EQ(Parse("SELECT CONCAT(DISTINCT a) FROM t").error->code, 1064u);
  EXPECT_EQ(Parse("SELECT * FROM t JOIN u").error->code, 1235u);
}

TEST(SqlParserTest, TransactionsSetAndAlterInstance) {
  EXPECT_FALSE(As<Begin>(Parse("BEGIN")).consistent_snapshot);
  EXPECT_TRUE(As<Begin>(Parse("START TRANSACTION WITH CONSISTENT SNAPSHOT")).consistent_snapshot);
  As<Commit>(Parse("COMMIT WORK"));
  As<Rollback>(Parse("ROLLBACK"));
  EXPECT_EQ(As<SetTransaction>(Parse("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED")).isolation,
            Isolation::kReadCommitted);
  const auto& set =
      As<Set>(Parse("SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO', GLOBAL "
                    "innodb_flush_log_at_trx_commit = 0, autocommit=OFF"));
  ASSERT_EQ(set.items.size(), 4u);
  EXPECT_EQ(set.items[0].scope, SetVariable::Scope::kUser);
  EXPECT_EQ(set.items[0].value->kind, Expr::Kind::kSystemVar);
  EXPECT_EQ(set.items[1].name, "sql_mode");
  EXPECT_EQ(set.items[2].scope, SetVariable::Scope::kGlobal);
  EXPECT_EQ(set.items[3].value->value, Value::String("OFF"));
  EXPECT_EQ(As<Set>(Parse("SET @@GLOBAL.innodb_flush_log_at_trx_commit=2")).items[0].scope,
            SetVariable::Scope::kGlobal);
  As<NoOp>(Parse("SET NAMES utf8mb4"));
  EXPECT_FALSE(As<AlterInstanceRedo>(Parse("ALTER INSTANCE DISABLE INNODB REDO_LOG")).enable);
  EXPECT_TRUE(As<AlterInstanceRedo>(Parse("ALTER INSTANCE ENABLE INNODB REDO_LOG")).enable);
}

TEST(SqlParserTest, DumpStatementsThatChangeNothingHere) {
  As<NoOp>(Parse("LOCK TABLES `t` WRITE, `u` READ"));
  As<NoOp>(Parse("UNLOCK TABLES"));
  As<NoOp>(Parse("/*!40000 ALTER TABLE `t` DISABLE KEYS */"));
  As<NoOp>(Parse("/*!40000 ALTER TABLE `t` ENABLE KEYS */"));
  EXPECT_FALSE(Parse("/*!40101 SET character_set_client = @saved_cs_client */").error);
  EXPECT_FALSE(Parse("-- just a comment\n").statement);
  EXPECT_FALSE(Parse("/*M!999999\\- enable the sandbox mode */").statement);
  As<CreateView>(Parse("/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50001 VIEW `v` AS select 1 */"));
  Parsed view = Parse("/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50001 VIEW `v` AS select 1 from a join b */");
  EXPECT_TRUE(view.error);      // joins are not read yet
  EXPECT_TRUE(view.versioned);  // the session skips it
}

// A view is kept as the text SelectText prints, parsed again at each use: the text parses to a
// statement that prints the same, whatever NOT, precedence and literals it holds.
TEST(SqlParserTest, PrintedSelectsParseBackToThemselves) {
  for (const char* select :
       {"SELECT a + 1 * 2 AS x, (a + 1) * 2, a - (b - 1), -a, - -a, -(a + 1), a / -2, 1 - -1 FROM t",
        "SELECT NOT a, NOT (a + 1), NOT (a = 1 AND (b = 2 OR b IS NULL)), NOT (a <=> b), NOT NOT a, a XOR b FROM t",
        "SELECT a IN (1), a NOT IN (1, 2), a NOT BETWEEN 1 AND 2 + 3, b NOT LIKE 'x%', a = (b = 1) FROM db.t AS x",
        "SELECT 'it''s \\ \n', _binary'b', X'00ff', 0x0A, b'101', 1.50, .5, 5., 1e3, -1.5e-3, NULL, TRUE FROM t",
        "SELECT COUNT(*), SUM(a), ROUND(a), UPPER(b), NOW(), CURRENT_DATE, f(a) FROM t WHERE a AND b OR NOT c "
        "ORDER BY 1 DESC, b LIMIT 2, 3"}) {
    Parsed first = Parse(select);
    ASSERT_FALSE(first.error) << select;
    Select s = std::move(std::get<Select>(*first.statement));
    for (SelectItem& item : s.items) item.alias = item.alias.empty() ? item.text : item.alias;
    const std::string printed = SelectText(s, "db");
    Parsed again = Parse(printed);
    ASSERT_FALSE(again.error) << printed << "\n" << again.error->message;
    EXPECT_EQ(SelectText(std::get<Select>(*again.statement), "db"), printed);
  }
}

TEST(SqlParserTest, ShowStatements) {
  EXPECT_EQ(As<Show>(Parse("SHOW TABLES FROM db LIKE 's%'")).like, "s%");
  EXPECT_EQ(As<Show>(Parse("SHOW CREATE TABLE db.t")).what, Show::What::kCreateTable);
  EXPECT_EQ(As<Show>(Parse("SHOW TABLE STATUS")).what, Show::What::kTableStatus);
  EXPECT_EQ(As<Show>(Parse("SHOW ENGINE INNODB STATUS")).what, Show::What::kEngineStatus);
  const auto& st = As<Show>(Parse("SHOW GLOBAL STATUS LIKE 'Innodb_redo_log_enabled'"));
  EXPECT_TRUE(st.global);
  EXPECT_EQ(st.what, Show::What::kStatus);
  EXPECT_EQ(As<Show>(Parse("SHOW VARIABLES LIKE 'auto%'")).what, Show::What::kVariables);
  EXPECT_EQ(As<Show>(Parse("DESCRIBE t")).what, Show::What::kColumns);
}

TEST(SqlParserTest, SyntaxErrorsQuoteTheTextAndLineLikeMysql) {
  Parsed p = Parse("SELECT *\nFROM t\nWHERE a = = 3");
  ASSERT_TRUE(p.error);
  EXPECT_EQ(p.error->code, 1064u);
  EXPECT_EQ(p.error->sqlstate, "42000");
  EXPECT_EQ(p.error->message,
            "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for "
            "the right syntax to use near '= 3' at line 3");
  EXPECT_EQ(Parse("SELEC 1").error->code, 1064u);
  EXPECT_EQ(Parse("INSERT INTO t VALUES (1,2").error->code, 1064u);
  EXPECT_EQ(Parse("CREATE TABLE t (id int) garbage(").error->code, 1064u);
  EXPECT_EQ(Parse("GRANT ALL ON *.* TO x").error->code, 1235u);
}

}  // namespace
}  // namespace strata::sql
