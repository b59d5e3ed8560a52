// Stored procedures and functions through a Session on a real data directory: kept across a
// reopen and dropped with their database, the OceanBase loop with and without asynchronous
// commits inside the routine, handler scoping, and the refusals that change nothing.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <atomic>
#include <thread>

#include "engine/db.h"
#include "engine/sync_latency_env.h"
#include "sql/session.h"
#include "tests/util/tsv.h"

namespace strata::sql {
namespace {

using strata::testing::TempDir;

struct Collect : ResultSink {
  std::vector<std::vector<std::string>> rows;
  void Header(const std::vector<ColumnHeader>&) override { rows.clear(); }
  void Row(const std::vector<std::optional<std::string>>& values) override {
    std::vector<std::string> r;
    for (const auto& v : values) r.push_back(v.value_or("NULL"));
    rows.push_back(std::move(r));
  }
};

using R = std::vector<std::vector<std::string>>;

class RoutineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Open();
    Ok("CREATE DATABASE shop");
    Ok("USE shop");
  }
  void Open(engine::Env* env = nullptr) {
    session_.reset();
    db_.reset();
    DatabaseOptions o;
    o.env = env;
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    session_ = std::make_unique<Session>(*db_);
  }
  StatementOutcome Run(const std::string& sql) { return session_->Execute(sql, out_); }
  StatementOutcome Ok(const std::string& sql) {
    auto o = Run(sql);
    EXPECT_FALSE(o.error) << sql << ": " << o.error->message;
    return o;
  }
  unsigned ErrorCode(const std::string& sql) {
    auto o = Run(sql);
    return o.error ? o.error->code : 0;
  }
  R Rows(const std::string& sql) {
    Ok(sql);
    return out_.rows;
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
  Collect out_;
};

TEST_F(RoutineTest, RoutinesOutliveTheProcessAndGoWithTheirDatabase) {
  Ok("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
  Ok("CREATE PROCEDURE fill(IN n INT) BEGIN DECLARE i INT DEFAULT 0; WHILE i < n DO INSERT INTO t VALUES (i, i * i); "
     "SET i = i + 1; END WHILE; END");
  Ok("CREATE FUNCTION sq(x INT) RETURNS INT DETERMINISTIC RETURN x * x");
  Open();  // a new process on the same files
  Ok("USE shop");
  Ok("CALL fill(300)");  // past a page of rows
  EXPECT_EQ(Rows("SELECT COUNT(*), SUM(v) FROM t"), (R{{"300", "8955050"}}));
  EXPECT_EQ(Rows("SELECT sq(12), sq(v) FROM t WHERE id = 3"), (R{{"144", "81"}}));
  EXPECT_EQ(Rows("SHOW PROCEDURE STATUS LIKE 'fi%'").size(), 1u);
  Ok("DROP DATABASE shop");
  Ok("CREATE DATABASE shop");
  Ok("USE shop");
  EXPECT_EQ(ErrorCode("CALL fill(1)"), 1305u);
  EXPECT_EQ(ErrorCode("SELECT sq(2)"), 1305u);
  Ok("CREATE FUNCTION sq(x INT) RETURNS INT RETURN x");  // the name is free again
  EXPECT_EQ(Rows("SELECT sq(2)"), (R{{"2"}}));
}

// Views are kept beside the routines: they outlive the process and go with their database. A
// CREATE OR REPLACE or ALTER that would make a view read itself is refused (1462) and leaves the
// old definition. A write through a view lands in its table. View names keep their case.
TEST_F(RoutineTest, ViewsOutliveTheProcessAndRefuseLoops) {
  Ok("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
  Ok("CREATE VIEW big AS SELECT id, v * 10 AS ten FROM t WHERE v > 1");
  Ok("CREATE VIEW bigger AS SELECT ten FROM big WHERE ten > 25 WITH CASCADED CHECK OPTION");
  Open();  // a new process on the same files
  Ok("USE shop");
  Ok("INSERT INTO t VALUES (1, 1), (2, 2), (3, 3), (4, 4)");
  EXPECT_EQ(Rows("SELECT * FROM bigger"), (R{{"30"}, {"40"}}));
  EXPECT_EQ(Rows("SHOW FULL TABLES"), (R{{"big", "VIEW"}, {"bigger", "VIEW"}, {"t", "BASE TABLE"}}));
  Ok("UPDATE big SET id = id + 10 WHERE ten = 20");
  EXPECT_EQ(Rows("SELECT id FROM t ORDER BY id"), (R{{"1"}, {"3"}, {"4"}, {"12"}}));
  EXPECT_EQ(ErrorCode("CREATE OR REPLACE VIEW big AS SELECT ten AS id, ten FROM bigger"), 1462u);
  EXPECT_EQ(ErrorCode("ALTER VIEW big AS SELECT * FROM big"), 1462u);
  EXPECT_EQ(Rows("SELECT * FROM bigger"), (R{{"30"}, {"40"}}));
  EXPECT_EQ(ErrorCode("SELECT * FROM BIG"), 1146u);
  EXPECT_EQ(ErrorCode("CREATE VIEW Big AS SELECT 1"), 1235u);  // mysql.proc cannot keep both
  Ok("RENAME TABLE big TO large");
  EXPECT_EQ(ErrorCode("SELECT * FROM bigger"), 1356u);  // it reads `big`, gone
  Ok("RENAME TABLE large TO big");
  EXPECT_EQ(Rows("SELECT * FROM bigger"), (R{{"30"}, {"40"}}));
  Ok("DROP DATABASE shop");
  Ok("CREATE DATABASE shop");
  Ok("USE shop");
  EXPECT_EQ(Rows("SHOW TABLES"), R{});
  EXPECT_EQ(ErrorCode("SELECT * FROM big"), 1146u);
}

// The OceanBase experiment's procedure: a commit per loop turn. With routine_async_commit (by
// its OceanBase name) the turns share log syncs, and the CALL still returns only once every
// row is durable: no sync is left to do after it.
TEST_F(RoutineTest, AsyncCommitsInsideARoutineShareSyncsAndAreDurableWhenTheCallReturns) {
  engine::SyncLatencyEnv slow(engine::Env::Default(), std::chrono::milliseconds(1));
  Open(&slow);
  Ok("USE shop");
  Ok("CREATE TABLE t0 (id INT AUTO_INCREMENT PRIMARY KEY, a INT)");
  Ok(R"(CREATE PROCEDURE test()
BEGIN
  DECLARE counter INT DEFAULT 0;
  WHILE counter < 300 DO
    INSERT INTO t0 (a) VALUES (counter);
    commit;
    SET counter = counter + 1;
  END WHILE;
END)");
  std::uint64_t syncs = db_->redo_stats().commit_syncs;
  Ok("call test()");
  const std::uint64_t each_waited = db_->redo_stats().commit_syncs - syncs;
  EXPECT_GE(each_waited, 300u);
  Ok("SET ob_enable_pl_async_commit = ON");
  EXPECT_EQ(Rows("SELECT @@routine_async_commit"), (R{{"1"}}));
  syncs = db_->redo_stats().commit_syncs;
  Ok("call test()");
  EXPECT_LT(db_->redo_stats().commit_syncs - syncs, each_waited / 2);
  EXPECT_TRUE(session_->WaitDurable().ok());
  EXPECT_EQ(Rows("SELECT COUNT(*), SUM(a) FROM t0"), (R{{"600", "89700"}}));
  // Outside a routine the same commits wait, as the variable's name says.
  syncs = db_->redo_stats().commit_syncs;
  Ok("INSERT INTO t0 (a) VALUES (1)");
  EXPECT_EQ(db_->redo_stats().commit_syncs - syncs, 1u);
}

TEST_F(RoutineTest, HandlersAreScopedToTheirBlocks) {
  Ok("CREATE TABLE t (id INT PRIMARY KEY)");
  Ok("INSERT INTO t VALUES (1)");
  Ok(R"(CREATE PROCEDURE p(OUT trail VARCHAR(100))
BEGIN
  DECLARE x INT DEFAULT 1;
  DECLARE CONTINUE HANDLER FOR SQLEXCEPTION SET trail = CONCAT(trail, ' outer');
  SET trail = 'start';
  inner_block: BEGIN
    DECLARE x INT DEFAULT 2;
    DECLARE EXIT HANDLER FOR 1062 SET trail = CONCAT(trail, ' dup', x);
    INSERT INTO t VALUES (1);
    SET trail = CONCAT(trail, ' not reached');
  END inner_block;
  INSERT INTO t VALUES (1);
  SET trail = CONCAT(trail, ' after', x);
  BEGIN
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET trail = CONCAT(trail, ' none');
    SELECT id INTO x FROM t WHERE id = 99;
  END;
  SELECT id INTO x FROM t WHERE id = 99;
END)");
  auto o = Ok("CALL p(@trail)");
  EXPECT_EQ(Rows("SELECT @trail"), (R{{"start dup2 outer after1 none"}}));
  // The NOT FOUND without a handler is a warning, not an error.
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_EQ(o.warnings[0].code, 1329u);
}

TEST_F(RoutineTest, RefusalsNameTheProblemAndChangeNothing) {
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN LEAVE x; END"), 1308u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() l: LOOP ITERATE m; END LOOP"), 1308u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() RETURN 1"), 1313u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN DECLARE a INT; DECLARE a INT; END"), 1331u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN SELECT 1 INTO nosuch; END"), 1327u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN OPEN nosuch; END"), 1324u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN DECLARE CONTINUE HANDLER FOR nosuch SET @a = 1; END"), 1319u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN SELECT 1; DECLARE a INT; END"), 1337u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() l: BEGIN END m"), 1310u);
  EXPECT_EQ(ErrorCode("CREATE FUNCTION f() RETURNS INT BEGIN SELECT 1; RETURN 1; END"), 1415u);
  EXPECT_EQ(ErrorCode("CREATE FUNCTION f() RETURNS INT BEGIN COMMIT; RETURN 1; END"), 1422u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() CREATE PROCEDURE q() SELECT 1"), 1303u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() USE shop"), 1314u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN"), 1064u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE nodb.p() SELECT 1"), 1049u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN DECLARE a INT DEFAULT b; DECLARE b INT; END"), 1327u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p(a INT, a INT) SELECT 1"), 1330u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN DECLARE c CURSOR FOR SELECT 1; DECLARE a INT; END"), 1337u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN DECLARE EXIT HANDLER FOR 1062 SET @a = 1; "
                      "DECLARE c CURSOR FOR SELECT 1; END"),
            1338u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() BEGIN DECLARE EXIT HANDLER FOR 1062 SET @a = 1; "
                      "DECLARE CONTINUE HANDLER FOR 1062 SET @a = 2; END"),
            1413u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() l: BEGIN l: LOOP LEAVE l; END LOOP; END"), 1309u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'a', MESSAGE_TEXT = 'b'"),
            1641u);
  EXPECT_EQ(ErrorCode("CREATE OR REPLACE PROCEDURE IF NOT EXISTS p() SELECT 1"), 1221u);
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() LOCK TABLES t WRITE"), 1314u);
  EXPECT_EQ(ErrorCode("CREATE FUNCTION f() RETURNS INT BEGIN END"), 1320u);
  EXPECT_EQ(Rows("SHOW PROCEDURE STATUS").size(), 0u);
  Ok("CREATE PROCEDURE p() SELECT 1");
  EXPECT_EQ(ErrorCode("CREATE PROCEDURE p() SELECT 2"), 1304u);
  EXPECT_EQ(Rows("CALL p()"), (R{{"1"}}));
  Ok("CREATE OR REPLACE PROCEDURE p() SELECT 2");
  EXPECT_EQ(Rows("CALL p()"), (R{{"2"}}));
  // Recursion is refused as max_sp_recursion_depth = 0 refuses it.
  Ok("CREATE PROCEDURE r(n INT) BEGIN IF n > 0 THEN CALL r(n - 1); END IF; END");
  EXPECT_EQ(ErrorCode("CALL r(0)"), 0u);
  EXPECT_EQ(ErrorCode("CALL r(3)"), 1456u);
  Ok("CREATE FUNCTION fr(n INT) RETURNS INT RETURN IF(n > 0, fr(n - 1), 0)");
  EXPECT_EQ(ErrorCode("SELECT fr(2)"), 1424u);
}

// Bodies nested past the parser's depth are refused with an error, not a crashed stack, and
// so is a loop asked to stop.
TEST_F(RoutineTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "CREATE PROCEDURE deep() ";
  for (int i = 0; i < 5000; ++i) deep += "BEGIN ";
  for (int i = 0; i < 5000; ++i) deep += "END; ";
  deep.resize(deep.size() - 2);
  const unsigned code = ErrorCode(deep);
  EXPECT_TRUE(code == 1436u || code == 1064u) << code;
  std::string ifs = "CREATE PROCEDURE deep_if() ";
  for (int i = 0; i < 3000; ++i) ifs += "IF 1 THEN ";
  ifs += "SET @x = 1;";
  for (int i = 0; i < 3000; ++i) ifs += " END IF;";
  ifs.pop_back();
  EXPECT_NE(ErrorCode(ifs), 0u);
  Ok("CREATE PROCEDURE spin() LOOP SET @spun = 1; END LOOP");
  std::atomic<bool> returned{false};
  std::thread stopper([&] {  // Ctrl-C, as often as it takes to land while the CALL runs
    while (!returned) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      session_->Interrupt();
    }
  });
  EXPECT_EQ(ErrorCode("CALL spin()"), 1317u);
  returned = true;
  stopper.join();
}

}  // namespace
}  // namespace strata::sql
