// More tables than the process may hold open (ulimit -n): tablespaces are opened on demand and
// the least recently used closed (innodb_open_files). One file descriptor per table for the
// life of the process made such a directory unopenable.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "tests/util/fixtures.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

using strata::testing::RunCommand;
using strata::testing::TempDir;

constexpr int kTables = 600;

// `strata sql ARGS < script` with at most `fds` descriptors for the whole process.
strata::testing::CommandResult SqlUnderUlimit(int fds, const std::string& args, const std::filesystem::path& script) {
  return RunCommand(fmt::format("ulimit -n {} && {} sql {} < {}", fds, STRATA_BINARY, args, script.string()));
}

TEST(OpenFilesTest, MoreTablesThanUlimitAllowsAreCreatedWrittenAndReadBack) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  const auto create = tmp.path() / "create.sql";
  {
    std::ofstream s(create);
    s << "CREATE DATABASE m; USE m;\n";
    for (int t = 0; t < kTables; ++t) s << fmt::format("CREATE TABLE t{} (id INT PRIMARY KEY, v VARCHAR(200));\n", t);
    // Rows in every table, round after round: each round touches every file again.
    for (int round = 0; round < 3; ++round) {
      for (int t = 0; t < kTables; ++t) s << fmt::format("INSERT INTO t{} VALUES ({}, REPEAT('x', 200));\n", t, round);
    }
  }
  auto made = SqlUnderUlimit(256, "--datadir " + dir, create);
  ASSERT_EQ(made.exit_code, 0) << made.err;

  // Reopened (every table's file is checked at open) with a smaller limit still, more rows in
  // tables far apart, then every table counted.
  const auto check = tmp.path() / "check.sql";
  {
    std::ofstream s(check);
    s << "USE m;\n";
    for (int t = 0; t < kTables; t += 7) s << fmt::format("INSERT INTO t{} VALUES (100, 'more');\n", t);
    for (int t = 0; t < kTables; ++t) s << fmt::format("SELECT {}, COUNT(*) FROM t{};\n", t, t);
  }
  auto read = SqlUnderUlimit(64, "--datadir " + dir + " --open-files 10 -N", check);
  ASSERT_EQ(read.exit_code, 0) << read.err;
  std::string expected;
  for (int t = 0; t < kTables; ++t) expected += fmt::format("{}\t{}\n", t, t % 7 == 0 ? 4 : 3);
  EXPECT_EQ(read.out, expected);

  // The files are whole: the inspector finds no damage.
  auto checked = RunCommand(std::string(STRATA_BINARY) + " inspect check " + dir);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
}

// A table whose file was deleted is refused by name and the rest opens (the whole directory
// was refused: the missing file came back as an I/O error, not as missing).
TEST(OpenFilesTest, AMissingTableFileFailsThatTableAlone) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  auto made =
      RunCommand(fmt::format("{} sql --datadir {} -e \"CREATE DATABASE m; CREATE TABLE m.a (id INT PRIMARY KEY); "
                             "CREATE TABLE m.b (id INT PRIMARY KEY); INSERT INTO m.b VALUES (7)\"",
                             STRATA_BINARY, dir));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  std::filesystem::remove(tmp.path() / "d" / "m" / "a.ibd");
  auto b = RunCommand(fmt::format("{} sql --datadir {} -N -e \"SELECT id FROM m.b\"", STRATA_BINARY, dir));
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(b.out, "7\n");
  EXPECT_NE(b.err.find("a.ibd"), std::string::npos) << b.err;
  auto a = RunCommand(fmt::format("{} sql --datadir {} -N -e \"SELECT id FROM m.a\"", STRATA_BINARY, dir));
  EXPECT_EQ(a.exit_code, 1);
  EXPECT_NE(a.err.find("ERROR"), std::string::npos) << a.err;
}

}  // namespace
