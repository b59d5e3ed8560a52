// The fixture of the suites that compare Strata with a private MariaDB (mariadb_edges_test.cc
// for values and types, mariadb_statements_test.cc for statements and stored programs): the
// same script goes through `mariadb -B --force --show-warnings` and through `strata sql` with
// the same flags, and both must print the same rows, warnings and errors at the same lines.
// One server serves the whole suite, whichever file its tests are in.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "tests/util/fixtures.h"
#include "tests/util/private_mariadb.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace strata::testing {

// What both print, with the differences that are only naming made equal: MySQL 8.0 (whose
// messages Strata writes) names a key 'table.key', MariaDB 'key'; MariaDB's messages name a
// column `db`.`table`.`c` where MySQL 8.0 writes 'c', and give 1366 SQLSTATE 22007 where
// MySQL 8.0 gives HY000.
inline std::string Normalized(const std::string& text) {
  static const std::regex qualified_key("for key '[^'.]*\\.");
  static const std::regex qualified_column("for column `[^`]*`\\.`[^`]*`\\.`([^`]*)`");
  static const std::regex state_1366("ERROR 1366 \\(22007\\)");
  static const std::regex server_version("MariaDB server version");
  static const std::regex work_table("`#sql-alter-[0-9a-f]+-[0-9a-f]+`");
  std::string out = std::regex_replace(text, qualified_key, "for key '");
  out = std::regex_replace(out, server_version, "MySQL server version");
  out = std::regex_replace(out, work_table, "`#sql-alter`");  // an ALTER's work table, named per server
  out = std::regex_replace(out, qualified_column, "for column '$1'");
  return std::regex_replace(out, state_1366, "ERROR 1366 (HY000)");
}

// The error lines of stderr (the client also echoes each failed statement there); with
// `codes_only`, only "ERROR 1264 at line 5": Strata words its messages and SQLSTATEs as MySQL
// 8.0 does, which differ from MariaDB's in places (1366 is HY000 there, 22007 here).
inline std::string Errors(const std::string& err, bool codes_only = false) {
  static const std::regex state_and_message("^(ERROR [0-9]+) \\([0-9A-Z]+\\)( at line [0-9]+).*$");
  std::istringstream in(err);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("ERROR ", 0) != 0) continue;
    out += (codes_only ? std::regex_replace(line, state_and_message, "$1$2") : line) + "\n";
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
  // same output, warnings and errors; with `codes_only`, the same output and error codes (no
  // warnings printed: count them with @@warning_count).
  void ExpectSame(const std::string& script, bool codes_only = false) {
    const std::string db = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string text =
        "DROP DATABASE IF EXISTS " + db + ";\nCREATE DATABASE " + db + ";\nUSE " + db + ";\n" + script;
    const auto file = tmp_.path() / "script.sql";
    std::ofstream(file) << text;
    const std::string flags = codes_only ? "-B --force" : "-B --force --show-warnings";
    const auto theirs = server_->Sql("", file, flags);
    const auto ours = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + (tmp_.path() / "d").string() + " " +
                                 flags + " < " + file.string());
    EXPECT_EQ(Normalized(ours.out), Normalized(theirs.out)) << text;
    EXPECT_EQ(Normalized(Errors(ours.err, codes_only)), Normalized(Errors(theirs.err, codes_only))) << ours.err;
    // The client's --force ends with its last statement's status; Strata's with 1 after any error.
    EXPECT_EQ(ours.exit_code, Errors(ours.err).empty() ? 0 : 1) << ours.err;
  }

  TempDir tmp_;
  inline static TempDir* dir_ = nullptr;
  inline static PrivateMariadb* server_ = nullptr;
};

}  // namespace strata::testing
