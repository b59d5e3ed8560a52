// `strata gen dump`: the file loads into Strata for every key strategy, and a private MariaDB
// (scripts/mariadb/server.sh) loads it to the same rows, in the same key order.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>

#include "tests/util/fixtures.h"
#include "tests/util/private_mariadb.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

using strata::testing::PrivateMariadb;
using strata::testing::RunCommand;
using strata::testing::Strata;
using strata::testing::TempDir;
namespace fs = std::filesystem;

TEST(GenCliTest, EveryStrategysDumpImports) {
  TempDir tmp;
  for (const std::string keys :
       {"seq", "autoinc", "uuid", "uuid-bin", "ulid", "uuid7", "uuid7-bin", "uuid1-swap-bin"}) {
    const std::string dump = (tmp.path() / (keys + ".sql.gz")).string();
    const auto gen = Strata(
        fmt::format("gen dump --rows 3000 --keys {} --shape sbtest --net-buffer-length 20000 -o {}", keys, dump));
    ASSERT_EQ(gen.exit_code, 0) << gen.err;
    const std::string dir = (tmp.path() / keys).string();
    // No --database: the dump has no USE (as mysqldump of one database), its header names `test`.
    const auto imp = Strata("import " + dump + " --datadir " + dir);
    ASSERT_EQ(imp.exit_code, 0) << keys << ": " << imp.err;
    EXPECT_NE(imp.out.find("Loaded into `test`, the database the dump's header names"), std::string::npos) << imp.out;
    std::string table = "innodb_" + keys;
    std::replace(table.begin(), table.end(), '-', '_');
    const auto count = Strata("sql --datadir " + dir + " test -N -e 'SELECT COUNT(*) FROM " + table + "'");
    EXPECT_EQ(count.out, "3000\n") << keys << ": " << count.err;
  }
}

TEST(GenCliTest, TheHeadersDatabaseOrTheOneGivenReceivesTheDump) {
  TempDir tmp;
  const std::string dump = (tmp.path() / "shop.sql").string();
  ASSERT_EQ(Strata("gen dump --rows 100 --keys seq --database shop -o " + dump).exit_code, 0);
  const std::string dir = (tmp.path() / "d").string();
  ASSERT_EQ(Strata("import " + dump + " --datadir " + dir).exit_code, 0);
  EXPECT_EQ(Strata("sql --datadir " + dir + " shop -N -e 'SELECT COUNT(*) FROM innodb_seq'").out, "100\n");
  const auto given = Strata("import " + dump + " --datadir " + dir + " --database other");
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(given.out.find("the dump's header names"), std::string::npos) << given.out;
  EXPECT_EQ(Strata("sql --datadir " + dir + " other -N -e 'SELECT COUNT(*) FROM innodb_seq'").out, "100\n");
}

TEST(GenCliTest, BadArgumentsAreUsageErrors) {
  EXPECT_EQ(Strata("gen dump --rows 10 --keys uuid9 -o /dev/null").exit_code, 2);
  EXPECT_EQ(Strata("gen dump --rows 10 --keys uuid --shape wide -o /dev/null").exit_code, 2);
  // Names no server would load, or that would break out of the header's comments.
  for (const char* name : {"'trail '", "a.b", "''", "\"$(printf 'x\\nDROP DATABASE test')\"", "a/b"}) {
    EXPECT_EQ(Strata(std::string("gen dump --rows 10 --keys seq --database ") + name + " -o /dev/null").exit_code, 2)
        << name;
    EXPECT_EQ(Strata(std::string("gen dump --rows 10 --keys seq --table ") + name + " -o /dev/null").exit_code,
              std::string(name) == "''" ? 0 : 2)
        << name;  // an empty --table is the default name
  }
  const auto r = Strata("gen dump --rows 10 --keys uuid -o /nonexistent/dir/x.sql");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/dir/x.sql"), std::string::npos) << r.err;
}

// The MariaDB client loads the dump, and every row (key in hex, k, c, pad, in key order) is
// the same there as in Strata after `strata import`.
TEST(GenCliTest, MariadbLoadsTheSameRows) {
  if (!PrivateMariadb::Installed())
    GTEST_SKIP() << "needs mariadb-client and mariadb-server-core (scripts/install-deps.sh)";
  TempDir tmp;
  const PrivateMariadb mariadb(tmp.path() / "server");
  ASSERT_TRUE(mariadb.up()) << mariadb.start_output();
  const fs::path server = fs::path(STRATA_SOURCE_DIR) / "scripts/mariadb/server.sh";
  const std::string sdir = mariadb.dir();
  for (const std::string keys : {"uuid", "uuid7-bin"}) {
    const std::string dump = (tmp.path() / (keys + ".sql")).string();
    ASSERT_EQ(
        Strata(fmt::format("gen dump --rows 2000 --keys {} --shape sbtest --net-buffer-length 30000 -o {}", keys, dump))
            .exit_code,
        0);
    std::string table = "innodb_" + keys;
    std::replace(table.begin(), table.end(), '-', '_');
    const std::string query = "SELECT HEX(id), k, c, pad FROM " + table + " ORDER BY id";
    const auto load =
        RunCommand(fmt::format("echo 'CREATE DATABASE IF NOT EXISTS test' | {0} sql {1} && {0} sql {1} test < {2} 2>&1",
                               server.string(), sdir, dump));
    ASSERT_EQ(load.exit_code, 0) << load.out;
    const auto theirs = RunCommand(fmt::format("echo '{}' | {} sql {} test -B", query, server.string(), sdir));
    ASSERT_EQ(theirs.exit_code, 0) << theirs.err;
    const std::string dir = (tmp.path() / keys).string();
    ASSERT_EQ(Strata("import " + dump + " --datadir " + dir + " --database test").exit_code, 0);
    const auto ours = Strata("sql --datadir " + dir + " test -B -e '" + query + "'");
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_EQ(std::count(theirs.out.begin(), theirs.out.end(), '\n'), 2001) << keys;
    EXPECT_TRUE(ours.out == theirs.out) << keys << ": Strata's rows differ from MariaDB's";
  }
  // mariadb-dump of the loaded table writes the whole dump byte for byte as `gen dump` did,
  // comments aside: the CREATE TABLE with its next AUTO_INCREMENT, a row to a line, and a new
  // statement at the same rows (keys in order, so that its primary-key order is the
  // generator's). Its first line, MariaDB's sandbox-mode marker, is left out on purpose: the
  // MySQL client refuses it.
  auto without_comments = [](const std::string& file) {
    return RunCommand("grep -v -e '^-- ' -e '^/\\*M!999999' " + file);
  };
  const std::string dump = (tmp.path() / "autoinc.sql").string();
  ASSERT_EQ(Strata("gen dump --rows 3000 --keys autoinc --shape sbtest --net-buffer-length 30720 -o " + dump).exit_code,
            0);
  const auto load = RunCommand(fmt::format("{} sql {} test < {} 2>&1", server.string(), sdir, dump));
  ASSERT_EQ(load.exit_code, 0) << load.out;
  const std::string their_dump = (tmp.path() / "theirs.sql").string();
  const auto dumped = RunCommand(fmt::format(
      "mariadb-dump --defaults-file={}/my.cnf --net-buffer-length=30720 --hex-blob test innodb_autoinc > {}", sdir,
      their_dump));
  ASSERT_EQ(dumped.exit_code, 0) << dumped.err;
  const auto ours = without_comments(dump), theirs = without_comments(their_dump);
  EXPECT_GT(std::count(ours.out.begin(), ours.out.end(), ';'), 25) << "the rows should need several statements";
  EXPECT_TRUE(ours.out == theirs.out) << "gen dump differs from mariadb-dump:\n"
                                      << RunCommand("diff " + dump + " " + their_dump).out;

  // Binary keys in hex as --hex-blob writes them (capitals), and a table name that needs its
  // backtick doubled: the same rows, line for line, once sorted (the server dumps in key order).
  const std::string bin = (tmp.path() / "bin.sql").string();
  ASSERT_EQ(Strata("gen dump --rows 500 --keys uuid-bin --table 'odd`name' -o " + bin).exit_code, 0);
  ASSERT_EQ(RunCommand(fmt::format("{} sql {} test < {} 2>&1", server.string(), sdir, bin)).exit_code, 0);
  const std::string their_bin = (tmp.path() / "theirs_bin.sql").string();
  ASSERT_EQ(
      RunCommand(fmt::format("mariadb-dump --defaults-file={}/my.cnf --hex-blob test 'odd`name' > {}", sdir, their_bin))
          .exit_code,
      0);
  auto sorted_rows = [](const std::string& file) {
    return RunCommand("grep '^(0x' " + file + " | sed 's/[,;]$//' | sort").out;
  };
  const std::string our_rows = sorted_rows(bin), their_rows = sorted_rows(their_bin);
  EXPECT_EQ(std::count(our_rows.begin(), our_rows.end(), '\n'), 500);
  EXPECT_TRUE(our_rows == their_rows) << "binary keys are written unlike mariadb-dump --hex-blob";
  const std::string dir = (tmp.path() / "bin").string();
  ASSERT_EQ(Strata("import " + bin + " --datadir " + dir).exit_code, 0);
  EXPECT_EQ(Strata("sql --datadir " + dir + " test -N -e 'SELECT COUNT(*) FROM `odd``name`'").out, "500\n");
}

}  // namespace
