// Statements run through a Session against a real data directory.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <pthread.h>

#include <functional>
#include <random>

#include "engine/db.h"
#include "sql/functions.h"
#include "sql/session.h"
#include "tests/util/tsv.h"

namespace strata::sql {
namespace {

using strata::testing::TempDir;

// Collects a result as text rows ("NULL" for NULL), the header first.
struct Collect : ResultSink {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header;
  void Header(const std::vector<ColumnHeader>& columns) override {
    header.clear();
    for (const auto& c : columns) header.push_back(c.name);
    rows.clear();
  }
  void Row(const std::vector<std::optional<std::string>>& values) override {
    std::vector<std::string> r;
    for (const auto& v : values) r.push_back(v.value_or("NULL"));
    rows.push_back(std::move(r));
  }
};

class SqlSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Open();
    Ok("CREATE DATABASE shop");
    Ok("USE shop");
  }

  // The data directory, and a session on it.
  void Open() {
    auto db = Database::Open(dir_.path(), {});
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    session_ = std::make_unique<Session>(*db_);
  }

  StatementOutcome Run(const std::string& sql, Session* s = nullptr) { return (s ? *s : *session_).Execute(sql, out_); }
  StatementOutcome Ok(const std::string& sql, Session* s = nullptr) {
    auto o = Run(sql, s);
    EXPECT_FALSE(o.error) << sql << ": " << o.error->message;
    return o;
  }
  unsigned ErrorCode(const std::string& sql) {
    auto o = Run(sql);
    return o.error ? o.error->code : 0;
  }
  std::vector<std::vector<std::string>> Rows(const std::string& sql, Session* s = nullptr) {
    Ok(sql, s);
    return out_.rows;
  }
  std::string One(const std::string& sql) {
    auto r = Rows(sql);
    return r.size() == 1 && r[0].size() == 1 ? r[0][0] : "<not one value>";
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
  Collect out_;
};

using R = std::vector<std::vector<std::string>>;

TEST_F(SqlSessionTest, InsertFillsDefaultsAndAutoIncrement) {
  Ok("CREATE TABLE t (id int NOT NULL AUTO_INCREMENT, name varchar(20) NOT NULL DEFAULT 'anon', note text, PRIMARY KEY "
     "(id))");
  auto o = Ok("INSERT INTO t (note) VALUES ('a'), ('b')");
  EXPECT_EQ(o.rows, 2u);
  EXPECT_EQ(o.info, "Records: 2  Duplicates: 0  Warnings: 0");
  Ok("INSERT INTO t VALUES (10, DEFAULT, NULL)");
  Ok("INSERT INTO t SET note = 'c'");
  EXPECT_EQ(Rows("SELECT * FROM t"),
            (R{{"1", "anon", "a"}, {"2", "anon", "b"}, {"10", "anon", "NULL"}, {"11", "anon", "c"}}));
  EXPECT_EQ(One("SELECT LAST_INSERT_ID()"), "11");
  EXPECT_EQ(ErrorCode("INSERT INTO t VALUES (1, 'x', 'y')"), 1062u);
  EXPECT_EQ(ErrorCode("INSERT INTO t VALUES (1, 'x')"), 1136u);
  EXPECT_EQ(ErrorCode("INSERT INTO t (nope) VALUES (1)"), 1054u);
  EXPECT_EQ(ErrorCode("INSERT INTO t (id, name) VALUES (20, NULL)"), 1048u);
  EXPECT_EQ(ErrorCode("INSERT INTO missing VALUES (1)"), 1146u);
  EXPECT_EQ(One("SELECT COUNT(*) FROM t"), "4");  // the failed statements changed nothing
}

// Every function of the library keeps its declared argument count (1582 outside it) and gives
// NULL for a NULL argument where it says so; a name not in it is 1305.
TEST(FunctionLibraryTest, EveryFunctionKeepsItsArityAndNullRule) {
  ASSERT_GT(AllFunctions().size(), 30u);
  for (const FunctionDef& f : AllFunctions()) {
    const std::string name(f.name);
    ASSERT_EQ(FindFunction(name), &f) << name;
    if (f.min_args > 0) {
      std::vector<SqlValue> few(f.min_args - 1, SqlValue{Value::Int(1)});
      auto r = ApplyFunction(name, few);
      ASSERT_FALSE(r.ok()) << name;
      EXPECT_EQ(r.error().code, 1582u) << name;
    }
    if (f.max_args != FunctionDef::kAny) {
      std::vector<SqlValue> many(f.max_args + 1, SqlValue{Value::Int(1)});
      auto r = ApplyFunction(name, many);
      ASSERT_FALSE(r.ok()) << name;
      EXPECT_EQ(r.error().code, 1582u) << name;
    }
    if (f.null_gives_null) {
      std::vector<SqlValue> nulls(f.min_args, SqlValue{});
      auto r = ApplyFunction(name, nulls);
      ASSERT_TRUE(r.ok()) << name;
      EXPECT_TRUE(r->value.is_null()) << name;
    }
  }
  std::vector<SqlValue> none;
  auto missing = ApplyFunction("NO_SUCH_FUNCTION", none);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, 1305u);
}

// An unknown column is named with the clause it is in, in MySQL 8.0's words.
TEST_F(SqlSessionTest, AnUnknownColumnIsNamedWithItsClause) {
  Ok("CREATE TABLE t (id int PRIMARY KEY, k int)");
  Ok("INSERT INTO t VALUES (1, 2), (2, 1)");
  auto message = [&](const std::string& sql) {
    auto o = Run(sql);
    return o.error ? o.error->message : "<no error>";
  };
  EXPECT_EQ(message("SELECT nope FROM t"), "Unknown column 'nope' in 'field list'");
  EXPECT_EQ(message("SELECT id FROM t WHERE nope = 1"), "Unknown column 'nope' in 'where clause'");
  EXPECT_EQ(message("SELECT id FROM t ORDER BY nope"), "Unknown column 'nope' in 'order clause'");
  EXPECT_EQ(message("SELECT id FROM t ORDER BY 3"), "Unknown column '3' in 'order clause'");
  EXPECT_EQ(message("UPDATE t SET k = 1 WHERE nope = 1"), "Unknown column 'nope' in 'where clause'");
  EXPECT_EQ(message("DELETE FROM t WHERE nope = 1"), "Unknown column 'nope' in 'where clause'");
  EXPECT_EQ(message("SELECT k + nope FROM t"), "Unknown column 'nope' in 'field list'");
}

// The table option AUTO_INCREMENT=N (what mariadb-dump writes) is where the counter starts,
// and it survives a reopen as the counter does; a larger explicit id moves it on.
TEST_F(SqlSessionTest, TheAutoIncrementTableOptionStartsTheCounter) {
  Ok("CREATE TABLE a (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, v int) AUTO_INCREMENT=1001");
  Ok("INSERT INTO a (v) VALUES (1)");
  EXPECT_EQ(One("SELECT MAX(id) FROM a"), "1001");
  Ok("INSERT INTO a VALUES (5000, 2)");
  Ok("INSERT INTO a (v) VALUES (3)");
  EXPECT_EQ(One("SELECT MAX(id) FROM a"), "5001");
  Ok("CREATE TABLE b (id bigint NOT NULL AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB AUTO_INCREMENT=77");
  session_.reset();
  db_.reset();
  Open();
  Ok("USE shop");
  Ok("INSERT INTO b VALUES (NULL)");
  EXPECT_EQ(One("SELECT id FROM b"), "77");
}

// Every error the engine gives a reason reaches the client as MySQL's number for it (the
// numbers MariaDB 10.11 gives the same statements).
TEST_F(SqlSessionTest, EngineErrorsReachTheClientAsMysqlErrorNumbers) {
  Ok("CREATE TABLE t (id int NOT NULL, v tinyint, s varchar(3), d date, u varchar(10), PRIMARY KEY (id))");
  Ok("INSERT INTO t VALUES (1, 1, 'a', '2024-01-01', 'x')");
  EXPECT_EQ(ErrorCode("INSERT INTO t VALUES (1, 1, 'a', NULL, NULL)"), 1062u);    // duplicate key
  EXPECT_EQ(ErrorCode("CREATE DATABASE shop"), 1007u);                            // database exists
  EXPECT_EQ(ErrorCode("CREATE TABLE t (id int)"), 1050u);                         // table exists
  EXPECT_EQ(ErrorCode("CREATE TABLE nowhere.t (id int)"), 1049u);                 // unknown database
  EXPECT_EQ(ErrorCode("DROP DATABASE nowhere"), 1008u);                           // no database to drop
  EXPECT_EQ(ErrorCode("SELECT * FROM missing"), 1146u);                           // no such table
  EXPECT_EQ(ErrorCode("DROP TABLE missing"), 1051u);                              // unknown table
  EXPECT_EQ(ErrorCode("INSERT INTO t (id, v) VALUES (NULL, 1)"), 1048u);          // NULL not allowed
  EXPECT_EQ(ErrorCode("INSERT INTO t (id, v) VALUES (2, 300)"), 1264u);           // out of range
  EXPECT_EQ(ErrorCode("INSERT INTO t (id, s) VALUES (3, 'abcd')"), 1406u);        // data too long
  EXPECT_EQ(ErrorCode("INSERT INTO t (id, d) VALUES (4, '2024-13-45')"), 1292u);  // incorrect date
  EXPECT_EQ(ErrorCode("CREATE INDEX `k\xff` ON t (v)"), 1300u);                   // a name not utf8mb4
  EXPECT_EQ(ErrorCode("INSERT INTO t (id, u) VALUES (5, X'C328')"), 1366u);       // a value not utf8mb4
  EXPECT_NE(Run("INSERT INTO t (id, u) VALUES (5, X'C328')")
                .error->message.find("Incorrect string value: '\\xC3(' for column 'u' at row 1"),
            std::string::npos);
  EXPECT_EQ(One("SELECT COUNT(*) FROM t"), "1");
}

TEST_F(SqlSessionTest, ZeroIsAValueUnderNoAutoValueOnZero) {
  Ok("CREATE TABLE t (id int NOT NULL AUTO_INCREMENT PRIMARY KEY)");
  Ok("SET SQL_MODE='NO_AUTO_VALUE_ON_ZERO'");
  Ok("INSERT INTO t VALUES (0), (5)");
  Ok("SET SQL_MODE=''");
  Ok("INSERT INTO t VALUES (0)");
  EXPECT_EQ(Rows("SELECT id FROM t"), (R{{"0"}, {"5"}, {"6"}}));
}

// A database's options are checked as the server checks them; its default collation is not
// kept, and a _bin one, which would change how its tables compare text, is said to be ignored.
TEST_F(SqlSessionTest, DatabaseCollationsAreCheckedAndABinaryDefaultIsAWarning) {
  EXPECT_EQ(ErrorCode("CREATE DATABASE d1 COLLATE utf8mb4_nosuch"), 1273u);
  EXPECT_EQ(ErrorCode("CREATE DATABASE d2 CHARACTER SET latin1 COLLATE utf8mb4_bin"), 1253u);
  EXPECT_EQ(ErrorCode("CREATE DATABASE d3 CHARACTER SET klingon"), 1115u);
  EXPECT_TRUE(
      Ok("CREATE DATABASE d4 /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci */").warnings.empty());
  auto o = Ok("CREATE DATABASE d5 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_NE(o.warnings[0].message.find("default collation"), std::string::npos) << o.warnings[0].message;
}

// MySQL's utf8mb4_0900_ai_ci is compared by MariaDB's UCA 14.0.0 weights (NO PAD, as MySQL's):
// CREATE TABLE says so in a note; the server's own collations need no note.
TEST_F(SqlSessionTest, MysqlsUca900CollationSaysWhoseWeightsItUses) {
  auto o = Ok("CREATE TABLE t (id int PRIMARY KEY, v varchar(10) COLLATE utf8mb4_0900_ai_ci, KEY kv (v))");
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_NE(o.warnings[0].message.find("uca1400_nopad_ai_ci"), std::string::npos) << o.warnings[0].message;
  EXPECT_TRUE(Ok("CREATE TABLE u (v varchar(10) COLLATE utf8mb4_unicode_520_nopad_ci)").warnings.empty());
  Ok("INSERT INTO t VALUES (1, 'l\u00B7a'), (2, 'LA'), (3, 'lb'), (4, 'la '), (5, 'ŀa')");
  // 'l' + U+00B7 is one contraction that weighs as 'l' (so does U+0140); a trailing space counts
  // (NO PAD). As MariaDB orders them under uca1400_nopad_ai_ci.
  EXPECT_EQ(Rows("SELECT id FROM t ORDER BY v, id"), (R{{"1"}, {"2"}, {"5"}, {"4"}, {"3"}}));
}

// A point UPDATE hands the row its locking read found to the engine: one search of the
// clustered index and one lock request per row, in autocommit and in a transaction (the
// hot-row statement; it searched three times and asked for the lock twice).
TEST_F(SqlSessionTest, APointUpdateSearchesAndLocksOnce) {
  Ok("CREATE TABLE sbtest1 (id int PRIMARY KEY, k int, c char(120), KEY k_1 (k))");
  Ok("INSERT INTO sbtest1 VALUES (1, 0, 'a'), (2, 0, 'b'), (3, 0, 'c')");
  auto t = db_->GetTable("shop", "sbtest1");
  ASSERT_TRUE(t.ok());
  for (const char* begin : {"", "BEGIN"}) {
    if (*begin) Ok(begin);
    const auto before = (*t)->stats();
    for (int i = 0; i < 10; ++i) EXPECT_EQ(Ok("UPDATE sbtest1 SET k = k + 1 WHERE id = 2").rows, 1u);
    const auto after = (*t)->stats();
    EXPECT_EQ(after.clustered_searches - before.clustered_searches, 10u) << begin;
    EXPECT_EQ(after.lock_requests - before.lock_requests, 10u) << begin;
    if (*begin) Ok("COMMIT");
  }
  EXPECT_EQ(Rows("SELECT k FROM sbtest1 ORDER BY id"), (R{{"0"}, {"20"}, {"0"}}));
}

TEST_F(SqlSessionTest, InsertIgnoreAndReplace) {
  Ok("CREATE TABLE t (id int PRIMARY KEY, code char(3) NOT NULL, v int, UNIQUE KEY uk (code))");
  Ok("INSERT INTO t VALUES (1,'a',1),(2,'b',2)");
  auto o = Ok("INSERT IGNORE INTO t VALUES (1,'z',9),(3,'c',3)");
  EXPECT_EQ(o.rows, 1u);
  EXPECT_EQ(o.warnings.size(), 1u);
  // REPLACE removes both the row with id 2 and the one holding code 'a'.
  o = Ok("REPLACE INTO t VALUES (2,'a',7)");
  EXPECT_EQ(o.rows, 3u);
  EXPECT_EQ(Rows("SELECT * FROM t"), (R{{"2", "a", "7"}, {"3", "c", "3"}}));
}

TEST_F(SqlSessionTest, UpdateReportsMatchedAndChangedAndSeesEarlierAssignments) {
  Ok("CREATE TABLE t (id int PRIMARY KEY, a int, b int)");
  Ok("INSERT INTO t VALUES (1,1,0),(2,2,0),(3,3,0)");
  auto o = Ok("UPDATE t SET a = a + 1, b = a * 10 WHERE id >= 2");
  EXPECT_EQ(o.info, "Rows matched: 2  Changed: 2  Warnings: 0");
  EXPECT_EQ(Rows("SELECT a, b FROM t ORDER BY id"), (R{{"1", "0"}, {"3", "30"}, {"4", "40"}}));
  o = Ok("UPDATE t SET b = 0 WHERE id = 1");
  EXPECT_EQ(o.info, "Rows matched: 1  Changed: 0  Warnings: 0");
  Ok("UPDATE t SET id = id + 10 WHERE id = 3");  // a new primary key moves the row
  EXPECT_EQ(Rows("SELECT id FROM t"), (R{{"1"}, {"2"}, {"13"}}));
  o = Ok("DELETE FROM t WHERE id IN (1, 13) OR a = 99");
  EXPECT_EQ(o.rows, 2u);
  Ok("INSERT INTO t VALUES (5,0,0),(6,0,0),(7,0,0)");
  Ok("DELETE FROM t ORDER BY id DESC LIMIT 2");
  EXPECT_EQ(Rows("SELECT id FROM t"), (R{{"2"}, {"5"}}));
}

TEST_F(SqlSessionTest, FailedStatementInsideATransactionUndoesOnlyItself) {
  Ok("CREATE TABLE t (id int PRIMARY KEY, u int, UNIQUE KEY uk (u))");
  Ok("INSERT INTO t VALUES (1,1),(2,2),(3,3)");
  Ok("BEGIN");
  Ok("UPDATE t SET u = u + 100 WHERE id = 1");
  // Row 1 becomes 5 (free), row 2 collides with... u=5 again: the statement fails half-way.
  EXPECT_EQ(ErrorCode("UPDATE t SET u = 5 WHERE id IN (2, 3)"), 1062u);
  Ok("COMMIT");
  EXPECT_EQ(Rows("SELECT u FROM t ORDER BY id"), (R{{"101"}, {"2"}, {"3"}}));
}

TEST_F(SqlSessionTest, TransactionsRollbackAutocommitAndIsolation) {
  Ok("CREATE TABLE t (id int PRIMARY KEY, v int)");
  Ok("INSERT INTO t VALUES (1, 10)");
  Ok("START TRANSACTION");
  Ok("UPDATE t SET v = 11");
  Ok("ROLLBACK");
  EXPECT_EQ(One("SELECT v FROM t"), "10");
  Ok("SET autocommit = 0");
  Ok("UPDATE t SET v = 12");
  Session other(*db_);
  Ok("USE shop", &other);
  EXPECT_EQ(Rows("SELECT v FROM t", &other), (R{{"10"}}));  // not committed yet
  Ok("COMMIT");
  EXPECT_EQ(Rows("SELECT v FROM t", &other), (R{{"12"}}));
  // A REPEATABLE READ snapshot in `other` keeps its view; READ COMMITTED sees new commits.
  Ok("START TRANSACTION WITH CONSISTENT SNAPSHOT", &other);
  Ok("UPDATE t SET v = 13");
  Ok("COMMIT");
  EXPECT_EQ(Rows("SELECT v FROM t", &other), (R{{"12"}}));
  Ok("COMMIT", &other);
  Ok("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", &other);
  EXPECT_EQ(Rows("SELECT @@transaction_isolation", &other), (R{{"READ-COMMITTED"}}));
  EXPECT_EQ(Rows("SELECT v FROM t", &other), (R{{"13"}}));
  EXPECT_EQ(One("SELECT @@autocommit"), "0");
}

TEST_F(SqlSessionTest, LockingReadsBlockWriters) {
  Ok("CREATE TABLE t (id int PRIMARY KEY, v int)");
  Ok("INSERT INTO t VALUES (1, 10)");
  db_->set_lock_wait_timeout(std::chrono::milliseconds(200));
  Ok("BEGIN");
  EXPECT_EQ(Rows("SELECT v FROM t WHERE id = 1 FOR UPDATE"), (R{{"10"}}));
  Session other(*db_);
  Ok("USE shop", &other);
  auto o = Run("UPDATE t SET v = 0 WHERE id = 1", &other);
  ASSERT_TRUE(o.error);
  EXPECT_EQ(o.error->code, 1205u);
  Ok("COMMIT");
  Ok("UPDATE t SET v = 0 WHERE id = 1", &other);
}

TEST_F(SqlSessionTest, IndexedWhereClausesAgreeWithFullScans) {
  Ok("CREATE TABLE t (id int PRIMARY KEY, k int NOT NULL, c varchar(10), d decimal(6,2), KEY k_k (k), KEY k_ck (c, "
     "k))");
  std::mt19937 rng(7);
  std::string insert = "INSERT INTO t VALUES ";
  for (int i = 1; i <= 400; ++i) {
    insert += fmt::format("{}({}, {}, '{}', {}.{:02})", i > 1 ? "," : "", i * 3, rng() % 50,
                          static_cast<char>('a' + rng() % 6), rng() % 100, rng() % 100);
  }
  Ok(insert);
  // Each WHERE runs as written (index lookups and ranges) and with its columns wrapped in
  // `+ 0` / CONCAT (a scan with a filter); the rows must be the same.
  const std::vector<std::pair<std::string, std::string>> queries = {
      {"id = 30", "id + 0 = 30"},
      {"id IN (3, 33, 333, 1000)", "id + 0 IN (3, 33, 333, 1000)"},
      {"id BETWEEN 100 AND 200", "id + 0 BETWEEN 100 AND 200"},
      {"id > 1150", "id + 0 > 1150"},
      {"k = 7", "k + 0 = 7"},
      {"k >= 45 AND id < 600", "k + 0 >= 45 AND id + 0 < 600"},
      {"c = 'b' AND k < 10", "CONCAT(c) = 'b' AND k + 0 < 10"},
      {"c = 'B'", "CONCAT(c) = 'b'"},  // case-insensitive, as utf8mb4_general_ci
      {"d > 50.5", "d + 0 > 50.5"},
      {"k = 3 OR id = 9", "k + 0 = 3 OR id + 0 = 9"},
  };
  for (const auto& [indexed, scanned] : queries) {
    const auto a = Rows("SELECT * FROM t WHERE " + indexed + " ORDER BY id");
    const auto b = Rows("SELECT * FROM t WHERE " + scanned + " ORDER BY id");
    EXPECT_EQ(a, b) << indexed;
    EXPECT_FALSE(a.empty()) << indexed;
  }
  // ORDER BY on an index with LIMIT, ascending and descending, and by a select position.
  EXPECT_EQ(Rows("SELECT k, id FROM t ORDER BY k, id LIMIT 5"), Rows("SELECT k + 0, id FROM t ORDER BY 1, 2 LIMIT 5"));
  EXPECT_EQ(Rows("SELECT id FROM t ORDER BY id DESC LIMIT 3"), (R{{"1200"}, {"1197"}, {"1194"}}));
  EXPECT_EQ(Rows("SELECT id FROM t ORDER BY id LIMIT 2 OFFSET 1"), (R{{"6"}, {"9"}}));
  EXPECT_EQ(One("SELECT COUNT(*) FROM t WHERE k < 25"), One("SELECT COUNT(*) FROM t WHERE k + 0 < 25"));
}

TEST_F(SqlSessionTest, ExpressionsAndFunctions) {
  EXPECT_EQ(One("SELECT 1 + 2 * 3"), "7");
  EXPECT_EQ(One("SELECT 7 / 2"), "3.5000");
  EXPECT_EQ(One("SELECT 1.50 * 2"), "3.00");
  EXPECT_EQ(One("SELECT 10 DIV 3"), "3");
  EXPECT_EQ(One("SELECT 10 % 3"), "1");
  EXPECT_EQ(One("SELECT 1 / 0"), "NULL");
  EXPECT_EQ(One("SELECT NULL = NULL"), "NULL");
  EXPECT_EQ(One("SELECT NULL <=> NULL"), "1");
  EXPECT_EQ(One("SELECT 'abc' = 'ABC '"), "1");
  EXPECT_EQ(One("SELECT _binary 'abc' = 'ABC'"), "0");
  EXPECT_EQ(One("SELECT '10' = 10"), "1");
  EXPECT_EQ(One("SELECT 3 BETWEEN 1 AND 5 AND 'x' IN ('a', 'x')"), "1");
  EXPECT_EQ(One("SELECT 'hello' LIKE 'h_l%'"), "1");
  EXPECT_EQ(One("SELECT CONCAT('a', 1, 'b')"), "a1b");
  EXPECT_EQ(One("SELECT LENGTH('héllo')"), "6");
  EXPECT_EQ(One("SELECT CHAR_LENGTH('héllo')"), "5");
  EXPECT_EQ(One("SELECT HEX('AB')"), "4142");
  EXPECT_EQ(One("SELECT HEX(255)"), "FF");
  EXPECT_EQ(One("SELECT HEX(UUID_TO_BIN('6ccd780c-baba-1026-9564-5b8c656024db'))"), "6CCD780CBABA102695645B8C656024DB");
  EXPECT_EQ(One("SELECT HEX(UUID_TO_BIN('6ccd780c-baba-1026-9564-5b8c656024db', 1))"),
            "1026BABA6CCD780C95645B8C656024DB");
  EXPECT_EQ(One("SELECT BIN_TO_UUID(UUID_TO_BIN('6ccd780c-baba-1026-9564-5b8c656024db', 1), 1)"),
            "6ccd780c-baba-1026-9564-5b8c656024db");
  const std::string u = One("SELECT UUID()");
  EXPECT_EQ(u.size(), 36u);
  EXPECT_EQ(u[14], '1');  // version 1, as MySQL's
  EXPECT_NE(u, One("SELECT UUID()"));
  EXPECT_EQ(One("SELECT LENGTH(NOW())"), "19");
  Ok("SET @x = 41");
  EXPECT_EQ(One("SELECT @x + 1"), "42");
  EXPECT_EQ(One("SELECT 1e15"), "1e15");
  EXPECT_EQ(One("SELECT 100000000000000e0"), "100000000000000");
  EXPECT_EQ(ErrorCode("SELECT NOSUCH(1)"), 1305u);
  EXPECT_EQ(ErrorCode("SELECT @@no_such_variable"), 1193u);
}

TEST_F(SqlSessionTest, ShowStatementsAndRedoSwitch) {
  Ok("CREATE TABLE t (id int NOT NULL AUTO_INCREMENT, v varchar(8) DEFAULT 'x', PRIMARY KEY (id), KEY k_v (v))");
  Ok("INSERT INTO t (v) VALUES ('a'), ('b')");
  EXPECT_EQ(Rows("SHOW TABLES"), (R{{"t"}}));
  EXPECT_EQ(out_.header, std::vector<std::string>{"Tables_in_shop"});
  const auto create = Rows("SHOW CREATE TABLE t");
  EXPECT_EQ(
      create[0][1],
      "CREATE TABLE `t` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `v` varchar(8) DEFAULT 'x',\n  PRIMARY KEY (`id`),\n"
      "  KEY `k_v` (`v`)\n) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4");
  const auto status = Rows("SHOW TABLE STATUS LIKE 't'");
  ASSERT_EQ(status.size(), 1u);
  EXPECT_EQ(status[0][4], "2");      // Rows
  EXPECT_EQ(status[0][6], "16384");  // Data_length: the clustered root, one page
  EXPECT_EQ(status[0][8], "16384");  // Index_length: k_v's root
  EXPECT_EQ(status[0][9], "0");      // Data_free
  EXPECT_EQ(status[0][10], "3");     // Auto_increment
  EXPECT_NE(Rows("SHOW ENGINE INNODB STATUS")[0][2].find("History list length"), std::string::npos);
  EXPECT_EQ(Rows("SHOW GLOBAL STATUS LIKE 'Innodb_redo_log_enabled'"), (R{{"Innodb_redo_log_enabled", "ON"}}));
  Ok("ALTER INSTANCE DISABLE INNODB REDO_LOG");
  EXPECT_FALSE(db_->redo_logging());
  EXPECT_EQ(Rows("SHOW GLOBAL STATUS LIKE 'Innodb_redo_log_enabled'"), (R{{"Innodb_redo_log_enabled", "OFF"}}));
  Ok("ALTER INSTANCE ENABLE INNODB REDO_LOG");
  EXPECT_TRUE(db_->redo_logging());
  Ok("SET GLOBAL innodb_flush_log_at_trx_commit = 2");
  EXPECT_EQ(db_->flush_log_at_trx_commit(), 2);
  EXPECT_EQ(ErrorCode("SET innodb_flush_log_at_trx_commit = 0"), 1229u);
  // Past the largest mode: the largest, with a warning, as MySQL truncates a number out of range.
  EXPECT_EQ(Ok("SET GLOBAL innodb_flush_log_at_trx_commit = 7").warnings.at(0).code, 1292u);
  EXPECT_EQ(db_->flush_log_at_trx_commit(), 2);
  EXPECT_EQ(ErrorCode("SET GLOBAL innodb_flush_log_at_trx_commit = 'x'"), 1231u);
  Ok("DROP TABLE t");
  EXPECT_EQ(ErrorCode("DROP TABLE t"), 1051u);
  Ok("DROP TABLE IF EXISTS t");
  Ok("DROP DATABASE shop");
  EXPECT_EQ(ErrorCode("SHOW TABLES"), 1046u);
}

TEST_F(SqlSessionTest, UnsupportedVersionedStatementsAreSkipped) {
  auto o =
      Run("/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 DEFINER=`root`@`localhost` SQL SECURITY DEFINER */ /*!50001 "
          "VIEW `v` AS SELECT 1 FROM a JOIN b */");
  EXPECT_FALSE(o.error);
  EXPECT_TRUE(o.skipped);
  EXPECT_EQ(ErrorCode("CREATE VIEW v AS SELECT 1 FROM a JOIN b"), 1235u);
}

// Expressions nested past the parser's limit get MySQL's stack-overrun error instead of
// overflowing the stack (deep parentheses, long sums, chains of unary minus and NOT, in a
// SELECT and in an INSERT's values); just under the limit they evaluate.
TEST_F(SqlSessionTest, ExpressionsTooDeepForTheStackAreRefusedWith1436) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  std::string sum = "1";
  for (int i = 1; i < 30000; ++i) sum += "+1";
  for (const std::string& e : {repeat("(", 7000) + "1" + repeat(")", 7000), sum, repeat("-", 100000) + "1",
                               repeat("NOT ", 100000) + "1", repeat("ABS(", 5000) + "1" + repeat(")", 5000)}) {
    EXPECT_EQ(ErrorCode("SELECT " + e), 1436u) << e.substr(0, 40);
  }
  Ok("CREATE TABLE deep (id INT PRIMARY KEY, v BIGINT)");
  EXPECT_EQ(ErrorCode("INSERT INTO deep VALUES (1, " + repeat("(", 7000) + "1" + repeat(")", 7000) + ")"), 1436u);
  EXPECT_EQ(One("SELECT " + repeat("(", 500) + "1" + repeat(")", 500) + " + " + repeat("-", 400) + "2"), "3");
  std::string under = "1";
  for (int i = 1; i < 900; ++i) under += "+1";
  EXPECT_EQ(One("SELECT " + under), "900");
}

// Generated queries OR together thousands of terms (WHERE id = 1 OR id = 2 OR ...): such a
// chain is not nesting, and runs, with MySQL's three-valued logic whatever the chain's length.
TEST_F(SqlSessionTest, LongAndOrChainsRunAndKeepThreeValuedLogic) {
  Ok("CREATE TABLE chain (id INT PRIMARY KEY, v INT)");
  Ok("INSERT INTO chain VALUES (1, 10), (2, NULL), (4000, 40), (5001, 50)");
  std::string any = "SELECT COUNT(*) FROM chain WHERE id = 0";
  for (int i = 1; i <= 5000; ++i) any += " OR id = " + std::to_string(i);
  EXPECT_EQ(One(any), "3");  // 1, 2 and 4000
  std::string all = "SELECT COUNT(*) FROM chain WHERE id > 0";
  for (int i = 1; i <= 5000; ++i) all += " AND id <> " + std::to_string(i * 2);
  EXPECT_EQ(One(all), "2");  // 1 and 5001: 2 and 4000 are among the even numbers excluded
  EXPECT_EQ(One("SELECT NULL OR 0 OR 1"), "1");
  EXPECT_EQ(One("SELECT 0 OR NULL OR 0"), "NULL");
  EXPECT_EQ(One("SELECT 1 AND NULL AND 1"), "NULL");
  EXPECT_EQ(One("SELECT 1 AND NULL AND 0"), "0");
  EXPECT_EQ(One("SELECT 1 XOR 1 XOR 1 XOR 0"), "1");
  EXPECT_EQ(One("SELECT 1 XOR NULL XOR 1"), "NULL");
  EXPECT_EQ(One("SELECT 1 OR 1 AND 0"), "1");  // AND binds tighter
}

// Boundary values the SQL fuzzer's literals reach: no endless loop, no undefined conversion
// (UBSan checks it in CI), no uncaught exception; MySQL's results where it has them.
TEST_F(SqlSessionTest, BoundaryArgumentsGiveResultsOrErrorsNotHangsOrCrashes) {
  EXPECT_EQ(One("SELECT REPEAT('', 9223372036854775807)"), "");
  EXPECT_EQ(One("SELECT LENGTH(REPEAT('ab', 3))"), "6");
  EXPECT_EQ(One("SELECT REPEAT('ab', 2147483648)"), "NULL");  // past max_allowed_packet, as MySQL
  EXPECT_EQ(One("SELECT LENGTH(REPEAT('ab', 1048576))"), "2097152");
  EXPECT_EQ(One("SELECT SUBSTRING('abc', 1e308)"), "");
  EXPECT_EQ(One("SELECT LEFT('abc', -1e308)"), "");
  EXPECT_EQ(One("SELECT SUBSTRING('abcdef', 2, 1e300)"), "bcdef");
  EXPECT_EQ(One("SELECT FLOOR(-2.5)"), "-3");
  EXPECT_EQ(One("SELECT FLOOR(1e308)"), "1e308");
  EXPECT_EQ(One("SELECT ROUND(2.5, 1e308)"),
            "2.5" + std::string(29, '0'));  // a DECIMAL gets the places asked, 30 at most
  EXPECT_EQ(One("SELECT ROUND(2.5e0, 1e308)"), "2.5");
  EXPECT_EQ(One("SELECT ~0"), "18446744073709551615");
  EXPECT_EQ(One("SELECT ~(-1)"), "0");
  EXPECT_EQ(One("SELECT ~1e308"), "0");
  EXPECT_EQ(ErrorCode("SELECT 18446744073709551615 * 18446744073709551615"), 1690u);  // not a wrapped __int128
  EXPECT_EQ(ErrorCode("SELECT 1e308 DIV 1"), 1690u);
  // Two BIGINTs give a BIGINT, as in MySQL: past INT64_MAX is 1690, never an unsigned result.
  EXPECT_EQ(ErrorCode("SELECT 4294967296 * 4294967295"), 1690u);
  EXPECT_EQ(One("SELECT 9223372036854775808 + 9223372036854775807"), "18446744073709551615");  // an unsigned operand
  EXPECT_EQ(ErrorCode("SET GLOBAL max_elr_dependent_trx_count = 99999999999999999999999"), 1231u);
  EXPECT_EQ(ErrorCode("SET GLOBAL max_elr_dependent_trx_count = '12abc'"), 1231u);
  Ok("SET GLOBAL max_elr_dependent_trx_count = 1000");
  // Names that are not UTF-8 (the SDI and the catalog are JSON: the encoder threw, and the
  // process ended, on CREATE INDEX with such a name).
  Ok("CREATE TABLE named (id INT PRIMARY KEY, v INT)");
  EXPECT_EQ(ErrorCode("CREATE INDEX `k\xff` ON named (v)"), 1300u);
  // (The parser already refuses these table names as syntax errors; the engine would with 1300.)
  EXPECT_NE(ErrorCode("CREATE TABLE `t\xc3` (id INT PRIMARY KEY)"), 0u);
  EXPECT_NE(ErrorCode("CREATE TABLE t2 (`\xed\xa0\x80` INT PRIMARY KEY)"), 0u);  // a surrogate
  EXPECT_NE(ErrorCode("CREATE TABLE `t\xff` (id INT PRIMARY KEY)"), 0u);
  EXPECT_EQ(ErrorCode("CREATE DATABASE `d\xf5\x80\x80\x80`"), 1300u);
  Ok("CREATE INDEX `k\xc3\xa9` ON named (v)");  // é is fine
  EXPECT_EQ(One("SELECT COUNT(*) FROM named"), "0");
}

// The depth limit bounds the levels, not the bytes a level takes: frames of a sanitizer build
// are several times larger, and 527 nested ABS() overflowed the SQL fuzzer's 8 MiB stack. So
// the parser and the evaluator also watch the stack itself: nested calls just under the limit
// evaluate, or get 1436 when the stack is too small for them (here a 512 KiB thread), and
// never overflow it.
TEST_F(SqlSessionTest, NestedCallsJustUnderTheDepthLimitNeverOverflowTheStack) {
  auto repeat = [](std::string_view s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  // Runs `body` on a thread with a stack of `bytes`.
  auto on_stack = [](std::size_t bytes, const std::function<void()>& body) {
    pthread_attr_t attr;
    ASSERT_EQ(pthread_attr_init(&attr), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attr, bytes), 0);
    pthread_t thread;
    auto run = [](void* f) -> void* {
      (*static_cast<const std::function<void()>*>(f))();
      return nullptr;
    };
    ASSERT_EQ(pthread_create(&thread, &attr, run, const_cast<std::function<void()>*>(&body)), 0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
  };
  const std::pair<std::string_view, std::string_view> wrappers[] = {{"ABS(", ")"},       {"COALESCE(NULL, ", ")"},
                                                                    {"IF(1, ", ", 0)"},  {"CONCAT(", ", '')"},
                                                                    {"IFNULL(", ", 2)"}, {"-(", ")"},
                                                                    {"NOT (", ")"}};
  for (const auto& [before, after] : wrappers) {
    const std::string e = "SELECT " + repeat(before, 990) + "1" + repeat(after, 990);
    const StatementOutcome here = Run(e);
    EXPECT_TRUE(!here.error || here.error->code == 1436) << before << ": " << here.error->message;
    StatementOutcome small;
    on_stack(512 * 1024, [&] { small = Run(e); });
    ASSERT_TRUE(small.error) << before << ": evaluated on a 512 KiB stack";
    EXPECT_EQ(small.error->code, 1436u) << before << ": " << small.error->message;
    EXPECT_NE(small.error->message.find("Thread stack overrun"), std::string::npos) << small.error->message;
  }
}

// What the log cannot hold is refused as MySQL refuses it, and changes nothing: a statement
// over max_allowed_packet (1153), a row whose long columns pass a quarter of the redo log (1118).
TEST_F(SqlSessionTest, StatementsAndRowsTooBigForThePacketOrTheLogAreRefused) {
  Ok("CREATE TABLE big (id INT PRIMARY KEY, v LONGTEXT)");
  const std::string packet = "INSERT INTO big VALUES (1, '" + std::string(kMaxAllowedPacket, 'p') + "')";
  EXPECT_EQ(ErrorCode(packet), 1153u);
  EXPECT_EQ(ErrorCode("INSERT INTO big VALUES (2, '" + std::string(30'000'000, 'r') + "')"), 1118u);  // of a 96 MiB log
  EXPECT_EQ(One("SELECT COUNT(*) FROM big"), "0");
  Ok("INSERT INTO big VALUES (3, '" + std::string(5'000'000, 's') + "')");  // under both limits
  EXPECT_EQ(One("SELECT COUNT(*) FROM big"), "1");
}

// CREATE TABLE ... IGNORE SELECT keeps the first of each duplicate; a CREATE TABLE ... SELECT
// whose rows fail leaves no table; an expression with no column defined for it is refused by name.
TEST_F(SqlSessionTest, CreateTableSelectIgnoresDuplicatesAndLeavesNothingWhenItFails) {
  Ok("CREATE TABLE src (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(6,2), note TEXT)");
  Ok("INSERT INTO src VALUES (1, 'a', 1, 'x'), (2, 'b', 2, NULL), (3, 'c', 3, ''), (4, 'a', 4, 'y')");
  auto o = Ok("CREATE TABLE c (UNIQUE KEY (name)) IGNORE SELECT id, name FROM src");
  EXPECT_EQ(o.warnings.size(), 1u);
  EXPECT_EQ(Rows("SELECT * FROM c ORDER BY id"), (R{{"1", "a"}, {"2", "b"}, {"3", "c"}}));
  EXPECT_EQ(ErrorCode("CREATE TABLE d (UNIQUE KEY (name)) SELECT id, name FROM src"), 1062u);
  EXPECT_EQ(ErrorCode("SELECT * FROM d"), 1146u);
  EXPECT_EQ(ErrorCode("CREATE TABLE e SELECT HEX(id) FROM src"), 1235u);  // a type not derived here
  EXPECT_EQ(ErrorCode("SELECT * FROM e"), 1146u);
  Ok("CREATE TABLE e (n VARCHAR(8)) SELECT HEX(id + 10) AS n FROM src");
  EXPECT_EQ(Rows("SELECT MAX(n) FROM e"), (R{{"E"}}));
  Ok("CREATE TABLE f SELECT id + 1 AS n, price / 4 AS q FROM src");  // BIGINT and DECIMAL(9,6), as the server
  EXPECT_EQ(Rows("SELECT SUM(n), SUM(q) FROM f"), (R{{"14", "2.500000"}}));
}

}  // namespace
}  // namespace strata::sql
