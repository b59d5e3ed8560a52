// `strata sql` and `strata import` as users run them: a real mariadb-dump file, scripts with
// errors, the interactive shell on a terminal, and output read while statements still come.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>

#include "tests/util/fixtures.h"
#include "tests/util/private_mariadb.h"
#include "tests/util/run_command.h"
#include "tests/util/tsv.h"

namespace {

using strata::testing::RunCommand;
using strata::testing::Strata;
using strata::testing::TempDir;

const std::filesystem::path kDump = strata::testing::TestDataDir() / "mariadb-dump";

struct Truth {
  std::string table, rows, sha256, order_by;
};

// truth/checksums.tsv: the server's own sha256 of `SELECT * ... ORDER BY pk` (batch output).
std::vector<Truth> ServerChecksums() {
  std::ifstream in(kDump / "truth" / "checksums.tsv");
  std::vector<Truth> out;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream f(line);
    Truth t;
    std::getline(f, t.table, '\t');
    std::getline(f, t.rows, '\t');
    std::getline(f, t.sha256, '\t');
    std::getline(f, t.order_by, '\t');
    out.push_back(t);
  }
  return out;
}

// The same query through `strata sql` in batch mode, hashed the same way.
void ExpectServerChecksums(const std::string& datadir) {
  const auto truth = ServerChecksums();
  ASSERT_EQ(truth.size(), 7u);
  for (const Truth& t : truth) {
    std::string order;
    std::istringstream cols(t.order_by);
    for (std::string c; std::getline(cols, c, ',');) order += (order.empty() ? "`" : ", `") + c + "`";
    const auto r = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + datadir +
                              " dumptest -e 'SELECT * FROM `" + t.table + "` ORDER BY " + order + "' | sha256sum");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, 64), t.sha256) << "table " << t.table;
    const auto count = Strata("sql --datadir " + datadir + " dumptest -N -e 'SELECT COUNT(*) FROM `" + t.table + "`'");
    EXPECT_EQ(count.out, t.rows + "\n") << t.table;
  }
}

TEST(SqlCliTest, RealMariadbDumpThroughSqlMatchesTheServer) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  auto r = RunCommand("zcat " + (kDump / "dump.sql.gz").string() + " | " + STRATA_BINARY + " sql --datadir " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectServerChecksums(dir);
}

TEST(SqlCliTest, RealMariadbDumpThroughImportMatchesTheServer) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  auto r = Strata("import " + (kDump / "dump.sql.gz").string() + " --datadir " + dir + " --threads 2");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Imported 100187 rows into 7 tables"), std::string::npos) << r.out;
  ExpectServerChecksums(dir);
  auto check = Strata("inspect check " + dir + "/dumptest/big.ibd");
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

// Collations decide which keys are duplicates and which rows a WHERE finds: the same script
// through the MariaDB client and through `strata sql` and `strata import` prints the same
// thing (a _bin key holds 'a' and 'A'; a _ci one refuses the second with 1062; a collation
// Strata does not compare by is refused, not read as another; PAD SPACE puts "a\t" before "a"; COLLATE binary makes VARBINARY, where 'a ' is not 'a').
TEST(SqlCliTest, CollationsCompareAsMariadbDoes) {
  if (!strata::testing::PrivateMariadb::Installed()) GTEST_SKIP() << "needs MariaDB (scripts/install-deps.sh)";
  TempDir tmp;
  const auto script = tmp.path() / "collations.sql";
  std::ofstream(script) << R"(CREATE DATABASE coll;
USE coll;
CREATE TABLE bin_col (v VARCHAR(10) COLLATE utf8mb4_bin PRIMARY KEY, n INT);
INSERT INTO bin_col VALUES ('a', 1), ('A', 2), ('b ', 3), ('B', 4);
CREATE TABLE bin_table (v VARCHAR(10) PRIMARY KEY, w VARCHAR(10) CHARACTER SET latin1, KEY (w))
  DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO bin_table VALUES ('x', 'p'), ('X', 'P');
CREATE TABLE ci (v VARCHAR(10) PRIMARY KEY) COLLATE utf8mb4_general_ci;
INSERT INTO ci VALUES ('q');
SELECT v, n FROM bin_col ORDER BY v;
SELECT n FROM bin_col WHERE v = 'a';
SELECT n FROM bin_col WHERE v = 'b';
SELECT n FROM bin_col WHERE v LIKE 'a%';
SELECT n FROM bin_col WHERE v IN ('A', 'B') ORDER BY n;
SELECT v FROM bin_table WHERE v = 'x';
SELECT COUNT(*) FROM bin_table WHERE w = 'p';
SELECT COUNT(*) FROM ci WHERE v = 'Q';
CREATE TABLE pad_bin (k VARCHAR(10) COLLATE utf8mb4_bin PRIMARY KEY);
INSERT INTO pad_bin VALUES ('a'), ('a\t'), ('a~'), ('a \t');
CREATE TABLE pad_ci (k VARCHAR(10) PRIMARY KEY, KEY (k));
INSERT INTO pad_ci VALUES ('B'), ('b\t'), ('b~'), ('b \t');
SELECT HEX(k) FROM pad_bin ORDER BY k;
SELECT HEX(MIN(k)) FROM pad_bin;
SELECT COUNT(*) FROM pad_bin WHERE k < 'a';
SELECT HEX(k) FROM pad_ci ORDER BY k;
SELECT COUNT(*) FROM pad_ci WHERE k > 'b';
CREATE TABLE vb (v VARCHAR(5) COLLATE binary PRIMARY KEY, c CHAR(3) CHARACTER SET binary);
INSERT INTO vb VALUES ('a', 'x'), ('a ', 'x');
SELECT HEX(v), HEX(c) FROM vb ORDER BY v;
INSERT INTO ci VALUES ('Q');
)";
  const auto refused = tmp.path() / "refused.sql";
  std::ofstream(refused)
      << "USE coll;\nCREATE TABLE latin_mix (v VARCHAR(3) CHARACTER SET latin1 COLLATE utf8mb4_bin);\n";

  const strata::testing::PrivateMariadb mariadb(tmp.path() / "server");
  ASSERT_TRUE(mariadb.up()) << mariadb.start_output();
  const auto theirs = mariadb.Sql("", script, "-B");
  const auto theirs_refused = mariadb.Sql("", refused, "-B");
  const std::string dir = (tmp.path() / "d").string();
  const auto ours = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + dir + " -B < " + script.string());
  const auto ours_refused =
      RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + dir + " -B < " + refused.string());
  EXPECT_EQ(ours.out, theirs.out);
  EXPECT_EQ(ours.exit_code, theirs.exit_code);
  // The same error at the same line (the key's name is written differently: ci.PRIMARY).
  const std::string duplicate = "ERROR 1062 (23000) at line 30: Duplicate entry 'Q' for key '";
  EXPECT_NE(theirs.err.find(duplicate), std::string::npos) << theirs.err;
  EXPECT_NE(ours.err.find(duplicate), std::string::npos) << ours.err;
  const std::string mismatch =
      "ERROR 1253 (42000) at line 2: COLLATION 'utf8mb4_bin' is not valid for CHARACTER SET 'latin1'";
  EXPECT_NE(theirs_refused.err.find(mismatch), std::string::npos) << theirs_refused.err;
  EXPECT_NE(ours_refused.err.find(mismatch), std::string::npos) << ours_refused.err;

  // Through import's bulk load, the keys sort and clash the same way.
  const std::string imported = (tmp.path() / "i").string();
  const auto imp = Strata("import " + script.string() + " --datadir " + imported);
  EXPECT_NE(imp.err.find("ERROR 1062"), std::string::npos) << imp.out << imp.err;
  EXPECT_EQ(Strata("sql --datadir " + imported + " coll -N -e 'SELECT v FROM bin_col ORDER BY v'").out,
            "A\nB\na\nb \n");
  EXPECT_EQ(
      Strata("sql --datadir " + imported + " -N -e 'CREATE TABLE coll.k (v CHAR(2) COLLATE utf8mb4_klingon_ci)'").err,
      "ERROR 1273 (HY000) at line 1: Unknown collation: 'utf8mb4_klingon_ci' (Strata compares text by utf8mb4's "
      "general_ci, unicode_ci, unicode_520_ci, uca1400_ai_ci, their _nopad_ forms, 0900_ai_ci and bin, "
      "latin1's swedish_ci and bin)\n");
}

TEST(SqlCliTest, ImportWithRedoDisabledSaysSoAndEnablesItAgain) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  auto r = Strata("import " + (kDump / "dump.sql.gz").string() + " --datadir " + dir + " --disable-redo");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("redo logging disabled"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("redo logging enabled again"), std::string::npos) << r.err;
  auto s = Strata("sql --datadir " + dir + " -N -e \"SHOW GLOBAL STATUS LIKE 'Innodb_redo_log_enabled'\"");
  EXPECT_EQ(s.out, "Innodb_redo_log_enabled\tON\n") << s.err;
  ExpectServerChecksums(dir);
}

// A data directory on a read-only mount (a snapshot, a backup): --read-only (and
// --force-recovery 6) opens it, reads, refuses changes and writes nothing; a log that needs
// crash recovery is refused by name, since replaying it would write. Before, nothing opened it,
// not even --force-recovery 6. The mount is made in a private mount namespace (root only).
TEST(SqlCliTest, AReadOnlyMountOpensReadOnly) {
  if (::geteuid() != 0 || strata::testing::RunCommand("unshare -m true").exit_code != 0)
    GTEST_SKIP() << "needs root and mount namespaces for a read-only mount";
  TempDir tmp;
  const auto src = tmp.path() / "src";
  const std::string clean = (src / "clean").string(), crashed = (src / "crashed").string();
  ASSERT_EQ(Strata("sql --datadir " + clean +
                   " -e 'CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY); INSERT INTO d.t VALUES (1),(2)'")
                .exit_code,
            0);
  // Killed after its INSERT was acknowledged: the log holds it past the checkpoint.
  strata::testing::RunCommand(fmt::format(
      "(printf 'CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY); INSERT INTO d.t VALUES (7); SELECT 42;\n'; "
      "sleep 4) | {} sql --datadir {} > {}.out & "
      "for i in $(seq 50); do grep -q 42 {}.out 2>/dev/null && break; sleep 0.1; done; "
      "pkill -9 -f 'sql --datadir {}$'; wait",
      STRATA_BINARY, crashed, crashed, crashed, crashed));
  const std::string before =
      strata::testing::RunCommand("cd " + src.string() + " && find . -type f | sort | xargs sha256sum").out;
  const auto ro = tmp.path() / "ro";
  std::filesystem::create_directories(ro);
  // Each command runs in its own namespace, with `src` mounted read-only at `ro`.
  auto on_ro = [&](const std::string& args) {
    return strata::testing::RunCommand(
        fmt::format("unshare -m sh -c 'mount --bind {} {} && mount -o remount,ro,bind {} && {} {}'", src.string(),
                    ro.string(), ro.string(), STRATA_BINARY, args));
  };
  const std::string ro_clean = (ro / "clean").string(), ro_crashed = (ro / "crashed").string();
  auto r = on_ro("sql --datadir " + ro_clean + " -N -e \"SELECT COUNT(*) FROM d.t\"");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("--read-only"), std::string::npos) << r.err;  // the way out, named
  for (const char* flag : {"--read-only", "--force-recovery 6"}) {
    r = on_ro("sql --datadir " + ro_clean + " " + flag + " -N -e \"SELECT id FROM d.t ORDER BY id\"");
    EXPECT_EQ(r.exit_code, 0) << flag << ": " << r.err;
    EXPECT_EQ(r.out, "1\n2\n") << flag;
    r = on_ro("sql --datadir " + ro_clean + " " + flag + " -e \"INSERT INTO d.t VALUES (3)\"");
    EXPECT_EQ(r.exit_code, 1) << flag;
  }
  r = on_ro("sql --datadir " + ro_crashed + " --read-only -N -e \"SELECT COUNT(*) FROM d.t\"");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("past its checkpoint"), std::string::npos) << r.err;
  r = on_ro("sql --datadir " + ro_crashed + " --force-recovery 6 -N -e \"SHOW DATABASES\"");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(strata::testing::RunCommand("cd " + src.string() + " && find . -type f | sort | xargs sha256sum").out,
            before);
}

// What a dump asks for and Strata does not do is said, by name, where the user looks: the
// import summary and SHOW WARNINGS (views were skipped with exit 0 and not a word). The
// dump's trigger and single-table view, in their versioned comments, are made, its foreign
// key kept; its view over a join is skipped, by name.
TEST(SqlCliTest, WhatADumpAsksAndStrataSkipsIsNamed) {
  TempDir tmp;
  const auto dump = tmp.path() / "d.sql";
  std::ofstream(dump) << R"(CREATE DATABASE shop;
USE shop;
CREATE TABLE p (id INT PRIMARY KEY);
CREATE TABLE c (id INT PRIMARY KEY, pid INT, KEY (pid),
  CONSTRAINT `c_ibfk_1` FOREIGN KEY (`pid`) REFERENCES `p` (`id`) ON DELETE CASCADE);
INSERT INTO p VALUES (1);
/*!50001 CREATE ALGORITHM=UNDEFINED */
/*!50013 DEFINER=`root`@`localhost` SQL SECURITY DEFINER */
/*!50001 VIEW `v` AS select `p`.`id` AS `id` from `p` join `c` */;
/*!50001 CREATE ALGORITHM=UNDEFINED */
/*!50013 DEFINER=`root`@`localhost` SQL SECURITY DEFINER */
/*!50001 VIEW `w` AS select `p`.`id` + 1 AS `next` from `p` */;
DELIMITER ;;
/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER `c_bi` BEFORE INSERT ON `c` FOR EACH ROW SET NEW.pid = NEW.pid */;;
DELIMITER ;
)";
  auto r = Strata("import " + dump.string() + " --datadir " + (tmp.path() / "i").string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1 warnings"), std::string::npos) << r.out;
  for (const char* named : {"at line 7 of", "Skipped VIEW `v`"})
    EXPECT_NE(r.err.find(named), std::string::npos) << named << "\n" << r.err;
  EXPECT_EQ(r.err.find("FOREIGN KEY"), std::string::npos) << r.err;
  r = Strata("sql --datadir " + (tmp.path() / "i").string() + " shop -N -e 'SELECT * FROM w'");
  EXPECT_EQ(r.out, "2\n") << r.err;
  r = Strata("sql --datadir " + (tmp.path() / "i").string() + " shop -N -e 'SHOW CREATE TRIGGER c_bi'");
  EXPECT_NE(r.out.find("TRIGGER `c_bi` BEFORE INSERT ON `c` FOR EACH ROW SET NEW.pid = NEW.pid"), std::string::npos)
      << r.out << r.err;
  r = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + (tmp.path() / "s").string() + " < " + dump.string() +
                 " && " + STRATA_BINARY + " sql --datadir " + (tmp.path() / "s").string() +
                 " shop -N -e 'SHOW CREATE TABLE c; DELETE FROM p; SELECT COUNT(*) FROM c'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CONSTRAINT `c_ibfk_1` FOREIGN KEY (`pid`) REFERENCES `p` (`id`) ON DELETE CASCADE"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(r.out.ends_with("\n0\n")) << r.out;
}

// ENUM, SET and BIT columns of every storage width (an ENUM of 1 and 2 bytes, SETs of 1, 2,
// 3, 4 and 8, BITs of 1 to 8, latin1 labels), TIME of every precision, UUID, INET4, INET6,
// shapes and JSON, with secondary keys, read back by the inspector from Strata's own file
// exactly as `strata sql` prints them: the bytes are those MySQL writes, which the inspector's
// decoder reads in the server's files too (ServerRowsTest).
TEST(SqlCliTest, NewColumnTypesReadBackThroughTheInspector) {
  TempDir tmp;
  const auto labels = [](const char* prefix, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += fmt::format("{}'{}{}'", i ? "," : "", prefix, i);
    return out;
  };
  const int set_sizes[] = {1, 8, 9, 17, 25, 33, 64};
  std::string script = "CREATE DATABASE w; USE w;\nCREATE TABLE t (id INT PRIMARY KEY, e1 ENUM(" + labels("a", 3) +
                       "), e2 ENUM(" + labels("b", 300) + ") NOT NULL, l SET('é','ü','x') CHARACTER SET latin1";
  for (int n : set_sizes) script += fmt::format(", s{} SET({})", n, labels("m", n));
  const int bit_sizes[] = {1, 7, 9, 24, 33, 57, 64};
  for (int n : bit_sizes) script += fmt::format(", b{} BIT({})", n, n);
  const int time_digits[] = {0, 1, 2, 3, 4, 5, 6};
  for (int f : time_digits) script += fmt::format(", t{} TIME({})", f, f);
  script += ", u UUID, i4 INET4, i6 INET6, g GEOMETRY, p POINT, j JSON";
  script += ", KEY k2 (e2), KEY k64 (s64), KEY kb (b33), KEY kt (t3), KEY ku (u));\n";
  std::mt19937_64 rng(7);
  for (int id = 1; id <= 400; ++id) {
    script += fmt::format("INSERT INTO t VALUES ({}, {}, 'b{}', {}", id,
                          id % 4 == 0 ? "NULL" : std::to_string(id % 3 + 1), rng() % 300, id % 8);
    for (int n : set_sizes) {
      const std::uint64_t mask = n == 64 ? rng() : rng() & ((std::uint64_t{1} << n) - 1);
      script += id % 7 == 0 ? ", NULL" : fmt::format(", {}", mask);
    }
    for (int n : bit_sizes) {
      const std::uint64_t bits = n == 64 ? rng() : rng() & ((std::uint64_t{1} << n) - 1);
      script += id % 5 == 0 ? ", NULL" : fmt::format(", {}", bits);
    }
    for ([[maybe_unused]] int f : time_digits) {  // negative ones too, and the ends of the range
      const int h = id % 50 == 0 ? 838 : static_cast<int>(rng() % 839);
      script += fmt::format(", '{}{}:{:02}:{:02}.{:06}'", rng() % 2 ? "-" : "", h, rng() % 60, rng() % 60,
                            id % 50 == 0 ? 999999 : rng() % 1000000);
    }
    // Version 1 (stored time first) and random ones; IPv4-mapped and plain IPv6.
    script += fmt::format(", '{:08x}-{:04x}-{}{:03x}-{:04x}-{:012x}', '{}.{}.{}.{}', '{:x}::{:x}:{}.{}.{}.{}'",
                          rng() & 0xFFFFFFFF, rng() & 0xFFFF, id % 2 ? 1 : 4, rng() & 0xFFF, 0x8000 | (rng() & 0x3FFF),
                          rng() & 0xFFFFFFFFFFFF, rng() % 256, rng() % 256, rng() % 256, rng() % 256, rng() & 0xFFFF,
                          rng() & 0xFFFF, rng() % 256, rng() % 256, rng() % 256, rng() % 256);
    // Shapes: a line of many points now and then (off-page at 600 points), points always.
    std::string line;
    for (std::uint64_t k = 0, n = id % 97 == 0 ? 600 : 2 + rng() % 5; k < n; ++k)
      line += fmt::format("{}{} {}", k ? "," : "", static_cast<double>(rng() % 100000) / 7, -static_cast<double>(k));
    script += fmt::format(", ST_GeomFromText('LINESTRING({})'), POINT({}, {})", line, id, -id);
    // JSON: keys MySQL reorders, numbers of every width, and now and then a large document.
    script +=
        fmt::format(R"(, '{{"id": {}, "b": [{}, {}, {}.5, "{}"], "a": {{"n": null, "t": true}}{}}}')", id,
                    rng() % 70000, -static_cast<std::int64_t>(rng() % 5000000000), rng() % 100,
                    std::string(id % 13, 'x'), id % 101 == 0 ? ", \"big\": \"" + std::string(70000, 'y') + "\"" : "");
    script += ");\n";
  }
  std::ofstream(tmp.path() / "e.sql") << script;
  const std::string dir = (tmp.path() / "d").string();
  auto r = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + dir + " < " + (tmp.path() / "e.sql").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto selected = Strata("sql --datadir " + dir + " w -e 'SELECT * FROM t ORDER BY id'");
  ASSERT_EQ(selected.exit_code, 0) << selected.err;
  EXPECT_NE(selected.out.find("m0,m1"), std::string::npos) << selected.out.substr(0, 2000);
  const auto inspected = Strata("inspect rows " + dir + "/w/t.ibd");
  ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
  EXPECT_EQ(inspected.out, selected.out);
  const auto by_key = Strata("inspect rows --index k2 " + dir + "/w/t.ibd");
  EXPECT_EQ(by_key.exit_code, 0) << by_key.err;
  EXPECT_EQ(Strata("sql --datadir " + dir + " w -N -e 'SELECT COUNT(*) FROM t WHERE e2 = 0'").out, "0\n");
}

TEST(SqlCliTest, ScriptErrorsNameTheLineAndForceGoesOn) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  const auto script = tmp.path() / "s.sql";
  std::ofstream(script) << "CREATE DATABASE d;\nUSE d;\nCREATE TABLE t (id int PRIMARY KEY);\n"
                           "INSERT INTO t VALUES (1);\n\nINSERT INTO t\n VALUES (1);\nSELECT COUNT(*) FROM t;\n";
  auto r = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + dir + " < " + script.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "ERROR 1062 (23000) at line 6: Duplicate entry '1' for key 't.PRIMARY'\n");
  EXPECT_EQ(r.out, "");  // stopped before the SELECT
  std::ofstream(script) << "SELEC 1;\nSELECT COUNT(*) AS n FROM t;\n";
  r = RunCommand(std::string(STRATA_BINARY) + " sql --datadir " + dir + " -D d --force < " + script.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ERROR 1064 (42000) at line 1: You have an error in your SQL syntax"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "n\n1\n");
}

// A zeroed page 0 of one table: the shell opens, says which table it set aside and why, and
// the other table reads and takes rows; the damaged one is ERROR 1877 on every open, and its
// file is never written (it used to take an INSERT that wrote a made-up header over the damage
// and made the whole directory unopenable).
TEST(SqlCliTest, AZeroedTableHeaderFailsThatTableAloneOnEveryOpen) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  ASSERT_EQ(Strata("sql --datadir " + dir +
                   " -e 'CREATE DATABASE d; USE d; CREATE TABLE t1 (id INT PRIMARY KEY); CREATE TABLE t2 (id INT "
                   "PRIMARY KEY); INSERT INTO t1 VALUES (1); INSERT INTO t2 VALUES (1)'")
                .exit_code,
            0);
  const auto t1 = tmp.path() / "d" / "d" / "t1.ibd";
  strata::testing::OverwriteAt(t1, 0, std::string(16384, '\0'));
  std::filesystem::resize_file(tmp.path() / "d" / "ib_doublewrite", 0);  // no copy to repair it from
  const auto damaged = strata::testing::ReadWholeFile(t1);
  for (int open = 0; open < 2; ++open) {
    auto r = Strata("sql --datadir " + dir + " d -e 'INSERT INTO t2 VALUES (" + std::to_string(open + 2) +
                    "); SELECT COUNT(*) AS n FROM t2; SHOW TABLES'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "n\n" + std::to_string(open + 2) + "\nTables_in_d\nt1\nt2\n");
    EXPECT_NE(r.err.find("warning: Operation cannot be performed. The table 'd.t1' is missing, corrupt or contains "
                         "bad data:"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("t1.ibd: page 0 offset 0: all zeros"), std::string::npos) << r.err;
    r = Strata("sql --datadir " + dir + " d -e 'INSERT INTO t1 VALUES (5)'");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("ERROR 1877 (HY000) at line 1: Operation cannot be performed. The table 'd.t1'"),
              std::string::npos)
        << r.err;
  }
  EXPECT_TRUE(strata::testing::ReadWholeFile(t1) == damaged) << "the damaged file was written to";
  // DROP TABLE takes it away, file and all; the name is free again.
  auto r = Strata("sql --datadir " + dir + " d -e 'DROP TABLE t1; CREATE TABLE t1 (a INT); SHOW TABLES'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "Tables_in_d\nt1\nt2\n");
}

TEST(SqlCliTest, ImportNamesTheLineAndFileOfABadRow) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  const auto dump = tmp.path() / "bad.sql";
  std::ofstream(dump) << "CREATE DATABASE d;\nUSE d;\nCREATE TABLE t (id int PRIMARY KEY, v varchar(5));\n"
                         "INSERT INTO t VALUES (1,'a'),(2,'b');\nINSERT INTO t VALUES\n(3,'c'),\n(4,'d' 5);\n";
  auto r = Strata("import " + dump.string() + " --datadir " + dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ERROR 1064 (42000) at line 5: You have an error in your SQL syntax; check the manual that "
                       "corresponds to your MySQL server version for the right syntax to use near '5)' at line 3"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(dump.string()), std::string::npos) << r.err;
  // The statement before it is in; the broken one changed nothing.
  auto n = Strata("sql --datadir " + dir + " -D d -N -e 'SELECT COUNT(*) FROM t'");
  EXPECT_EQ(n.out, "2\n");
  // A truncated gzip file is named, not taken for a short dump.
  const auto gz = tmp.path() / "cut.sql.gz";
  RunCommand("head -c 100000 " + (kDump / "dump.sql.gz").string() + " > " + gz.string());
  r = Strata("import " + gz.string() + " --datadir " + (tmp.path() / "e").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(gz.string()), std::string::npos) << r.err;
}

// An INSERT the importer cannot read as literals alone (a versioned comment, as sakila's
// address rows have) runs in its table's loader session with what the dump SET before it:
// foreign_key_checks=0 lets a row whose parent comes later in.
TEST(SqlCliTest, ImportRunsEveryInsertWithTheDumpsSettings) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  const auto dump = tmp.path() / "fk.sql";
  std::ofstream(dump) << "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;\n"
                         "CREATE DATABASE d;\nUSE d;\nCREATE TABLE p (id INT UNSIGNED PRIMARY KEY);\n"
                         "CREATE TABLE c (id INT PRIMARY KEY, pid INT UNSIGNED, /*!50705 g INT,*/ x INT,\n"
                         "  FOREIGN KEY (pid) REFERENCES p (id));\n"
                         "INSERT INTO c VALUES (1, 5, /*!50705 9,*/ 7);\nINSERT INTO c VALUES (2, 6, 8, 9);\n"
                         "INSERT INTO p VALUES (5), (6);\n"
                         "/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;\n"
                         "INSERT INTO c VALUES (3, 6, /*!50705 1,*/ 2);\n";
  auto r = Strata("import " + dump.string() + " --datadir " + dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto rows = Strata("sql --datadir " + dir + " -D d -N -e 'SELECT * FROM c'");
  EXPECT_EQ(rows.out, "1\t5\t9\t7\n2\t6\t8\t9\n3\t6\t1\t2\n");
  // With the checks back on, a row without its parent is refused, through either path.
  const auto more = tmp.path() / "more.sql";
  std::ofstream(more) << "USE d;\nINSERT INTO c VALUES (4, 7, /*!50705 1,*/ 2);\n";
  r = Strata("import " + more.string() + " --datadir " + dir);
  EXPECT_NE(r.err.find("ERROR 1452"), std::string::npos) << r.err;
}

// Two tables loading side by side and a duplicate at line 65: every INSERT before that line is
// in (they were dropped when another table's loader had not reached them yet), whatever the
// threads' timing; what the summary says is what the tables hold.
TEST(SqlCliTest, FailedImportKeepsEveryStatementBeforeTheFailingLine) {
  TempDir tmp;
  const auto dump = tmp.path() / "two.sql";
  {
    std::ofstream f(dump);
    f << "CREATE DATABASE d;\nUSE d;\nCREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(50));\n"
         "CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(50));\n";
    for (int i = 0; i < 100; ++i) {
      if (i == 61) f << "INSERT INTO b VALUES (1,'dup'),(1,'dup');\n";  // line 66
      f << "INSERT INTO " << (i % 2 ? "b" : "a") << " VALUES ";
      for (int j = 0; j < 100; ++j) f << (j ? "," : "") << "(" << i * 100 + j << ",'x')";
      f << ";\n";
    }
  }
  for (int run = 0; run < 5; ++run) {
    const std::string dir = (tmp.path() / ("d" + std::to_string(run))).string();
    auto r = Strata("import " + dump.string() + " --datadir " + dir + " --threads 2");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("ERROR 1062 (23000) at line 66"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("Stopped at line 66"), std::string::npos) << r.out;
    auto counts = Strata("sql --datadir " + dir + " -D d -N -e 'SELECT COUNT(*) FROM a; SELECT COUNT(*) FROM b'");
    std::istringstream in(counts.out);
    long a = 0, b = 0;
    in >> a >> b;
    EXPECT_EQ(b, 3000) << "b's 30 INSERTs before the failing one";
    // a: its 31 INSERTs before line 66, and those after it only if the summary says so.
    long after = 0;
    if (auto at = r.out.find("rows of "); at != std::string::npos)
      after = std::stol(r.out.substr(r.out.rfind("; ", at) + 2));
    EXPECT_EQ(a, 3100 + after) << r.out;
  }
  // A gzip file cut between two statements is still named as damaged, not imported as a
  // shorter dump (zlib reports the missing end only through its error). The cut comes well
  // before line 66, whose duplicate key would otherwise race the reader to the first error.
  RunCommand("gzip -k " + dump.string() + " && head -c 4000 " + dump.string() + ".gz > " + dump.string() + ".cut.gz");
  auto r = Strata("import " + dump.string() + ".cut.gz --datadir " + (tmp.path() / "cut").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cut short"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("ERROR 1064"), std::string::npos) << "the partial last statement was run: " << r.err;
}

TEST(SqlCliTest, BatchResultsArriveAsEachStatementCompletes) {
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  const std::string fifo = (tmp.path() / "in").string(), out = (tmp.path() / "out").string();
  // The second statement is written only after the first one's result was read back: were
  // results held until the input ends, the wait for "42" would time out.
  const auto script = tmp.path() / "drive.sh";
  std::ofstream(script) << "mkfifo " << fifo << "\n"
                        << STRATA_BINARY << " sql --datadir " << dir << " < " << fifo << " > " << out << " &\n"
                        << "exec 3>" << fifo << "\n"
                        << "echo 'SELECT 41 + 1 AS answer;' >&3\n"
                        << "for i in $(seq 100); do grep -q 42 " << out << " && break; sleep 0.1; done\n"
                        << "grep -q 42 " << out << " || exit 3\n"
                        << "echo 'SELECT 7 AS seven;' >&3\n"
                        << "exec 3>&-\n"
                        << "wait\n"
                        << "cat " << out << "\n";
  auto r = RunCommand("bash " + script.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "answer\n42\nseven\n7\n");
}

TEST(SqlCliTest, InteractiveShellOnATerminalPrintsBoxedTables) {
  if (RunCommand("command -v script").exit_code != 0) GTEST_SKIP() << "util-linux `script` is not installed";
  TempDir tmp;
  const std::string dir = (tmp.path() / "d").string();
  const std::string typed =
      "CREATE DATABASE x;\\nUSE x;\\nCREATE TABLE t (id int PRIMARY KEY, name varchar(10));\\n"
      "INSERT INTO t VALUES (1,'apple'),(22,NULL);\\nSELECT * FROM t;\\nSELECT name\\n FROM t WHERE id = "
      "1\\\\G\\nquit\\n";
  auto r = RunCommand("printf \"" + typed + "\" | HOME=" + tmp.path().string() + " timeout 60 script -qfec '" +
                      STRATA_BINARY + " sql --datadir " + dir + "' /dev/null | tr -d '\\r'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("strata> "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Query OK, 2 rows affected"), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find("+----+-------+\n| id | name  |\n+----+-------+\n|  1 | apple |\n| 22 | NULL  |\n+----+-------+\n"
                 "2 rows in set"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    -> "), std::string::npos) << r.out;  // the continuation prompt
  EXPECT_NE(r.out.find("*************************** 1. row ***************************\nname: apple\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Bye"), std::string::npos) << r.out;
}

}  // namespace
