// ALTER TABLE ... ALGORITHM=INSTANT ADD/DROP COLUMN as a user runs it: the ibdNinja scripts
// that made MySQL 8.0.40's and 8.4's instant_add_col and instant_add_drop tablespaces, run in
// `strata sql`, leave records in the same row versions with the same bytes below their headers
// and the same field values (transaction ids, roll pointers and NOW() aside); `inspect rows`
// of the file prints what SELECT * prints; refusals name why.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/mariadb_edges.h"
#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace strata::testing {
namespace {

namespace fs = std::filesystem;

// Each leaf record of page 4 (every table here fits its root) as `inspect page --records`
// reads it: its row version, the bytes below its header, and its fields but those that differ
// between any two runs (system fields, times).
std::vector<std::string> Records(const fs::path& ibd) {
  CommandResult r = Strata("inspect page 4 --records --json " + ibd.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  std::vector<std::string> out;
  if (j.is_discarded()) return out;
  for (const auto& rec : j["files"][0]["records"]) {
    std::string line = rec["row_version"].dump() + " " + rec["extra"].get<std::string>() + " |";
    for (const auto& f : rec["fields"]) {
      const std::string name = f["name"];
      if (name == "DB_TRX_ID" || name == "DB_ROLL_PTR" || name.find("datetime") != std::string::npos) continue;
      line += " " + name + "=" + f["value"].get<std::string>();
    }
    out.push_back(line);
  }
  return out;
}

CommandResult Sql(const fs::path& datadir, const std::string& script, const fs::path& tmp) {
  const fs::path file = tmp / "script.sql";
  std::ofstream(file) << script;
  return RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + datadir.string() + " -B --force < " +
                    file.string());
}

std::string ReadScript(const std::string& name) {
  std::ifstream in(TestDataDir() / "ibdninja" / "sql" / name);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(InstantAlterCliTest, ScriptsLeaveTheRecordsMySqlLeaves) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "d";
  const auto made = Sql(
      dir,
      "CREATE DATABASE n; USE n;\n" + ReadScript("03_instant_add_column.sql") + ReadScript("08_instant_add_drop.sql"),
      tmp.path());
  ASSERT_EQ(made.exit_code, 0) << made.err;
  for (const char* table : {"instant_add_col", "instant_add_drop"}) {
    const fs::path ours = dir / "n" / (std::string(table) + ".ibd");
    const std::vector<std::string> records = Records(ours);
    EXPECT_EQ(records.size(), std::string(table) == "instant_add_col" ? 5u : 3u);
    for (const char* version : {"8.0", "8.4"}) {
      const fs::path theirs = SharedFixturesDir() / "external" / "ibdNinja" / version / (std::string(table) + ".ibd");
      EXPECT_EQ(records, Records(theirs)) << table << " against MySQL " << version;
    }
    const auto rows = Strata("inspect rows " + ours.string());
    EXPECT_EQ(rows.exit_code, 0) << rows.err;
    const auto selected = Sql(dir, std::string("SELECT * FROM n.") + table + ";", tmp.path());
    EXPECT_EQ(rows.out, selected.out) << table;
  }
  // The rows MySQL itself printed for the table whose values do not depend on the clock.
  std::ifstream truth(TestDataDir() / "ibdninja" / "truth" / "instant_add_col.tsv");
  EXPECT_EQ(Sql(dir, "SELECT * FROM n.instant_add_col;", tmp.path()).out,
            std::string(std::istreambuf_iterator<char>(truth), {}));
}

// What cannot be done instantly is refused with the reason, and the table is as it was; without
// ALGORITHM= the same statement copies the table instead; after 64 versions only a rebuild
// (which starts the versions again) adds a column.
TEST(InstantAlterCliTest, RefusalsNameTheReasonAndChangeNothing) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "d";
  std::string script =
      "CREATE DATABASE n; USE n;\n"
      "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY (b));\n"
      "INSERT INTO t VALUES (1, 1, 1), (2, 2, 2);\n"
      "ALTER TABLE t DROP COLUMN b, ALGORITHM=INSTANT;\n"
      "ALTER TABLE t MODIFY a BIGINT, ADD COLUMN c INT, ALGORITHM=INSTANT;\n"
      "ALTER TABLE t ADD COLUMN d INT AUTO_INCREMENT UNIQUE, ALGORITHM=INSTANT;\n";
  for (int i = 0; i < 32; ++i)
    script += "ALTER TABLE t ADD COLUMN x INT DEFAULT " + std::to_string(i) +
              ", ALGORITHM=INSTANT;\nALTER TABLE t DROP COLUMN x, ALGORITHM=INSTANT;\n";
  script +=
      "ALTER TABLE t ADD COLUMN y INT, ALGORITHM=INSTANT;\n"
      "ALTER TABLE t ADD COLUMN y INT;\n"
      "ALTER TABLE t ADD COLUMN z INT, ALGORITHM=INSTANT;\n"
      "SELECT * FROM t;\n";
  const auto r = Sql(dir, script, tmp.path());
  EXPECT_NE(r.err.find("ERROR 1846 (0A000) at line 4: ALGORITHM=INSTANT is not supported. Reason: an instant ALTER "
                       "keeps the indexes as they are. Try ALGORITHM=COPY"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("ERROR 1846 (0A000) at line 5: ALGORITHM=INSTANT is not supported. Reason: column a changes "
                       "its definition. Try ALGORITHM=COPY"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("ERROR 1845 (0A000) at line 6:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ERROR 1846 (0A000) at line 71: ALGORITHM=INSTANT is not supported. Reason: Maximum row "
                       "versions reached for table n/t. No more columns can be added or dropped instantly. Try "
                       "ALGORITHM=COPY"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("at line 72"), std::string::npos) << r.err;  // the copy starts again from version 0
  EXPECT_EQ(r.err.find("at line 73"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "id\ta\tb\ty\tz\n1\t1\t1\tNULL\tNULL\n2\t2\t2\tNULL\tNULL\n");
}

// The same instant ALTERs on the private MariaDB (which also adds and drops columns in place):
// rows and CHECKSUM TABLE after them, with rows of every version updated,
// deleted and inserted between them.
TEST_F(MariadbEdgesTest, InstantColumnChangesKeepEveryRow) {
  std::string script = R"SQL(CREATE TABLE t (id INT PRIMARY KEY, a INT, v VARCHAR(30), KEY (v));
INSERT INTO t VALUES (1,10,'one'),(2,20,'two'),(3,NULL,'three'),(4,40,NULL);
CHECKSUM TABLE t;
ALTER TABLE t ADD COLUMN d DATE DEFAULT '2020-02-29', ADD COLUMN c CHAR(5) NOT NULL DEFAULT 'ab' AFTER id, ALGORITHM=INSTANT;
ALTER TABLE t ADD COLUMN e ENUM('x','y','z') DEFAULT 'y' FIRST, ADD COLUMN s SET('p','q') NOT NULL DEFAULT 'p,q', ADD COLUMN m DECIMAL(8,3) DEFAULT -1.5;
SELECT * FROM t; CHECKSUM TABLE t;
INSERT INTO t VALUES ('z',5,'new',50,'five','2021-01-01','q',2.25);
UPDATE t SET v = 'ONE' WHERE id = 1;
UPDATE t SET m = 9.125, c = 'zz' WHERE id = 2;
DELETE FROM t WHERE id = 3;
ALTER TABLE t DROP COLUMN a, ALGORITHM=INSTANT;
SELECT * FROM t; CHECKSUM TABLE t;
ALTER TABLE t ADD COLUMN a BIGINT UNSIGNED NOT NULL, DROP COLUMN d;
INSERT INTO t (id, v) VALUES (6, 'six');
UPDATE t SET a = id * 1000 WHERE id IN (1, 6);
ALTER TABLE t RENAME COLUMN v TO w, ALTER COLUMN m SET DEFAULT 0, ADD COLUMN z TEXT, ALGORITHM=INSTANT;
SELECT * FROM t; SELECT id, w FROM t WHERE w > 'f' ORDER BY w; CHECKSUM TABLE t;
ALTER TABLE t FORCE;
SELECT * FROM t; CHECKSUM TABLE t;
)SQL";
  ExpectSame(script);
}

}  // namespace
}  // namespace strata::testing
