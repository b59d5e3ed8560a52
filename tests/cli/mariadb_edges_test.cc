// Strict-mode edges compared with a private MariaDB, not with expectations written here: the
// same script goes through `mariadb -B --force --show-warnings` and through `strata sql` with
// the same flags, and both must print the same rows, the same warnings and the same errors at
// the same lines. One server serves the whole suite.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include "tests/util/fixtures.h"
#include "tests/util/private_mariadb.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

using strata::testing::PrivateMariadb;
using strata::testing::RunCommand;
using strata::testing::TempDir;

// What both print, with the differences that are only naming made equal: MySQL 8.0 (whose
// messages Strata writes) names a key 'table.key', MariaDB 'key'.
std::string Normalized(const std::string& text) {
  static const std::regex qualified_key("for key '[^'.]*\\.");
  return std::regex_replace(text, qualified_key, "for key '");
}

// The error lines of stderr (the client also echoes each failed statement there).
std::string Errors(const std::string& err) {
  std::istringstream in(err);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("ERROR ", 0) == 0) out += line + "\n";
  }
  return out;
}

class MariadbEdgesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!PrivateMariadb::Installed()) return;
    dir_ = new TempDir();
    server_ = new PrivateMariadb(dir_->path() / "server");
  }
  static void TearDownTestSuite() {
    delete server_;
    delete dir_;
    server_ = nullptr;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (!server_) GTEST_SKIP() << "needs MariaDB (scripts/install-deps.sh)";
    ASSERT_TRUE(server_->up()) << server_->start_output();
  }

  // Runs `script` (in a fresh database named after the test on both sides) and expects the
  // same output, warnings and errors.
  void ExpectSame(const std::string& script) {
    const std::string db = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string text =
        "DROP DATABASE IF EXISTS " + db + ";\nCREATE DATABASE " + db + ";\nUSE " + db + ";\n" + script;
    const auto file = tmp_.path() / "script.sql";
    std::ofstream(file) << text;
    const auto theirs = server_->Sql("", file, "-B --force --show-warnings");
    const auto ours = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + (tmp_.path() / "d").string() +
                                 " -B --force --show-warnings < " + file.string());
    EXPECT_EQ(Normalized(ours.out), Normalized(theirs.out)) << text;
    EXPECT_EQ(Normalized(Errors(ours.err)), Normalized(Errors(theirs.err))) << ours.err;
    // The client's --force ends with its last statement's status; Strata's with 1 after any error.
    EXPECT_EQ(ours.exit_code, Errors(ours.err).empty() ? 0 : 1) << ours.err;
  }

  TempDir tmp_;
  static TempDir* dir_;
  static PrivateMariadb* server_;
};
TempDir* MariadbEdgesTest::dir_ = nullptr;
PrivateMariadb* MariadbEdgesTest::server_ = nullptr;

// SHOW WARNINGS, its counters and the notes of IF [NOT] EXISTS; a misspelt or read-only
// variable is an error that changes nothing (it used to be set, "used by nothing"); an unknown
// database is 1049 wherever it is named (SHOW TABLES FROM printed nothing).
TEST_F(MariadbEdgesTest, WarningsVariablesAndUnknownDatabases) {
  ExpectSame(R"(CREATE TABLE t (id INT PRIMARY KEY);
INSERT IGNORE INTO t VALUES (1),(1),(2),(2);
SHOW WARNINGS;
SHOW COUNT(*) WARNINGS;
SELECT @@warning_count, @@error_count;
SELECT COUNT(*) FROM t;
SET GLOBAL innodb_flush_log_at_trx_commt = 0;
SET SESSION nosuch=1;
SET @@nosuch=1;
SET nosuch=1;
SELECT @@nosuch;
SHOW ERRORS;
SET FOREIGN_KEY_CHECKS=0, UNIQUE_CHECKS=0, nosuch=1;
SELECT @@foreign_key_checks, @@unique_checks;
SET FOREIGN_KEY_CHECKS=0, UNIQUE_CHECKS=OFF;
SELECT @@foreign_key_checks, @@unique_checks;
SET unique_checks=2;
SET autocommit=5;
SET @@version='x';
SET warning_count=1;
SET GLOBAL innodb_flush_log_at_trx_commit=7;
SET GLOBAL innodb_flush_log_at_trx_commit=1;
SHOW TABLES FROM nosuchdb;
SHOW TABLES IN nosuchdb;
SHOW TABLE STATUS FROM nosuchdb;
USE nosuchdb;
SHOW ERRORS;
DROP TABLE IF EXISTS nosuch;
CREATE TABLE IF NOT EXISTS t (id INT PRIMARY KEY);
DROP DATABASE IF EXISTS nosuchdb;
SHOW WARNINGS;
)");
}

// The mysql client sends what it holds at the end of its input: a last statement without its
// delimiter runs, also when an unterminated comment follows it (it used to vanish, exit 0).
TEST_F(MariadbEdgesTest, TheLastStatementRunsWithoutItsDelimiter) {
  ExpectSame("SELECT 1;\nSELECT 2 /* a comment left open\n");
  ExpectSame("SELECT 3;\nSELECT 4");
}

}  // namespace
