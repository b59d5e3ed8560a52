#include "tests/fuzz/sql_exec.h"

#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string_view>

#include "engine/db.h"
#include "sqltext/script.h"
#include "sql/session.h"

namespace strata::fuzz {

using namespace strata::engine;
using namespace strata::sql;

namespace {

constexpr std::size_t kMaxStatements = 64;

// Two tables with a unique and a secondary index, an off-page column and a few rows, so a
// mutant's first statement already has rows, duplicates and index entries to work on.
constexpr std::array<std::string_view, 7> kPrelude{
    "CREATE DATABASE fz",
    "USE fz",
    "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT, b VARCHAR(40), c TEXT, "
    "UNIQUE KEY ub (b), KEY ka (a))",
    "CREATE TABLE u (k CHAR(36) NOT NULL PRIMARY KEY, v BIGINT UNSIGNED, w VARBINARY(2000), KEY kv (v, w))",
    "INSERT INTO t (a, b, c) VALUES (1, 'b1', 'c1'), (2, 'b2', NULL), (NULL, NULL, REPEAT('o', 9000)), "
    "(3, 'b3', ''), (3, 'b4', 'c4')",
    "INSERT INTO u VALUES ('k1', 1, X'00'), ('k2', NULL, NULL), ('k3', 18446744073709551615, 'w')",
    "SET autocommit = 1",
};

constexpr std::array<std::string_view, 15> kSeeds{
    "ALTER TABLE t ADD COLUMN x INT DEFAULT 3, ADD COLUMN y VARCHAR(20) NOT NULL DEFAULT 'yy' FIRST, "
    "ALGORITHM=INSTANT;\nUPDATE t SET x = 4 WHERE id = 1;\nBEGIN;\nUPDATE t SET c = 'cc', y = 'z' WHERE id > 1;\n"
    "DELETE FROM t WHERE id = 3;\nROLLBACK;\nALTER TABLE t DROP COLUMN c, DROP COLUMN x;\n"
    "INSERT INTO t (a, b) VALUES (5, 'b6');\nALTER TABLE t ADD COLUMN c TEXT AFTER a, ALGORITHM=INSTANT;\n"
    "UPDATE t SET c = REPEAT('t', 9000);\nSELECT * FROM t ORDER BY b;\nALTER TABLE t FORCE;\n",
    "INSERT INTO t (a, b) VALUES (4, 'b5');\nUPDATE t SET a = (a + 1) * 2 WHERE id = 1;\n"
    "DELETE FROM t WHERE b = 'b2';\nSELECT * FROM t WHERE a > 1 ORDER BY b;\n",
    "BEGIN;\nUPDATE t SET c = REPEAT('x', 15000) WHERE id = 2;\nINSERT INTO t (b) VALUES ('b1');\n"
    "UPDATE t SET b = 'n' WHERE id = 3;\nROLLBACK;\nSELECT COUNT(*) FROM t;\n",
    "SET autocommit = 0;\nINSERT INTO u VALUES ('k4', 4, 'w4');\nDELETE FROM u WHERE k = 'k1';\n"
    "UPDATE u SET v = v + 1;\nCOMMIT;\nSELECT k, v FROM u WHERE v IS NULL OR (v > 1 AND NOT (v < 3));\n",
    "SELECT ABS(-(1 + (2 * (3 - (4 / (5 % 3)))))), COALESCE(NULL, IF(1, 'a', 'b')), "
    "IFNULL(CONCAT('x', HEX(255)), 2);\nSELECT * FROM t WHERE id IN (1, (2), ((3)));\n",
    "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE;\nBEGIN;\nSELECT * FROM t WHERE a = 3 FOR UPDATE;\n"
    "UPDATE t SET id = id + 100 WHERE a = 3;\nCOMMIT;\nCREATE INDEX kab ON t (a, b);\n",
    "SET GLOBAL hot_row_group_commit_tables = 'fz.t';\nUPDATE t SET a = a + 1 WHERE id = 1;\n"
    "SET async_commit = ON;\nINSERT INTO t (a) VALUES (9);\nDROP TABLE u;\nALTER INSTANCE DISABLE INNODB REDO_LOG;\n"
    "INSERT INTO t (a, b) VALUES (10, 'b10');\n",
    "ALTER TABLE t ADD COLUMN d INT NOT NULL DEFAULT 5 AFTER a, MODIFY b VARCHAR(3), DROP INDEX ka;\n"
    "ALTER TABLE t CHANGE a aa BIGINT FIRST, RENAME INDEX ub TO ub2, ADD KEY kd (d), ALTER d SET DEFAULT 6;\n"
    "ALTER TABLE u DROP PRIMARY KEY, ADD PRIMARY KEY (k, v), CONVERT TO CHARACTER SET latin1;\n"
    "ALTER TABLE t RENAME TO t2;\nRENAME TABLE t2 TO t, u TO u2;\nSELECT * FROM t;\n",
    "CREATE TABLE v LIKE t;\nINSERT INTO v SELECT * FROM t WHERE a > 1;\n"
    "INSERT INTO v (id, a) VALUES (1, 7) ON DUPLICATE KEY UPDATE a = VALUES(a) + a, b = 'x';\n"
    "INSERT INTO v VALUES (2, 1, 'q', 'r') AS n ON DUPLICATE KEY UPDATE c = n.c;\n"
    "REPLACE INTO v SELECT id, a, b, c FROM t;\nTRUNCATE v;\nSELECT COUNT(*) FROM v;\n",
    "BEGIN;\nINSERT INTO t (a) VALUES (1);\nSAVEPOINT s;\nUPDATE t SET a = 2;\nROLLBACK TO SAVEPOINT s;\n"
    "RELEASE SAVEPOINT s;\nCOMMIT;\nALTER TABLE t ALGORITHM=INSTANT, ADD COLUMN z INT;\n"
    "ALTER TABLE t DROP COLUMN IF EXISTS z, DROP COLUMN c, ENGINE=InnoDB, AUTO_INCREMENT=50;\n",
    "DELIMITER //\nCREATE PROCEDURE p(IN n INT, OUT s INT)\nBEGIN\n  DECLARE i INT DEFAULT 0;\n"
    "  DECLARE CONTINUE HANDLER FOR 1062 SET s = -1;\n  lp: WHILE i < n DO\n    INSERT INTO t (a, b) VALUES (i, "
    "CONCAT('p', i));\n    COMMIT;\n    SET i = i + 1;\n    IF i > 50 THEN LEAVE lp; END IF;\n  END WHILE lp;\n"
    "  SELECT COUNT(*) INTO s FROM t;\nEND//\nDELIMITER ;\nSET ob_enable_pl_async_commit = ON;\nCALL p(5, @s);\n"
    "SELECT @s;\nCALL p(3, @s);\nDROP PROCEDURE p;\n",
    "DELIMITER $$\nCREATE FUNCTION f(x INT) RETURNS VARCHAR(10) DETERMINISTIC\nBEGIN\n  DECLARE r VARCHAR(10);\n"
    "  DECLARE EXIT HANDLER FOR NOT FOUND RETURN 'none';\n  SELECT b INTO r FROM t WHERE id = x;\n"
    "  CASE WHEN r IS NULL THEN RETURN 'null'; ELSE RETURN r; END CASE;\nEND$$\n"
    "CREATE PROCEDURE c()\nBEGIN\n  DECLARE done INT DEFAULT 0;\n  DECLARE v INT;\n"
    "  DECLARE cur CURSOR FOR SELECT a FROM t ORDER BY id;\n  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;\n"
    "  OPEN cur;\n  REPEAT FETCH cur INTO v; UNTIL done END REPEAT;\n  CLOSE cur;\n"
    "  IF v < 0 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'neg'; END IF;\nEND$$\nDELIMITER ;\n"
    "SELECT f(1), f(2), f(99);\nUPDATE t SET b = f(id) WHERE id < 3;\nCALL c();\n",
    "CREATE TABLE log (n INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(8), k INT);\nDELIMITER ;;\n"
    "CREATE TRIGGER bi BEFORE INSERT ON t FOR EACH ROW BEGIN IF NEW.a < 0 THEN SIGNAL SQLSTATE '45000'; END IF; "
    "SET NEW.b = CONCAT('t', NEW.a); END;;\nCREATE TRIGGER au AFTER UPDATE ON t FOR EACH ROW INSERT INTO log (what, k) "
    "VALUES ('upd', OLD.a);;\nCREATE TRIGGER ad AFTER DELETE ON t FOR EACH ROW INSERT INTO log (what, k) VALUES "
    "('del', OLD.id);;\nDELIMITER ;\nINSERT INTO t (a) VALUES (7), (8);\nINSERT INTO t (a) VALUES (-1);\n"
    "UPDATE t SET a = a + 1 WHERE id < 3;\nDELETE FROM t WHERE a > 7;\nCREATE TABLE t3 SELECT id, a FROM t;\n"
    "DROP TRIGGER bi;\nSELECT COUNT(*) FROM log;\n",
    "CREATE TABLE kp (id INT PRIMARY KEY, up INT, name VARCHAR(8) UNIQUE, FOREIGN KEY (up) REFERENCES kp (id) ON "
    "DELETE "
    "CASCADE);\nCREATE TABLE kc (id INT PRIMARY KEY, p INT REFERENCES kp (id), n VARCHAR(8), CONSTRAINT kn FOREIGN KEY "
    "(n) REFERENCES kp (name) ON UPDATE CASCADE ON DELETE SET NULL);\nINSERT INTO kp VALUES (1, 1, 'a'), (2, 1, 'b');\n"
    "INSERT INTO kc VALUES (1, 2, 'B'), (2, 3, 'a');\nUPDATE kp SET name = 'z' WHERE id = 2;\nDELETE FROM kp WHERE id "
    "= "
    "1;\nALTER TABLE kc DROP FOREIGN KEY kn, ADD CONSTRAINT k2 FOREIGN KEY (id) REFERENCES kp (id);\n"
    "SET foreign_key_checks = 0;\nTRUNCATE kp;\nDROP TABLE kp;\nSET foreign_key_checks = 1;\nINSERT INTO kc VALUES (5, "
    "NULL, NULL);\n",
    "CREATE VIEW v1 AS SELECT id, a + 1 AS a1, b FROM t WHERE NOT (a > 2 OR b IS NULL) ORDER BY 2 DESC;\n"
    "CREATE VIEW v2 (x, y) AS SELECT id, b FROM v1 WHERE a1 BETWEEN 1 AND 9 WITH CASCADED CHECK OPTION;\n"
    "CREATE VIEW v3 AS SELECT COUNT(*) AS n, MAX(b) FROM t;\nSELECT * FROM v2 WHERE y LIKE 'b%' ORDER BY x LIMIT 1, "
    "2;\n"
    "UPDATE v2 SET y = 'q' WHERE x = 1;\nINSERT INTO v2 VALUES (50, 'b50');\nDELETE FROM v1 WHERE a1 = 2;\n"
    "SELECT n FROM v3;\nCREATE OR REPLACE VIEW v1 AS SELECT * FROM v2;\nSELECT * FROM v1;\nSHOW CREATE VIEW v2;\n"
    "DROP TABLE t;\nSELECT * FROM v2;\nDROP VIEW IF EXISTS v1, v2, v3;\n",
};

std::filesystem::path MakeDir() {
  const std::filesystem::path base =
      std::filesystem::exists("/dev/shm") ? std::filesystem::path("/dev/shm") : std::filesystem::temp_directory_path();
  std::string pattern = (base / "strata-sql-fuzz-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) std::abort();
  return pattern;
}

// The database every input runs in, closed (its threads joined) and its directory removed at
// exit: left open, its page cleaner could still run while the process's statics are destroyed.
struct SharedDatabase {
  std::filesystem::path dir = MakeDir();
  std::unique_ptr<Database> db;
  SharedDatabase() {
    DatabaseOptions o;
    o.buffer_pool_bytes = 4u << 20;
    o.redo_log_bytes = 8u << 20;
    o.flush_log_at_trx_commit = 0;
    o.purge = false;  // purge runs between inputs, so one input's run is one thread's
    o.lock_wait_timeout = std::chrono::milliseconds(10);
    auto opened = Database::Open(dir, o);
    if (!opened.ok()) {
      std::fprintf(stderr, "sql fuzz: cannot open a database: %s\n", opened.status().ToString().c_str());
      std::abort();
    }
    db = std::move(*opened);
  }
  ~SharedDatabase() {
    db.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

Database& Db() {
  static SharedDatabase shared;
  return *shared.db;
}

class DiscardingSink final : public ResultSink {
 public:
  void Header(const std::vector<ColumnHeader>&) override {}
  void Row(const std::vector<std::optional<std::string>>&) override {}
};

[[noreturn]] void Finding(const std::string& what) {
  std::fprintf(stderr, "sql fuzz: %s\n", what.c_str());
  std::abort();
}

// Every table's indexes must be whole after the statements, and then everything goes so the
// next input starts as this one did.
void CheckAndReset(Database& db) {
  for (const std::string& name : db.ListDatabases()) {
    for (const std::string& table : db.ListTables(name)) {
      auto t = db.GetTable(name, table);
      if (!t.ok()) Finding("table " + name + "." + table + " is listed but does not open: " + t.status().ToString());
      const Status check = (*t)->Check();
      if (!check.ok()) Finding("table " + name + "." + table + " fails its check: " + check.ToString());
    }
    const Status dropped = db.DropDatabase(name);
    if (!dropped.ok()) Finding("DROP DATABASE " + name + " failed: " + dropped.ToString());
  }
  if (!db.redo_logging() && !db.SetRedoLogging(true).ok()) Finding("redo logging does not come back on");
  if (!db.set_flush_log_at_trx_commit(0).ok()) Finding("innodb_flush_log_at_trx_commit does not reset");
  db.set_early_lock_release(false);
  db.set_max_elr_dependent_trx_count(DatabaseOptions{}.max_elr_dependent_trx_count);
  db.set_group_commit_tables("");
  db.set_lock_wait_timeout(std::chrono::milliseconds(10));
  if (!db.Purge().ok()) Finding("purge failed");
}

}  // namespace

void RunSqlStatements(const std::uint8_t* data, std::size_t size) {
  Database& db = Db();
  {
    Session session(db);
    DiscardingSink sink;
    for (std::string_view p : kPrelude) {
      const StatementOutcome o = session.Execute(p, sink);
      if (o.error) Finding("the prelude failed at '" + std::string(p) + "': " + o.error->message);
    }
    // A routine may loop for ever (LOOP ... END LOOP): after a second the statement is asked
    // to stop, as Ctrl-C would, and asked again until the input is done.
    std::atomic<bool> done{false};
    std::thread watchdog([&] {
      const auto start = std::chrono::steady_clock::now();
      while (!done.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(1)) session.Interrupt();
      }
    });
    StatementSplitter splitter;
    std::size_t run = 0;
    static const bool verbose = std::getenv("STRATA_FUZZ_VERBOSE") != nullptr;
    auto execute = [&](ScriptStatement& st) {
      const StatementOutcome o = session.Execute(st.text, sink);
      if (verbose) {
        std::fprintf(stderr, "%.120s\n  -> %s\n", st.text.c_str(),
                     o.error ? o.error->message.c_str() : ("ok, " + std::to_string(o.rows) + " rows").c_str());
      }
      return ++run < kMaxStatements;
    };
    if (splitter.Feed(std::string_view(reinterpret_cast<const char*>(data), size), execute)) splitter.Finish(execute);
    done = true;
    watchdog.join();
    (void)session.WaitDurable();
  }  // the session's open transaction rolls back here, as at a disconnect
  CheckAndReset(db);
}

std::string SqlSeedScript(std::size_t k) { return std::string(kSeeds.at(k)); }
std::size_t SqlSeedScripts() { return kSeeds.size(); }

}  // namespace strata::fuzz
